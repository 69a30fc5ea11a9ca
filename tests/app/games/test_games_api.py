"""The REST API the pages use: every endpoint, its success and each of its refusals.

Every refusal is checked twice: the error (status, ``{"error", "code"}`` shape, stable code)
and that nothing changed (the game read again is the same; no game appeared in the lobby).
"""

from __future__ import annotations

import base64
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

import engine
from app.http.identity import COOKIE
from tests.app.accounts_and_streams import assert_error
from tests.app.conftest import Player, invite_token, receive, send, started_game

# What this module tests is the same on either database (tests/app/conftest.py).
pytestmark = pytest.mark.sqlite_only

URLSAFE = re.compile(r"[A-Za-z0-9_-]+")
# what the signed cookie carries for the player id 0000000000000000
OTHER_PAYLOAD = base64.urlsafe_b64encode(b'"' + b"0" * 16 + b'"').decode().rstrip("=")


# ---- helpers -----------------------------------------------------------------------------
def snapshot(player: Player, game_id: str) -> dict[str, Any]:
    """The game as GET /api/games/{id} shows it, without the server's clock reading."""
    response = player.get(f"/api/games/{game_id}")
    assert response.status_code == 200, response.text
    game: dict[str, Any] = response.json()["game"]
    game.pop("serverTime")
    return game


def visit(client: TestClient, cookie: str | None = None) -> Any:
    """GET /api/me as a browser that sends ``cookie`` (None: a first visit), leaving the
    test client's cookie jar empty so that no later request carries this cookie."""
    client.cookies.clear()
    headers = {} if cookie is None else {"cookie": f"{COOKIE}={cookie}"}
    response = client.get("/api/me", headers=headers)
    client.cookies.clear()
    return response


def lobby(client: TestClient) -> dict[str, Any]:
    response = client.get("/api/lobby")
    client.cookies.clear()
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def ids(entries: list[dict[str, Any]]) -> list[str]:
    return [e["id"] for e in entries]


# ---- identity ----------------------------------------------------------------------------
def test_first_visit_sets_a_cookie_and_gives_an_anonymous_name(client: TestClient):
    response = visit(client)
    assert response.status_code == 200
    me = response.json()
    assert re.fullmatch(r"[0-9a-f]{16}", me["id"])
    assert re.fullmatch(r"Anonymous [0-9A-F]{4}", me["name"])
    assert me["name"] == f"Anonymous {me['id'][:4].upper()}"
    header = response.headers["set-cookie"]
    assert header.startswith(f"{COOKIE}=")
    assert "httponly" in header.lower()
    assert "samesite=lax" in header.lower()
    assert "max-age=" in header.lower()


def test_the_same_identity_while_the_cookie_is_kept(client: TestClient):
    first = visit(client)
    cookie = first.cookies[COOKIE]
    again = visit(client, cookie)
    assert again.status_code == 200
    assert again.json() == first.json()
    assert "set-cookie" not in again.headers  # nothing new to set


def test_a_program_with_a_token_is_given_no_identity_cookie(client: TestClient):
    client.cookies.clear()
    response = client.get("/api/lobby", headers={"authorization": "Bearer lip_none"})
    assert response.status_code == 200
    assert "set-cookie" not in response.headers


def test_the_identity_cookie_is_secure_when_the_site_says_so(make_client: Any):
    secure = make_client(cookie_secure=True)
    assert "; secure" in visit(secure).headers["set-cookie"].lower()


def test_two_first_visits_are_two_people(client: TestClient):
    assert visit(client).json()["id"] != visit(client).json()["id"]


@pytest.mark.parametrize("tamper", ["signature", "payload", "garbage", "empty"])
def test_a_tampered_cookie_gives_a_new_identity(client: TestClient, tamper: str):
    first = visit(client)
    cookie = first.cookies[COOKIE]
    payload, signature = cookie.rsplit(".", 1)
    forged = {
        # the first character: the last one of base64 may hold only padding bits
        "signature": f"{payload}.{'A' if signature[0] != 'A' else 'B'}{signature[1:]}",
        # someone else's id under the old signature
        "payload": f"{OTHER_PAYLOAD}.{signature}",
        "garbage": "not-a-cookie",
        "empty": "",
    }[tamper]
    response = visit(client, forged)
    assert response.status_code == 200
    assert response.json()["id"] != first.json()["id"]
    assert response.json()["id"] != "0" * 16
    assert response.headers["set-cookie"].startswith(f"{COOKIE}=")


def test_a_player_cookie_is_that_player(alice: Player):
    me = alice.get("/api/me").json()
    assert (me["id"], me["name"]) == (alice.who.id, alice.who.name)
    assert set(me) == {"id", "name", "count"}  # the counts: test_outbox.py


# ---- variants ----------------------------------------------------------------------------
def test_variants_describe_the_five_games(client: TestClient):
    response = client.get("/api/variants")
    assert response.status_code == 200
    variants = response.json()
    assert [v["id"] for v in variants] == list(engine.game_ids())
    for v in variants:
        game = engine.get_game(v["id"])
        assert v["name"] == game.name
        assert v["start"] == game.to_text(game.start())
        assert v["board"] == {"files": game.files, "ranks": game.ranks}
        assert v["rules"] == game.options
        for option in v["options"]:
            assert option["default"] in option["values"]
    jungle = variants[engine.game_ids().index("jungle")]
    assert {o["name"] for o in jungle["options"]} == {"traps", "repetition"}


# ---- creating a game ---------------------------------------------------------------------
@pytest.mark.parametrize("variant", engine.game_ids())
def test_create_each_game(alice: Player, variant: str):
    created = alice.create(variant)
    rules = engine.get_game(variant)
    game = created["game"]
    assert created["id"] == game["id"]
    assert created["url"].endswith(f"/game/{game['id']}")
    assert "/invite/" in created["inviteUrl"]
    assert game["variant"] == variant
    assert game["name"] == rules.name
    assert game["rules"] == rules.options
    assert game["status"] == "created"
    assert (game["ply"], game["moves"]) == (0, [])
    assert game["fen"] == rules.to_text(rules.start())
    assert game["turn"] == "first"
    assert game["legalMoves"] == []  # nobody can move before the opponent arrives
    assert game["result"] is None
    assert game["clock"] is None
    assert game["public"] is True
    assert game["players"]["first"] == {"id": alice.who.id, "name": alice.who.name}
    assert game["players"]["second"] is None
    assert game["players"]["creator"]["id"] == alice.who.id
    assert snapshot(alice, game["id"]) == {k: v for k, v in game.items() if k != "serverTime"}


@pytest.mark.parametrize(
    ("variant", "rules", "expected"),
    [
        ("jungle", {"traps": "opponent"}, {"traps": "opponent", "repetition": "draw"}),
        ("jungle", {"repetition": "tiebreak"}, {"traps": "any", "repetition": "tiebreak"}),
        ("dobutsu", {"ruleset": "yokai"}, {"ruleset": "yokai"}),
        ("dobutsu", {}, {"ruleset": "dobutsu"}),
        ("wali", {}, {}),
    ],
)
def test_rule_options_are_validated_and_completed_with_defaults(
    alice: Player, variant: str, rules: dict[str, str], expected: dict[str, str]
):
    assert alice.create(variant, rules=rules)["game"]["rules"] == expected


@pytest.mark.parametrize(
    ("asked", "expected"),
    [
        (None, None),
        ({"minutes": 5, "increment": 3}, (300_000, 3_000)),
        ({"minutes": 0.5, "increment": 0}, (30_000, 0)),
        ({"minutes": 180, "increment": 180}, (10_800_000, 180_000)),
    ],
)
def test_clock_is_fischer_minutes_and_increment_or_none(
    alice: Player, asked: dict[str, Any] | None, expected: tuple[int, int] | None
):
    game = alice.create("dobutsu", clock=asked)["game"]
    if expected is None:
        assert game["clock"] is None
        return
    initial, increment = expected
    assert game["clock"]["initial"] == initial
    assert game["clock"]["increment"] == increment
    assert (game["clock"]["first"], game["clock"]["second"]) == (initial, initial)
    assert game["clock"]["running"] is False


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"variant": "chess"}, "game.unknown"),
        ({"variant": "Dobutsu"}, "game.unknown"),
        ({"variant": ""}, "game.unknown"),
        ({"variant": "jungle", "rules": {"lakes": "deep"}}, "option.invalid"),
        ({"variant": "jungle", "rules": {"traps": "sometimes"}}, "option.invalid"),
        ({"variant": "dobutsu", "rules": {"ruleset": "shogi"}}, "option.invalid"),
        ({"variant": "gorogoro", "rules": {"ruleset": "yokai"}}, "option.invalid"),
        ({"variant": "jungle", "rules": {"traps": 1}}, "request.invalid"),
        ({"variant": "jungle", "rules": ["traps"]}, "request.invalid"),
        ({"variant": "dobutsu", "clock": {"minutes": 0, "increment": 0}}, "request.invalid"),
        ({"variant": "dobutsu", "clock": {"minutes": -5, "increment": 0}}, "request.invalid"),
        ({"variant": "dobutsu", "clock": {"minutes": 181, "increment": 0}}, "request.invalid"),
        ({"variant": "dobutsu", "clock": {"minutes": 10_000, "increment": 2}}, "request.invalid"),
        ({"variant": "dobutsu", "clock": {"minutes": 5, "increment": -1}}, "request.invalid"),
        ({"variant": "dobutsu", "clock": {"minutes": 5, "increment": 181}}, "request.invalid"),
        ({"variant": "dobutsu", "clock": {"minutes": "ten", "increment": 0}}, "request.invalid"),
        ({"variant": "dobutsu", "clock": {"increment": 2}}, "request.invalid"),
        ({"variant": "dobutsu", "clock": 5}, "request.invalid"),
        ({"variant": "dobutsu", "color": "blue"}, "request.invalid"),
        ({"variant": "dobutsu", "color": "white"}, "request.invalid"),
        ({"variant": "dobutsu", "color": None}, "request.invalid"),
        ({"variant": "dobutsu", "public": "maybe"}, "request.invalid"),
        # Strict types: what the docs refuse is refused, not coerced.
        ({"variant": "dobutsu", "public": "yes"}, "request.invalid"),
        ({"variant": "dobutsu", "public": "true"}, "request.invalid"),
        ({"variant": "dobutsu", "public": 1}, "request.invalid"),
        ({"variant": "dobutsu", "public": 0}, "request.invalid"),
        ({"variant": "dobutsu", "clock": {"minutes": "5", "increment": 3}}, "request.invalid"),
        ({"variant": "dobutsu", "clock": {"minutes": 5, "increment": "3"}}, "request.invalid"),
        ({"variant": "dobutsu", "clock": {"minutes": 5, "increment": 3.0}}, "request.invalid"),
        ({"variant": "dobutsu", "clock": {"minutes": True, "increment": 0}}, "request.invalid"),
        ({"variant": "dobutsu", "rated": "yes"}, "request.invalid"),
        (
            {"variant": "dobutsu", "clock": {"minutes": 5, "increment": 0, "delay": 2}},
            "request.invalid",
        ),
        ({"rules": {}}, "request.invalid"),
        ({"variant": 5}, "request.invalid"),
        ([{"variant": "dobutsu"}], "request.invalid"),
        ("dobutsu", "request.invalid"),
    ],
)
def test_create_refusals(client: TestClient, alice: Player, body: Any, code: str):
    before = lobby(client)
    assert_error(alice.post("/api/games", body), 400, code)
    assert lobby(client) == before


@pytest.mark.parametrize("minutes", [1e-300, 1e-6, 0.0166])
def test_a_clock_below_one_second_once_rounded_is_refused(
    client: TestClient, alice: Player, minutes: float
):
    """Above 0 but under a second once in milliseconds: 1e-300 minutes would round to a
    0 ms clock (a game lost at the first tick)."""
    before = lobby(client)
    body = {"variant": "dobutsu", "clock": {"minutes": minutes, "increment": 0}}
    assert_error(alice.post("/api/games", body), 400, "clock.invalid")
    assert lobby(client) == before


def test_minutes_may_be_a_json_integer_or_a_fraction(alice: Player):
    whole = alice.create("dobutsu", clock={"minutes": 3, "increment": 2})["game"]["clock"]
    half = alice.create("dobutsu", clock={"minutes": 0.5, "increment": 0})["game"]["clock"]
    assert (whole["initial"], whole["increment"], half["initial"]) == (180_000, 2000, 30_000)


def test_the_shortest_clock_is_one_second(alice: Player):
    created = alice.create("dobutsu", clock={"minutes": 1 / 60, "increment": 0})
    assert created["game"]["clock"]["initial"] == 1000


@pytest.mark.parametrize(
    ("content", "content_type"),
    [
        ("{not json", "application/json"),
        ('{"variant": "dobutsu"', "application/json"),
        ("", "application/json"),
        ("variant=dobutsu", "application/x-www-form-urlencoded"),
        ("\x00\x01", "application/octet-stream"),
    ],
)
def test_create_refuses_a_body_that_is_not_a_json_object(
    client: TestClient, alice: Player, content: str, content_type: str
):
    before = lobby(client)
    response = client.post(
        "/api/games", content=content, headers={**alice.headers, "content-type": content_type}
    )
    assert_error(response, 400, "request.invalid")
    assert lobby(client) == before


@pytest.mark.parametrize("color", ["first", "second"])
def test_the_creator_takes_the_chosen_colour_at_once(alice: Player, color: str):
    game = alice.create("dobutsu", color=color)["game"]
    assert game["players"][color]["id"] == alice.who.id
    assert game["players"]["second" if color == "first" else "first"] is None


def test_a_random_colour_seats_the_creator_when_the_opponent_arrives(alice: Player):
    game = alice.create("dobutsu", color="random")["game"]
    assert (game["players"]["first"], game["players"]["second"]) == (None, None)
    assert game["players"]["creator"]["id"] == alice.who.id


# ---- the invite link ---------------------------------------------------------------------
def test_invite_tokens_are_unguessable_and_distinct(client: TestClient, alice: Player):
    tokens = [invite_token(alice.create("dobutsu")) for _ in range(3)]
    for token in tokens:
        assert URLSAFE.fullmatch(token), token
        assert len(token) >= 22  # 22 url-safe characters carry 132 bits
    assert len(set(tokens)) == len(tokens)


def test_the_invite_token_is_only_shown_to_the_creator(
    client: TestClient, alice: Player, bob: Player
):
    created = alice.create("dobutsu", public=True)
    token = invite_token(created)
    assert token not in bob.get(f"/api/games/{created['id']}").text
    assert token not in client.get("/api/lobby").text
    client.cookies.clear()
    assert token != created["id"]


def test_invite_link_seats_the_visitor_and_starts_the_game(alice: Player, bob: Player):
    created = alice.create("dobutsu")
    response = bob.post(f"/api/invite/{invite_token(created)}")
    assert response.status_code == 200, response.text
    joined = response.json()
    assert joined == {"id": created["id"], "url": created["url"], "seat": "second"}
    game = snapshot(bob, created["id"])
    assert game["status"] == "started"
    assert game["players"]["first"]["id"] == alice.who.id
    assert game["players"]["second"] == {"id": bob.who.id, "name": bob.who.name}
    assert game["startedAt"] is not None
    assert game["legalMoves"] == ["b1a2", "b1c2", "b2b3", "c1c2"]


def test_a_private_game_is_joined_by_its_invite_link(alice: Player, bob: Player):
    created = alice.create("jungle", public=False)
    response = bob.post(f"/api/invite/{invite_token(created)}")
    assert response.status_code == 200, response.text
    assert snapshot(bob, created["id"])["status"] == "started"


def test_invite_respects_the_creators_colour(alice: Player, bob: Player):
    created = alice.create("dobutsu", color="second")
    response = bob.post(f"/api/invite/{invite_token(created)}")
    assert response.json()["seat"] == "first"
    players = snapshot(bob, created["id"])["players"]
    assert (players["first"]["id"], players["second"]["id"]) == (bob.who.id, alice.who.id)


def test_random_colour_gives_the_creator_each_seat_sometimes(make_client: Any):
    client = make_client(ratelimit_game_burst=100)  # 40 games created and joined at once
    alice, bob = Player(client, "alice"), Player(client, "bob")
    seen = set()
    for _ in range(20):  # all 20 alike by chance: 1 in 500 000
        created = alice.create("dobutsu", color="random")
        joined = bob.post(f"/api/invite/{invite_token(created)}").json()
        players = snapshot(alice, created["id"])["players"]
        creator_seat = "first" if players["first"]["id"] == alice.who.id else "second"
        assert players[joined["seat"]]["id"] == bob.who.id
        assert joined["seat"] != creator_seat
        seen.add(creator_seat)
    assert seen == {"first", "second"}


def test_an_unknown_invite_token_is_refused(alice: Player, bob: Player):
    created = alice.create("dobutsu")
    before = snapshot(alice, created["id"])
    assert_error(bob.post("/api/invite/" + "A" * 32), 404, "invite.not_found")
    assert_error(bob.post(f"/api/invite/{invite_token(created)[:-1]}"), 404, "invite.not_found")
    assert snapshot(alice, created["id"]) == before


def test_a_third_person_cannot_take_a_taken_seat(alice: Player, bob: Player, carol: Player):
    created = alice.create("dobutsu")
    token = invite_token(created)
    assert bob.post(f"/api/invite/{token}").status_code == 200
    before = snapshot(alice, created["id"])
    assert_error(carol.post(f"/api/invite/{token}"), 409, "game.seat_taken")
    assert snapshot(alice, created["id"]) == before


def test_the_creator_opening_the_own_link_changes_nothing(alice: Player):
    created = alice.create("dobutsu")
    before = snapshot(alice, created["id"])
    response = alice.post(f"/api/invite/{invite_token(created)}")
    assert response.status_code == 200, response.text
    assert response.json()["seat"] == "first"
    assert snapshot(alice, created["id"]) == before
    assert before["status"] == "created"


def test_the_opponent_opening_the_link_again_changes_nothing(alice: Player, bob: Player):
    created = alice.create("dobutsu")
    token = invite_token(created)
    bob.post(f"/api/invite/{token}")
    before = snapshot(alice, created["id"])
    response = bob.post(f"/api/invite/{token}")
    assert response.status_code == 200
    assert response.json()["seat"] == "second"
    assert snapshot(alice, created["id"]) == before


def test_the_link_of_a_cancelled_game_seats_nobody(alice: Player, bob: Player):
    created = alice.create("dobutsu")
    assert alice.post(f"/api/games/{created['id']}/cancel").status_code == 200
    before = snapshot(alice, created["id"])
    response = bob.post(f"/api/invite/{invite_token(created)}")
    assert response.status_code == 409, response.text
    assert response.json()["code"].startswith("game.")
    assert snapshot(alice, created["id"]) == before


# ---- joining a public game by its id -----------------------------------------------------
def test_join_a_public_game(alice: Player, bob: Player):
    created = alice.create("yote", public=True)
    response = bob.post(f"/api/games/{created['id']}/join")
    assert response.status_code == 200, response.text
    assert response.json() == {"id": created["id"], "url": created["url"], "seat": "second"}
    game = snapshot(bob, created["id"])
    assert game["status"] == "started"
    assert game["players"]["second"]["id"] == bob.who.id


def test_a_private_game_cannot_be_joined_by_its_id(alice: Player, bob: Player):
    created = alice.create("dobutsu", public=False)
    before = snapshot(alice, created["id"])
    assert_error(bob.post(f"/api/games/{created['id']}/join"), 403, "game.private")
    assert snapshot(alice, created["id"]) == before


def test_join_an_unknown_game(bob: Player):
    assert_error(bob.post("/api/games/nosuchgame/join"), 404, "game.not_found")


def test_join_a_started_game(alice: Player, bob: Player, carol: Player):
    created = alice.create("dobutsu", public=True)
    bob.post(f"/api/games/{created['id']}/join")
    before = snapshot(alice, created["id"])
    assert_error(carol.post(f"/api/games/{created['id']}/join"), 409, "game.seat_taken")
    assert snapshot(alice, created["id"]) == before


def test_the_creator_joining_the_own_game_changes_nothing(alice: Player):
    created = alice.create("dobutsu", public=True)
    before = snapshot(alice, created["id"])
    response = alice.post(f"/api/games/{created['id']}/join")
    assert response.status_code == 200
    assert response.json()["seat"] == "first"
    assert snapshot(alice, created["id"]) == before


# ---- cancelling --------------------------------------------------------------------------
def test_the_creator_cancels_before_anyone_joins(alice: Player):
    created = alice.create("dobutsu")
    response = alice.post(f"/api/games/{created['id']}/cancel")
    assert response.status_code == 200, response.text
    game = response.json()["game"]
    assert game["status"] == "aborted"
    assert game["result"] == {"winner": None, "reason": "canceled", "status": "aborted"}
    assert game["finishedAt"] is not None
    assert snapshot(alice, created["id"])["status"] == "aborted"


def test_only_the_creator_can_cancel(alice: Player, bob: Player):
    created = alice.create("dobutsu")
    before = snapshot(alice, created["id"])
    assert_error(bob.post(f"/api/games/{created['id']}/cancel"), 403, "game.not_creator")
    assert snapshot(alice, created["id"]) == before


def test_the_joined_player_cannot_cancel_either(alice: Player, bob: Player):
    game_id = started_game(alice, bob)
    before = snapshot(alice, game_id)
    assert_error(bob.post(f"/api/games/{game_id}/cancel"), 403, "game.not_creator")
    assert snapshot(alice, game_id) == before


def test_no_cancel_after_someone_joined(alice: Player, bob: Player):
    game_id = started_game(alice, bob)
    before = snapshot(alice, game_id)
    assert_error(alice.post(f"/api/games/{game_id}/cancel"), 409, "game.not_cancelable")
    assert snapshot(alice, game_id) == before


def test_cancel_twice(alice: Player):
    created = alice.create("dobutsu")
    alice.post(f"/api/games/{created['id']}/cancel")
    before = snapshot(alice, created["id"])
    assert_error(alice.post(f"/api/games/{created['id']}/cancel"), 409, "game.not_cancelable")
    assert snapshot(alice, created["id"]) == before


def test_cancel_an_unknown_game(alice: Player):
    assert_error(alice.post("/api/games/nosuchgame/cancel"), 404, "game.not_found")


# ---- reading a game ----------------------------------------------------------------------
def test_get_a_game(alice: Player, bob: Player, carol: Player):
    game_id = started_game(alice, bob, "jungle", clock={"minutes": 3, "increment": 2})
    response = carol.get(f"/api/games/{game_id}")  # anyone may read it
    assert response.status_code == 200
    game = response.json()["game"]
    for key in (
        "id", "variant", "name", "rules", "public", "moves", "players", "clock", "ply",
        "status", "fen", "turn", "check", "legalMoves", "result", "drawOffer", "deadline",
        "serverTime", "createdAt", "startedAt", "finishedAt",
    ):  # fmt: skip
        assert key in game, key
    assert game["id"] == game_id
    assert game["status"] == "started"
    assert game["clock"]["initial"] == 180_000
    assert game["deadline"] is not None  # the first move is due


def test_get_an_unknown_game(client: TestClient):
    response = client.get("/api/games/nosuchgame")
    client.cookies.clear()
    assert_error(response, 404, "game.not_found")


# ---- the lobby ---------------------------------------------------------------------------
def test_lobby_lists_open_public_games_and_live_games(
    client: TestClient, alice: Player, bob: Player, carol: Player
):
    public = alice.create("jungle", public=True, clock={"minutes": 5, "increment": 3})
    private = alice.create("dobutsu", public=False)
    live = started_game(bob, carol, "yote")
    data = lobby(client)
    assert public["id"] in ids(data["open"])
    assert private["id"] not in ids(data["open"])
    assert live not in ids(data["open"])
    assert live in ids(data["live"])
    assert public["id"] not in ids(data["live"])
    entry = next(e for e in data["open"] if e["id"] == public["id"])
    assert entry["variant"] == "jungle"
    assert entry["creator"] == alice.who.name
    assert entry["color"] == "first"
    assert entry["rules"] == {"traps": "any", "repetition": "draw"}
    assert entry["clock"] == {
        "initial": 300_000, "increment": 3_000, "byoyomi": None, "periods": None,
    }  # fmt: skip
    assert entry["days"] is None
    playing = next(e for e in data["live"] if e["id"] == live)
    assert (playing["first"], playing["second"]) == (bob.who.name, carol.who.name)


def test_a_game_leaves_the_open_list_when_joined_or_cancelled(
    client: TestClient, alice: Player, bob: Player
):
    joined = alice.create("dobutsu", public=True)
    cancelled = alice.create("dobutsu", public=True)
    bob.post(f"/api/games/{joined['id']}/join")
    alice.post(f"/api/games/{cancelled['id']}/cancel")
    data = lobby(client)
    assert cancelled["id"] not in ids(data["open"]) + ids(data["live"])
    assert joined["id"] not in ids(data["open"])
    assert joined["id"] in ids(data["live"])


def test_a_finished_game_leaves_the_live_list(client: TestClient, alice: Player, bob: Player):
    game_id = started_game(alice, bob)
    assert game_id in ids(lobby(client)["live"])
    with alice.socket(game_id) as ws:
        receive(ws, "state")
        send(ws, type="resign")
        assert receive(ws, "state")["game"]["status"] == "resign"
    assert game_id not in ids(lobby(client)["live"])


# ---- routes and methods ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/nothing"),
        ("POST", "/api/games/abc/unknown"),
        ("GET", "/api/games/abc/moves"),
        ("GET", "/no/such/page"),
    ],
)
def test_unknown_route(client: TestClient, method: str, path: str):
    response = client.request(method, path)
    client.cookies.clear()
    assert_error(response, 404, "not_found")


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/games"),
        ("DELETE", "/api/games/abc"),
        ("PUT", "/api/lobby"),
        ("GET", "/api/games/abc/cancel"),
        ("GET", "/api/invite/abc"),
        ("POST", "/api/me"),
    ],
)
def test_wrong_method(client: TestClient, method: str, path: str):
    response = client.request(method, path)
    client.cookies.clear()
    assert_error(response, 405, "method.not_allowed")


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("DELETE", "/api/lobby", "GET"),
        ("GET", "/api/games/abc/cancel", "POST"),
        ("PUT", "/api/games/abc", "GET"),
    ],
)
def test_a_wrong_method_answer_says_which_methods_the_route_has(
    client: TestClient, method: str, path: str, allowed: str
):
    response = client.request(method, path)
    client.cookies.clear()
    assert_error(response, 405, "method.not_allowed")
    assert response.headers["allow"] == allowed
