"""Challenges: create, show, list, accept, decline, cancel, expire, open challenges, their
events, scopes and rate limits — every refusal with its code, and that it changed nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.botapi.eventlines import ChallengeEvent, ChallengeOut, ChallengesOut, GameEvent
from app.core.errors import ServiceError
from app.games import Identity
from app.games.terms import GameTerms
from tests.app.accounts_and_streams import Account, Lines, assert_error, challenge, check
from tests.app.conftest import Player

# What this module tests is the same on either database (tests/app/conftest.py).
pytestmark = pytest.mark.sqlite_only


@pytest.fixture
def alice(client: TestClient) -> Account:
    return Account(client, "alice")


@pytest.fixture
def robot(client: TestClient) -> Account:
    return Account(client, "robot", bot=True)


def show(who: Any, challenge_id: str) -> dict[str, Any]:
    response = who.get(f"/api/challenge/{challenge_id}/show")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = check(ChallengeOut, response.json())
    return data


def game_of(player: Any, game_id: str) -> dict[str, Any]:
    response = player.get(f"/api/games/{game_id}")
    assert response.status_code == 200, response.text
    game: dict[str, Any] = response.json()["game"]
    return game


def pending(who: Any) -> dict[str, list[str]]:
    response = who.get("/api/challenge")
    assert response.status_code == 200, response.text
    data = check(ChallengesOut, response.json())
    return {k: [c["id"] for c in data[k]] for k in ("in", "out")}


# ---- create and show -----------------------------------------------------------------------
def test_a_challenge_is_created_and_shown_as_lichess_shows_one(alice, robot):
    created = challenge(
        alice, "Robot", clock={"limit": 180, "increment": 2}, color="white", rules={}
    )
    check(ChallengeOut, created)
    assert created["status"] == "created"
    new = {"rating": 1500, "provisional": True}  # neither has played rated
    assert created["challenger"] == {"id": alice.id, "name": "alice", "title": None, **new}
    assert created["destUser"] == {"id": robot.id, "name": "robot", "title": "BOT", **new}
    assert created["variant"] == {"key": "dobutsu", "name": "Dōbutsu shōgi"}
    assert created["timeControl"] == {"type": "clock", "limit": 180, "increment": 2, "show": "3+2"}
    assert created["speed"] == "blitz"
    assert created["color"] == "white" and created["finalColor"] is None
    assert created["rules"] == {"ruleset": "dobutsu"}
    assert created["rated"] is False
    assert created["url"].endswith(f"/challenge/{created['id']}")
    assert show(robot, created["id"]) == created
    assert pending(alice) == {"in": [], "out": [created["id"]]}
    assert pending(robot) == {"in": [created["id"]], "out": []}


def test_a_form_body_with_dotted_names_as_lichess_clients_post(alice, robot):
    response = alice.form(
        "/api/challenge/robot",
        {
            "variant": "jungle",
            "clock.limit": "300",
            "clock.increment": "5",
            "color": "black",
            "rated": "false",
            "rules.traps": "opponent",
        },
    )
    assert response.status_code == 200, response.text
    data = check(ChallengeOut, response.json())
    assert data["variant"]["key"] == "jungle"
    assert data["timeControl"]["limit"] == 300 and data["timeControl"]["increment"] == 5
    assert data["rules"]["traps"] == "opponent"
    assert data["color"] == "black"


def test_no_clock_is_unlimited_and_days_a_correspondence_game(alice, robot):
    assert challenge(alice, "robot")["timeControl"] == {"type": "unlimited"}
    data = challenge(alice, "robot", days=3)
    assert data["timeControl"] == {"type": "correspondence", "daysPerTurn": 3}
    assert data["days"] == 3 and data["speed"] == "correspondence"


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"variant": "chess"}, 400, "game.unknown"),
        ({"variant": "dobutsu", "rules": {"ruleset": "nope"}}, 400, "option.invalid"),
        ({"variant": "dobutsu", "rules": {"castling": "yes"}}, 400, "option.invalid"),
        (
            {"variant": "dobutsu", "rated": True, "fen": "gle/1c1/LC1/E1G f -"},
            400,
            "challenge.rated_position",
        ),
        ({"variant": "dobutsu", "clock": {"limit": 0, "increment": 0}}, 400, "clock.invalid"),
        ({"variant": "dobutsu", "clock": {"limit": 60, "increment": 999}}, 400, "clock.invalid"),
        ({"variant": "dobutsu", "clock": {"limit": 99999}}, 400, "clock.invalid"),
        ({"variant": "dobutsu", "clock": {"limit": 60}, "days": 2}, 400, "request.invalid"),
        ({"variant": "dobutsu", "days": 99}, 400, "request.invalid"),
        ({"variant": "dobutsu", "color": "green"}, 400, "request.invalid"),
        ({"variant": "dobutsu", "keepAlive": True}, 400, "request.invalid"),
        ({"rules": {}}, 400, "request.invalid"),
        ([1, 2], 400, "request.invalid"),
    ],
)
def test_bad_challenge_bodies_are_refused(alice, robot, body, status, code):
    assert_error(alice.post("/api/challenge/robot", body), status, code)
    assert pending(robot) == {"in": [], "out": []}


def test_a_body_that_is_not_json_nor_a_form_is_refused(alice, robot):
    alice.client.cookies.clear()
    response = alice.client.post(
        "/api/challenge/robot",
        content=b"{nope",
        headers={**alice.headers, "content-type": "application/json"},
    )
    assert_error(response, 400, "request.invalid")
    response = alice.client.post(
        "/api/challenge/robot",
        content=b"variant=dobutsu",
        headers={**alice.headers, "content-type": "text/plain"},
    )
    assert_error(response, 400, "request.invalid")
    huge = {"variant": "dobutsu", "rules": {f"o{i}": "x" * 100 for i in range(200)}}
    assert_error(alice.post("/api/challenge/robot", huge), 413, "request.too_large")
    assert pending(robot) == {"in": [], "out": []}


def test_unknown_users_and_yourself_cannot_be_challenged(alice):
    assert_error(alice.post("/api/challenge/nobody", {"variant": "dobutsu"}), 404, "user.not_found")
    assert_error(alice.post("/api/challenge/ALICE", {"variant": "dobutsu"}), 400, "challenge.self")
    assert pending(alice) == {"in": [], "out": []}


def test_an_unknown_challenge_is_404_everywhere(alice):
    for url in (
        "/api/challenge/zzzzzzzz/accept",
        "/api/challenge/zzzzzzzz/decline",
        "/api/challenge/zzzzzzzz/cancel",
    ):
        assert_error(alice.post(url), 404, "challenge.not_found")
    assert_error(alice.get("/api/challenge/zzzzzzzz/show"), 404, "challenge.not_found")


# ---- accept --------------------------------------------------------------------------------
def test_accepting_starts_the_game_under_the_challenge_id(alice, robot):
    created = challenge(alice, "robot", color="black", clock={"limit": 120, "increment": 1})
    response = robot.post(f"/api/challenge/{created['id']}/accept")
    assert response.status_code == 200, response.text
    assert response.json()["ok"] is True
    shown = show(alice, created["id"])
    assert shown["status"] == "accepted"
    assert shown["finalColor"] == "black" and shown["gameId"] == created["id"]
    game = game_of(alice, created["id"])
    assert game["status"] == "started"
    assert game["players"]["first"]["id"] == robot.id  # alice chose black
    assert game["players"]["second"]["id"] == alice.id
    assert game["clock"]["initial"] == 120_000 and game["clock"]["increment"] == 1000
    assert pending(robot) == {"in": [], "out": []}
    # answered: no second answer of any kind
    for action in ("accept", "decline"):
        body = assert_error(
            robot.post(f"/api/challenge/{created['id']}/{action}"), 409, "challenge.not_pending"
        )
        assert body["challengeStatus"] == "accepted"
    assert_error(alice.post(f"/api/challenge/{created['id']}/cancel"), 409, "challenge.not_pending")


def test_a_random_colour_is_drawn_on_acceptance(alice, robot):
    seen = set()
    for _ in range(12):
        created = challenge(alice, "robot")
        robot.post(f"/api/challenge/{created['id']}/accept")
        final = show(alice, created["id"])["finalColor"]
        game = game_of(alice, created["id"])
        side = "first" if final == "white" else "second"
        assert game["players"][side]["id"] == alice.id
        seen.add(final)
        if len(seen) == 2:
            break
    assert seen == {"white", "black"}


def test_only_the_challenged_player_accepts_or_declines(client, alice, robot):
    carol = Account(client, "carol")
    created = challenge(alice, "robot")
    for who in (alice, carol):
        for action in ("accept", "decline"):
            assert_error(
                who.post(f"/api/challenge/{created['id']}/{action}"), 403, "challenge.not_yours"
            )
    assert show(alice, created["id"])["status"] == "created"
    assert_error(alice.get(f"/api/games/{created['id']}"), 404, "game.not_found")


# ---- decline and cancel --------------------------------------------------------------------
def test_declining_with_a_reason(alice, robot):
    created = challenge(alice, "robot")
    response = robot.form(f"/api/challenge/{created['id']}/decline", {"reason": "tooFast"})
    assert response.status_code == 200, response.text
    shown = show(alice, created["id"])
    assert shown["status"] == "declined"
    assert shown["declineReasonKey"] == "tooFast"
    assert "too fast" in shown["declineReason"]
    assert pending(alice) == {"in": [], "out": []}
    assert_error(robot.post(f"/api/challenge/{created['id']}/accept"), 409, "challenge.not_pending")


def test_declining_without_a_reason_is_generic_and_a_bad_reason_is_refused(alice, robot):
    created = challenge(alice, "robot")
    response = robot.post(f"/api/challenge/{created['id']}/decline", {"reason": "smelly"})
    assert_error(response, 400, "request.invalid")
    assert show(alice, created["id"])["status"] == "created"
    robot.client.cookies.clear()
    response = robot.client.post(f"/api/challenge/{created['id']}/decline", headers=robot.headers)
    assert response.status_code == 200, response.text
    assert show(alice, created["id"])["declineReasonKey"] == "generic"


def test_the_challenger_cancels(alice, robot):
    created = challenge(alice, "robot")
    assert_error(robot.post(f"/api/challenge/{created['id']}/cancel"), 403, "challenge.not_yours")
    assert show(alice, created["id"])["status"] == "created"
    response = alice.post(f"/api/challenge/{created['id']}/cancel")
    assert response.status_code == 200 and response.json() == {"ok": True}
    assert show(alice, created["id"])["status"] == "canceled"
    assert_error(robot.post(f"/api/challenge/{created['id']}/accept"), 409, "challenge.not_pending")
    assert_error(alice.get(f"/api/games/{created['id']}"), 404, "game.not_found")


def test_a_stranger_is_refused_as_such_even_once_a_challenge_is_answered(client, alice, robot):
    carol = Account(client, "carol")
    created = challenge(alice, "robot")
    assert robot.post(f"/api/challenge/{created['id']}/decline").status_code == 200
    for who, action in ((carol, "decline"), (carol, "cancel"), (alice, "decline")):
        response = who.post(f"/api/challenge/{created['id']}/{action}")
        assert_error(response, 403, "challenge.not_yours")  # not the challenge's status
    assert_error(alice.post(f"/api/challenge/{created['id']}/cancel"), 409, "challenge.not_pending")
    assert show(alice, created["id"])["status"] == "declined"


def test_an_open_challenge_whose_start_failed_starts_when_a_link_is_opened_again(
    client, monkeypatch
):
    creator, bob, carol = (Player(client, n) for n in ("creator", "bob", "carol"))
    cid = creator.post("/api/challenge/open", {"variant": "jungle"}).json()["id"]
    assert bob.post(f"/api/challenge/{cid}/accept?color=black").status_code == 200
    games = client.app.state.services.games
    real = games.setup.create_started

    async def fails_once(*args: Any, **kwargs: Any) -> Any:
        monkeypatch.setattr(games.setup, "create_started", real)
        raise ServiceError("test.unavailable", "the database is away", 503)

    monkeypatch.setattr(games.setup, "create_started", fails_once)
    assert_error(carol.post(f"/api/challenge/{cid}/accept"), 503, "test.unavailable")
    shown = creator.get(f"/api/challenge/{cid}/show").json()
    assert shown["status"] == "created"  # waiting again, both seats held
    assert_error(carol.get(f"/api/games/{cid}"), 404, "game.not_found")
    again = carol.post(f"/api/challenge/{cid}/accept")  # opening the link again starts it
    assert again.status_code == 200, again.text
    assert again.json()["challenge"]["status"] == "accepted"
    assert game_of(carol, cid)["status"] == "started"


def test_an_accept_whose_game_cannot_be_written_leaves_the_challenge_waiting(client, alice, robot):
    """Accepting is one transaction: the challenge flips to accepted only with its game."""
    services = client.app.state.services
    created = challenge(alice, "robot")
    who = Identity(robot.id, "robot")

    async def accept_over_a_taken_id() -> Exception | None:
        # A row already holds the game's id: the insert fails inside the accept.
        await services.games.setup.create_started(
            created["id"],
            who,
            Identity(alice.id, "alice"),
            who,
            GameTerms("jungle"),
        )
        try:
            await services.challenges.accept(who, created["id"])
        except Exception as exc:  # the database's refusal, whatever its class
            return exc
        return None

    assert client.portal.call(accept_over_a_taken_id) is not None
    assert show(alice, created["id"])["status"] == "created"  # still waiting: nothing undone


def test_a_challenge_nobody_answers_expires(make_client, clock):
    client = make_client(challenge_expire_minutes=0.001)  # 60 ms
    alice, robot = Account(client, "alice"), Account(client, "robot", bot=True)
    created = challenge(alice, "robot")
    clock.advance(60)
    assert show(alice, created["id"])["status"] == "created"  # 60 ms old: not older yet
    clock.advance(1)
    assert pending(robot) == {"in": [], "out": []}
    assert show(alice, created["id"])["status"] == "expired"
    assert_error(robot.post(f"/api/challenge/{created['id']}/accept"), 409, "challenge.not_pending")


def test_of_an_accept_and_a_cancel_at_once_exactly_one_wins(client, alice, robot):
    services = client.app.state.services
    base = "http://testserver"
    for _ in range(3):
        created = challenge(alice, "robot")

        async def both(challenge_id: str = created["id"]) -> list[Any]:
            return list(
                await asyncio.gather(
                    services.challenges.accept(Identity(robot.id, "robot"), challenge_id),
                    services.challenges.cancel(Identity(alice.id, "alice"), challenge_id, base),
                    return_exceptions=True,
                )
            )

        results = client.portal.call(both)
        failed = [r for r in results if isinstance(r, ServiceError)]
        assert len(failed) == 1, results
        assert failed[0].code == "challenge.not_pending"
        status = show(alice, created["id"])["status"]
        started = alice.get(f"/api/games/{created['id']}").status_code == 200
        assert (status, started) in (("accepted", True), ("canceled", False))


# ---- events --------------------------------------------------------------------------------
def test_the_event_streams_hear_of_challenges_and_their_answers(make_client):
    client = make_client(keepalive_seconds=0.1)
    alice, robot = Account(client, "alice"), Account(client, "robot", bot=True)
    early = challenge(alice, "robot")  # waiting before the stream opens: sent on opening
    with robot.stream("/api/stream/event") as r, alice.stream("/api/stream/event") as a:
        bot_events, alice_events = Lines(r), Lines(a)
        first = check(ChallengeEvent, bot_events.next("challenge"))
        assert first["challenge"]["id"] == early["id"]
        assert (
            check(ChallengeEvent, alice_events.next("challenge"))["challenge"]["id"] == early["id"]
        )

        late = challenge(alice, "robot", clock={"limit": 60, "increment": 0})
        event = check(ChallengeEvent, bot_events.next("challenge"))
        assert event["challenge"]["id"] == late["id"]
        assert event["challenge"]["challenger"]["name"] == "alice"
        assert alice_events.next("challenge")["challenge"]["id"] == late["id"]  # lichess: a copy

        robot.form(f"/api/challenge/{early['id']}/decline", {"reason": "later"})
        declined = check(ChallengeEvent, alice_events.next("challengeDeclined"))
        assert declined["challenge"]["declineReasonKey"] == "later"

        alice.post(f"/api/challenge/{late['id']}/cancel")
        canceled = check(ChallengeEvent, bot_events.next("challengeCanceled"))
        assert canceled["challenge"]["id"] == late["id"]

        third = challenge(alice, "robot")
        bot_events.next("challenge")
        robot.post(f"/api/challenge/{third['id']}/accept")
        final = show(alice, third["id"])["finalColor"]
        robot_color = "black" if final == "white" else "white"
        for events, color in ((bot_events, robot_color), (alice_events, final)):
            start = check(GameEvent, events.next("gameStart"))
            game = start["game"]
            assert game["id"] == game["gameId"] == third["id"]
            assert game["source"] == "friend"
            assert game["color"] == color
            assert game["status"] == {"id": 20, "name": "started"}


# ---- browsers ------------------------------------------------------------------------------
def test_a_browser_challenges_a_bot_with_its_cookie_and_polls_until_accepted(client, robot):
    browser = Player(client, "browser")
    response = browser.post("/api/challenge/robot", {"variant": "yote", "color": "white"})
    assert response.status_code == 200, response.text
    created = check(ChallengeOut, response.json())
    assert created["challenger"]["id"] == browser.who.id
    assert created["challenger"]["name"] == browser.who.name
    assert browser.get(f"/api/challenge/{created['id']}/show").json()["status"] == "created"
    robot.post(f"/api/challenge/{created['id']}/accept")
    shown = browser.get(f"/api/challenge/{created['id']}/show").json()
    assert shown["status"] == "accepted"
    with browser.socket(shown["gameId"]) as ws:
        state = ws.receive_json()
        assert state["type"] == "state"
        assert state["game"]["players"]["first"]["id"] == browser.who.id
        assert state["game"]["status"] == "started"


# ---- open challenges -----------------------------------------------------------------------
def test_an_open_challenge_seats_whoever_opens_its_links(client):
    creator, bob, carol, dave = (Player(client, n) for n in ("creator", "bob", "carol", "dave"))
    client.cookies.clear()
    response = client.post("/api/challenge/open", json={"variant": "wali"})  # no cookie at all
    assert response.status_code == 200, response.text
    created = check(ChallengeOut, response.json())
    assert created["open"] is True and created["destUser"] is None
    assert created["urlWhite"] == created["url"] + "?color=white"
    assert created["urlBlack"] == created["url"] + "?color=black"
    cid = created["id"]

    taken = bob.post(f"/api/challenge/{cid}/accept?color=black")
    assert taken.status_code == 200, taken.text
    assert taken.json()["challenge"]["status"] == "created"
    assert taken.json()["challenge"]["seats"]["black"]["id"] == bob.who.id
    again = bob.post(f"/api/challenge/{cid}/accept")  # opening a link twice changes nothing
    assert again.status_code == 200 and again.json()["challenge"]["status"] == "created"
    assert_error(
        carol.post(f"/api/challenge/{cid}/accept?color=black"), 409, "challenge.seat_taken"
    )
    assert_error(carol.post(f"/api/challenge/{cid}/accept?color=green"), 400, "request.invalid")
    assert_error(carol.get(f"/api/games/{cid}"), 404, "game.not_found")

    done = carol.post(f"/api/challenge/{cid}/accept")
    assert done.status_code == 200, done.text
    assert done.json()["challenge"]["status"] == "accepted"
    game = game_of(carol, cid)
    assert game["status"] == "started"
    assert game["players"]["first"]["id"] == carol.who.id
    assert game["players"]["second"]["id"] == bob.who.id
    assert_error(dave.post(f"/api/challenge/{cid}/accept"), 409, "challenge.not_pending")
    assert creator.get(f"/api/challenge/{cid}/show").json()["status"] == "accepted"


def test_the_creator_cancels_an_open_challenge(client):
    creator, bob = Player(client, "creator"), Player(client, "bob")
    created = creator.post("/api/challenge/open", {"variant": "dobutsu"}).json()
    assert_error(bob.post(f"/api/challenge/{created['id']}/cancel"), 403, "challenge.not_yours")
    assert creator.post(f"/api/challenge/{created['id']}/cancel").status_code == 200
    assert_error(bob.post(f"/api/challenge/{created['id']}/accept"), 409, "challenge.not_pending")


def test_open_challenge_bodies_are_checked(client):
    someone = Player(client, "someone")
    assert_error(someone.post("/api/challenge/open", {"variant": "go"}), 400, "game.unknown")
    assert_error(
        someone.post("/api/challenge/open", {"variant": "yote", "rated": True}),
        403,
        "challenge.rated_needs_account",
    )


# ---- tokens --------------------------------------------------------------------------------
def test_challenge_routes_need_their_scopes(client, alice, robot):
    reader = alice.new_token(("challenge:read",))
    writer = alice.new_token(("challenge:write",))
    client.cookies.clear()
    response = client.post("/api/challenge/robot", json={"variant": "dobutsu"}, headers=reader)
    body = assert_error(response, 403, "token.scope")
    assert body["missing"] == ["challenge:write"]
    assert_error(client.get("/api/challenge", headers=writer), 403, "token.scope")
    created = client.post("/api/challenge/robot", json={"variant": "dobutsu"}, headers=writer)
    assert created.status_code == 200, created.text
    cid = created.json()["id"]
    assert client.get(f"/api/challenge/{cid}/show", headers=reader).status_code == 200
    assert_error(client.get(f"/api/challenge/{cid}/show", headers=writer), 403, "token.scope")
    assert pending(robot)["in"] == [cid]


def test_a_revoked_or_bad_token_is_refused(client, alice, robot):
    client.cookies.clear()
    assert client.delete("/api/token", headers=alice.headers).status_code == 204
    response = client.post(
        "/api/challenge/robot", json={"variant": "dobutsu"}, headers=alice.headers
    )
    assert_error(response, 401, "token.invalid")
    bad = {"authorization": "Bearer kdm_not-a-token"}
    assert_error(client.get("/api/challenge", headers=bad), 401, "token.invalid")
    assert pending(robot) == {"in": [], "out": []}


# ---- rate limits ---------------------------------------------------------------------------
def test_challenges_are_rate_limited_per_token(make_client):
    client = make_client(ratelimit_challenge_burst=2, ratelimit_challenge_per_s=0.01)
    alice, robot = Account(client, "alice"), Account(client, "robot", bot=True)
    challenge(alice, "robot")
    challenge(alice, "robot")
    response = alice.post("/api/challenge/robot", {"variant": "dobutsu"})
    body = assert_error(response, 429, "ratelimit")
    assert body["ratelimit"]["key"] == "challenge"
    assert body["ratelimit"]["seconds"] >= 1
    assert len(pending(robot)["in"]) == 2  # the refused one was not made
    # another token of another account is not affected
    carol = Account(client, "carol")
    challenge(carol, "robot")


def test_challenges_are_rate_limited_per_address(make_client):
    client = make_client(
        ratelimit_challenge_burst=1, ratelimit_challenge_per_s=0.01, ratelimit_ip_factor=2
    )
    robot = Account(client, "robot", bot=True)
    players = [Account(client, f"p{i}") for i in range(3)]
    challenge(players[0], "robot")
    challenge(players[1], "robot")
    body = assert_error(
        players[2].post("/api/challenge/robot", {"variant": "dobutsu"}), 429, "ratelimit"
    )
    assert "address" in body["error"]
    assert len(pending(robot)["in"]) == 2
