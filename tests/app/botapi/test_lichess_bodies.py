"""Bot-API bodies read as lichess reads them: JSON with dotted keys, null and ""
as "not given", lichess's own fields (accepted, ignored or refused with a code), games that
start from a position string (``fen``) in all five games, and ``POST /api/challenge/ai``'s
refusals (its games are played in tests/app/botapi/test_berserk.py against a real server)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

import engine
from app.botapi.eventlines import ChallengeOut, GameEvent
from app.botapi.exportmodels import GameExportOut
from app.botapi.models import GameFullEvent, GameStateEvent
from tests.app.accounts_and_streams import Account, Lines, assert_error, check
from tests.app.conftest import Player, settle

# What this module tests is the same on either database (tests/app/conftest.py).
pytestmark = pytest.mark.sqlite_only

FAST = {"keepalive_seconds": 0.1}
# A position of each game after one move from its start: the second player ("black") is to move.
AFTER_ONE_MOVE = {
    "dobutsu": "gle/1c1/LC1/E1G s -",
    "gorogoro": "sgkgs/5/1ppp1/1PPP1/S4/1GKGS s -",
    "jungle": "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/TC3D1/6L s 1 -",
    "yote": "6/6/6/6/S5 s 11 12 - - 0",
    "wali": "6/6/6/6/S5 s 11 12 0",
}
# Jungle's first player has just entered the den: the game is over in this position.
FINISHED_JUNGLE = "3C3/7/7/7/7/7/7/7/e6 s 1 -"


@pytest.fixture
def fast(make_client: Any) -> TestClient:
    client: TestClient = make_client(**FAST)
    return client


@pytest.fixture
def alice(client: TestClient) -> Account:
    return Account(client, "alice")


@pytest.fixture
def robot(client: TestClient) -> Account:
    return Account(client, "robot", bot=True)


def created(response: Any) -> dict[str, Any]:
    assert response.status_code == 200, response.text
    data: dict[str, Any] = check(ChallengeOut, response.json())
    return data


def pending_of(who: Account) -> list[str]:
    response = who.get("/api/challenge")
    assert response.status_code == 200, response.text
    return [c["id"] for c in response.json()["in"] + response.json()["out"]]


# ---- dotted keys, null and "" ---------------------------------------------------------------
def test_berserks_json_body_with_dotted_keys_and_nulls_makes_a_challenge(alice, robot):
    # Exactly what berserk's challenges.create(username, rated=False, clock_limit=300,
    # clock_increment=2, variant="jungle") posts: every parameter, None for the unset ones.
    body = {
        "rated": False,
        "clock.limit": 300,
        "clock.increment": 2,
        "days": None,
        "color": None,
        "variant": "jungle",
        "fen": None,
    }
    data = created(alice.post("/api/challenge/robot", body))
    assert data["timeControl"] == {"type": "clock", "limit": 300, "increment": 2, "show": "5+2"}
    assert data["variant"]["key"] == "jungle" and data["color"] == "random"
    assert "days" not in data and "initialFen" not in data


def test_empty_strings_are_not_given_in_forms_and_json(alice, robot):
    form = alice.form(
        "/api/challenge/robot",
        {"variant": "yote", "clock.limit": "", "clock.increment": "", "color": "", "days": ""},
    )
    data = created(form)
    assert data["timeControl"] == {"type": "unlimited"} and data["color"] == "random"
    data = created(alice.post("/api/challenge/robot", {"variant": "yote", "rules": {"x": None}}))
    assert data["rules"] == engine.get_game("yote").options


def test_dotted_and_nested_keys_mix_but_one_field_given_twice_is_refused(alice, robot):
    mixed = {"variant": "dobutsu", "clock": {"limit": 60}, "clock.increment": 1}
    assert created(alice.post("/api/challenge/robot", mixed))["timeControl"]["show"] == "1+1"
    twice = {"variant": "dobutsu", "clock": {"limit": 60}, "clock.limit": 90}
    assert_error(alice.post("/api/challenge/robot", twice), 400, "request.invalid")
    not_an_object = {"variant": "dobutsu", "clock": 60, "clock.limit": 90}
    assert_error(alice.post("/api/challenge/robot", not_an_object), 400, "request.invalid")
    assert len(pending_of(robot)) == 1


def test_fields_lichess_does_not_know_are_still_refused(alice, robot):
    assert_error(
        alice.post("/api/challenge/robot", {"variant": "dobutsu", "colour": "white"}),
        400,
        "request.invalid",
    )
    assert pending_of(robot) == []


def test_the_browser_api_stays_strict(client):
    browser = Player(client, "browser")
    for body in (
        {"variant": "dobutsu", "color": None},
        {"variant": "dobutsu", "clock.minutes": 5},
        {"variant": "dobutsu", "fen": AFTER_ONE_MOVE["dobutsu"]},
    ):
        assert_error(browser.post("/api/games", body), 400, "request.invalid")
    client.cookies.clear()
    assert client.get("/api/lobby").json()["open"] == []


# ---- lichess's own fields ----------------------------------------------------------------------
def test_an_open_challenges_name_is_kept_as_its_label(client):
    someone = Player(client, "someone")
    body = {"variant": "wali", "name": "Friday wali", "rated": None, "clock.limit": None}
    data = created(someone.post("/api/challenge/open", body))
    assert data["name"] == "Friday wali" and data["open"] is True
    assert created(someone.get(f"/api/challenge/{data['id']}/show"))["name"] == "Friday wali"
    unnamed = created(someone.post("/api/challenge/open", {"variant": "wali"}))
    assert "name" not in unnamed


@pytest.mark.parametrize(
    "body",
    [
        {"users": "alice,bob"},
        {"expiresAt": 1_900_000_000_000},
    ],
)
def test_open_challenge_fields_that_cannot_be_honoured_are_refused(client, body):
    someone = Player(client, "someone")
    response = someone.post("/api/challenge/open", {"variant": "wali", **body})
    assert_error(response, 400, "request.unsupported")


def test_a_message_is_accepted_and_ignored(alice, robot):
    body = {"variant": "dobutsu", "keepAliveStream": False, "message": "Your game: {game}"}
    assert created(alice.post("/api/challenge/robot", body))["status"] == "created"


@pytest.mark.parametrize(("answer", "done"), [("accept", "accepted"), ("decline", "declined")])
def test_a_kept_alive_challenge_streams_until_answered(fast, answer, done):
    alice, robot = Account(fast, "alice"), Account(fast, "robot", bot=True)
    body = {"variant": "dobutsu", "keepAliveStream": True}
    with alice.stream("/api/challenge/robot", method="POST", json=body) as response:
        lines = Lines(response)
        first = check(ChallengeOut, lines.next())
        assert first["status"] == "created" and first["destUser"]["name"] == "robot"
        assert lines.raw() == ""  # waiting: keep-alive lines
        assert robot.post(f"/api/challenge/{first['id']}/{answer}").status_code == 200
        assert lines.rest() == [{"done": done}]
    assert created(alice.get(f"/api/challenge/{first['id']}/show"))["status"] == done


def test_closing_a_kept_alive_challenge_cancels_it(fast):
    alice, robot = Account(fast, "alice"), Account(fast, "robot", bot=True)
    body = {"variant": "dobutsu", "keepAliveStream": True}
    with alice.stream("/api/challenge/robot", method="POST", json=body) as response:
        challenge_id = Lines(response).next()["id"]
    settle(fast)  # the cancel runs detached from the closed request
    assert created(alice.get(f"/api/challenge/{challenge_id}/show"))["status"] == "canceled"
    assert pending_of(robot) == []


def test_accept_by_token_starts_the_game_at_once(client, alice, robot):
    body = {"variant": "dobutsu", "color": "black", "acceptByToken": robot.token}
    response = alice.post("/api/challenge/robot", body)
    data = created(response)
    assert data["status"] == "accepted" and data["gameId"] == data["id"]
    game = data["game"]
    assert game["id"] == data["id"] and game["player"] == "black" and game["source"] == "friend"
    assert game["status"] == {"id": 20, "name": "started"} and game["turns"] == 0
    with robot.stream("/api/stream/event") as events:
        start = check(GameEvent, Lines(events).next("gameStart"))
    assert start["game"]["id"] == data["id"] and start["game"]["color"] == "white"


@pytest.mark.parametrize("whose", ["bogus", "challenger", "read-only"])
def test_accept_by_token_refuses_a_token_that_cannot_accept(alice, robot, whose):
    token = {
        "bogus": "kdm_not-a-token",
        "challenger": alice.token,
        "read-only": robot.new_token(("challenge:read",))["authorization"].split()[1],
    }[whose]
    response = alice.post("/api/challenge/robot", {"variant": "dobutsu", "acceptByToken": token})
    assert_error(response, 400, "challenge.accept_token")
    assert pending_of(robot) == []


def test_a_seek_accepts_berserks_form_with_an_empty_rating_range(fast, clock):
    alice, bob = Account(fast, "alice"), Account(fast, "bob")
    # berserk's board.seek(3, 2, variant="jungle") posts this form: a quick-pairing pool.
    form = {
        "rated": "false",
        "time": "3",
        "increment": "2",
        "variant": "jungle",
        "color": "random",
        "ratingRange": "",
    }
    with alice.stream("/api/board/seek", method="POST", data=form) as a:
        waiting = Lines(a)
        assert waiting.raw() == ""
        ranged = {**form, "ratingRange": "1500-1800"}  # both are 1500: within it
        with bob.stream("/api/board/seek", method="POST", data=ranged) as b:
            pairing = Lines(b)
            assert pairing.raw() == ""
            clock.advance(1000)  # the pool's next round
            paired = pairing.rest()
        assert waiting.rest() == paired and len(paired) == 1


# ---- games from a position ---------------------------------------------------------------------
@pytest.mark.parametrize("variant", sorted(AFTER_ONE_MOVE))
def test_a_challenge_from_a_position_starts_there_with_its_side_to_move(fast, variant):
    alice, robot = Account(fast, "alice"), Account(fast, "robot", bot=True)
    fen = AFTER_ONE_MOVE[variant]
    rules = engine.get_game(variant)
    body = {"variant": variant, "fen": fen, "color": "white"}
    challenge = created(alice.post("/api/challenge/robot", body))
    assert challenge["initialFen"] == fen
    assert robot.post(f"/api/challenge/{challenge['id']}/accept").status_code == 200
    game_id = challenge["id"]
    with robot.stream(f"/api/bot/game/stream/{game_id}") as r:
        lines = Lines(r)
        full = check(GameFullEvent, lines.next("gameFull"))
        assert full["initialFen"] == fen and full["state"]["fen"] == fen
        assert full["state"]["turn"] == "black"  # the position's side to move opens
        legal = rules.legal_moves(rules.from_text(fen))
        assert full["state"]["legalMoves"] == legal
        # white may not move first; black (robot) does, with a move of that position
        assert_error(
            alice.post(f"/api/board/game/{game_id}/move/{legal[0]}"), 409, "game.not_your_turn"
        )
        assert robot.post(f"/api/bot/game/{game_id}/move/{legal[0]}").status_code == 200
        state = check(GameStateEvent, lines.next("gameState"))
        after = rules.play(rules.from_text(fen), legal[0])
        assert state["moves"] == legal[0] and state["fen"] == rules.to_text(after)
        assert state["turn"] == "white" and state["ply"] == 1
    fast.cookies.clear()
    export = check(GameExportOut, fast.get(f"/api/game/{game_id}").json())
    assert export["initialFen"] == fen and export["moves"] == legal[0]
    # The browser's replay of the finished game starts from the position too.
    assert alice.post(f"/api/board/game/{game_id}/resign").status_code == 200
    fast.cookies.clear()
    replay = fast.get(f"/api/games/{game_id}").json()["game"]
    assert replay["positions"][:2] == [
        fen,
        " ".join(rules.to_text(after).split(" ")[: rules.TEXT_FIELDS]),
    ]
    assert replay["movers"] == ["second"]


def test_the_opening_side_has_moved_after_one_ply_in_a_game_from_a_position(fast):
    alice, robot = Account(fast, "alice"), Account(fast, "robot", bot=True)
    body = {"variant": "wali", "fen": AFTER_ONE_MOVE["wali"], "color": "white"}
    challenge = created(alice.post("/api/challenge/robot", body))
    robot.post(f"/api/challenge/{challenge['id']}/accept")
    robot.post(f"/api/bot/game/{challenge['id']}/move/*a2")
    with robot.stream("/api/stream/event") as events:
        game = check(GameEvent, Lines(events).next("gameStart"))["game"]
    assert game["color"] == "black" and game["hasMoved"] is True and game["isMyTurn"] is False


def test_the_start_position_given_as_fen_is_the_ordinary_start(alice, robot):
    start = engine.get_game("gorogoro")
    body = {"variant": "gorogoro", "fen": start.to_text(start.start())}
    assert "initialFen" not in created(alice.post("/api/challenge/robot", body))


@pytest.mark.parametrize(
    ("variant", "fen"),
    [
        ("dobutsu", "nonsense"),
        ("dobutsu", AFTER_ONE_MOVE["gorogoro"]),  # another game's position
        ("yote", "6/6/6/6/S5 s 13 12 - - 0"),  # more stones than the set
        ("jungle", FINISHED_JUNGLE),  # the game is already over there
    ],
)
def test_a_bad_position_is_refused(client, alice, robot, variant, fen):
    body = {"variant": variant, "fen": fen}
    assert_error(alice.post("/api/challenge/robot", body), 400, "position.invalid")
    assert_error(alice.post("/api/board/seek", body), 400, "position.invalid")
    assert_error(alice.post("/api/challenge/open", body), 400, "position.invalid")
    assert pending_of(robot) == []
    client.cookies.clear()
    assert client.get("/api/lobby").json()["open"] == []


def test_a_seek_from_a_position_pairs_only_with_the_same_position(fast):
    alice, bob, carol = (Account(fast, n) for n in ("alice", "bob", "carol"))
    fen = AFTER_ONE_MOVE["yote"]
    with alice.stream("/api/board/seek", method="POST", json={"variant": "yote", "fen": fen}) as a:
        waiting = Lines(a)
        assert waiting.raw() == ""
        with bob.stream("/api/board/seek", method="POST", json={"variant": "yote"}) as b:
            assert Lines(b).raw() == ""  # the ordinary start: not alice's game
        with carol.stream(
            "/api/board/seek", method="POST", json={"variant": "yote", "fen": fen}
        ) as c:
            paired = Lines(c).rest()
        assert waiting.rest() == paired
    fast.cookies.clear()
    game = fast.get(f"/api/game/{paired[0]['id']}").json()
    assert game["initialFen"] == fen and game["fen"] == fen and game["turn"] == "black"


# ---- POST /api/challenge/ai refusals ------------------------------------------------------------
def test_the_ai_is_refused_when_the_built_in_opponents_are_off(alice):
    response = alice.post("/api/challenge/ai", {"level": 3, "variant": "dobutsu"})
    assert_error(response, 503, "ai.unavailable")


@pytest.mark.parametrize("level", [0, 9, "strong", None])
def test_the_ai_level_is_one_to_eight(alice, level):
    response = alice.post("/api/challenge/ai", {"level": level, "variant": "dobutsu"})
    assert_error(response, 400, "request.invalid")


def test_ai_is_not_a_username(client, alice):
    # A player named "ai" cannot be challenged through /api/challenge/ai: lichess's route wins.
    Account(client, "ai", bot=True)
    response = alice.post("/api/challenge/ai", {"level": 1, "variant": "dobutsu"})
    assert_error(response, 503, "ai.unavailable")
