"""Rated games end to end, on SQLite and PostgreSQL: who may create and join them, and a
rated game between two new accounts showing Glicko-2's numbers in the state, the browser's
``ratings`` message, the bot API's lines, the exports, perfs, rating history and count."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

import engine
from app.botapi.eventlines import EventGameOut
from app.botapi.exportmodels import LichessGameOut
from app.db.models import PlayerRating
from app.games import Identity
from app.http.identity import COOKIE, Identities
from app.ratings import glicko2
from tests.app.accounts_and_streams import MATE, Account, Lines, assert_error, check, services_of
from tests.app.conftest import SECRET, Player

WON, LOST = glicko2.game(glicko2.Rating(), glicko2.Rating(), glicko2.WIN)


def change(before: glicko2.Rating, after: glicko2.Rating) -> dict[str, Any]:
    old, new = round(before.rating), round(after.rating)
    return {"before": old, "after": new, "diff": new - old, "provisional": after.provisional}


EXPECTED = {"first": change(glicko2.Rating(), WON), "second": change(glicko2.Rating(), LOST)}


def browser(client: TestClient, account: Account) -> Player:
    """The account's logged-in browser."""
    player = Player(client, account.username)
    player.who = Identity(account.id, account.username)
    player.cookie = f"{COOKIE}={Identities(SECRET).account_cookie(account.id, account.username)}"
    return player


@pytest.fixture
def pair(client: TestClient) -> tuple[Account, Account]:
    return Account(client, "alice"), Account(client, "bob")


def rated_challenge(alice: Account, bob: Account) -> str:
    created = alice.post(
        "/api/challenge/bob", {"variant": "dobutsu", "rated": True, "color": "white"}
    )
    assert created.status_code == 200, created.text
    assert created.json()["rated"] is True
    game_id: str = created.json()["id"]
    assert bob.post(f"/api/challenge/{game_id}/accept").status_code == 200
    return game_id


def test_a_rated_game_between_two_new_accounts_shows_glicko2_everywhere(client, pair) -> None:
    alice, bob = pair
    assert (round(WON.rating), round(LOST.rating)) == (1742, 1258)  # lichess's numbers
    game_id = rated_challenge(alice, bob)
    state = client.get(f"/api/games/{game_id}").json()["game"]
    assert state["rated"] is True and state["ratings"] is None
    assert state["players"]["first"] | {} == {
        "id": alice.id,
        "name": "alice",
        "rating": 1500,
        "provisional": True,
    }
    with alice.stream(f"/api/board/game/stream/{game_id}") as response:
        full = Lines(response).next("gameFull")
    assert full["white"]["rating"] == 1500 and full["white"]["provisional"] is True
    assert full["black"]["rating"] == 1500

    client.cookies.clear()
    with client.websocket_connect(f"/ws/game/{game_id}") as spectator:
        assert spectator.receive_json()["type"] == "state"
        with bob.stream("/api/stream/event") as events:
            lines = Lines(events)
            assert lines.next("gameStart")["game"]["opponent"]["rating"] == 1500
            for n, move in enumerate(MATE):
                mover = alice if n % 2 == 0 else bob
                answer = mover.post(f"/api/board/game/{game_id}/move/{move}")
                assert answer.status_code == 200, answer.text
            finish = check(EventGameOut, lines.next("gameFinish")["game"])
        assert finish["ratingDiff"] == EXPECTED["second"]["diff"]
        assert finish["opponent"]["ratingDiff"] == EXPECTED["first"]["diff"]
        assert finish["opponent"]["rating"] == 1500
        kinds = []
        for _ in range(20):
            message = spectator.receive_json()
            kinds.append(message["type"])
            if message["type"] == "ratings":
                break
        # Told after the end, not before. A crowd's presence is told on its own beat (at
        # most once a second) and may fall anywhere between: it is no part of the order.
        kinds = [kind for kind in kinds if kind != "presence"]
        assert kinds[-2:] == ["move", "ratings"]
        assert message == {"type": "ratings", "ply": 5, "ratings": EXPECTED}

    # The state on (re)connect carries it, and the HTTP state too.
    assert client.get(f"/api/games/{game_id}").json()["game"]["ratings"] == EXPECTED
    with client.websocket_connect(f"/ws/game/{game_id}") as again:
        assert again.receive_json()["game"]["ratings"] == EXPECTED

    exported = alice.client.get(f"/game/export/{game_id}", headers={"accept": "application/json"})
    players = check(LichessGameOut, exported.json())["players"]
    assert players["white"] | {"user": None} == {
        "user": None,
        "rating": 1500,
        "ratingDiff": 242,
        "provisional": True,
    }
    assert players["black"]["ratingDiff"] == -242

    public = client.get("/api/user/alice").json()
    assert public["perfs"] == {
        "dobutsu": {
            "games": 1,
            "rating": 1742,
            "rd": round(WON.deviation),
            "prog": 242,
            "prov": True,
        }
    }
    assert public["count"]["rated"] == 1
    assert alice.get("/api/account").json()["perfs"] == public["perfs"]
    history = client.get("/api/user/bob/rating-history").json()
    assert history[0]["name"] == "Dōbutsu shōgi"
    assert len(history) == 5 and all(entry["points"] == [] for entry in history[1:])
    [point] = history[0]["points"]
    assert point[3] == 1258 and len(point) == 4


def test_rated_games_of_the_browser_need_accounts(client, pair) -> None:
    alice, _ = pair
    visitor = Player(client, "visitor")
    assert_error(
        visitor.post("/api/games", {"variant": "dobutsu", "rated": True}),
        403,
        "game.rated_needs_account",
    )
    created = browser(client, alice).post("/api/games", {"variant": "dobutsu", "rated": True})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    assert created.json()["game"]["rated"] is True
    assert_error(visitor.post(f"/api/games/{game_id}/join"), 403, "game.rated_needs_account")
    token = created.json()["inviteUrl"].rsplit("/", 1)[1]
    assert_error(visitor.post(f"/api/invite/{token}"), 403, "game.rated_needs_account")
    assert client.get(f"/api/games/{game_id}").json()["game"]["status"] == "created"
    carol = Account(client, "carol")
    assert browser(client, carol).post(f"/api/games/{game_id}/join").status_code == 200
    players = client.get(f"/api/games/{game_id}").json()["game"]["players"]
    assert {players["first"]["rating"], players["second"]["rating"]} == {1500}


def test_casual_games_show_accounts_ratings_but_never_change_them(client, pair) -> None:
    alice, _ = pair
    visitor = Player(client, "visitor")
    game_id = browser(client, alice).post("/api/games", {"variant": "dobutsu"}).json()["id"]
    assert visitor.post(f"/api/games/{game_id}/join").status_code == 200
    players = client.get(f"/api/games/{game_id}").json()["game"]["players"]
    seats = {p["id"]: p for p in (players["first"], players["second"])}
    assert seats[alice.id]["rating"] == 1500
    assert "rating" not in seats[visitor.who.id]


# A dobutsu position that is not the start (the start given as a position is the start).
DOBUTSU = engine.get_game("dobutsu")
AFTER_ONE_MOVE = DOBUTSU.to_text(
    DOBUTSU.play(DOBUTSU.start(), DOBUTSU.legal_moves(DOBUTSU.start())[0])
)


def test_rated_challenges_open_challenges_and_seeks_need_accounts(client, pair) -> None:
    alice, bob = pair
    visitor = Player(client, "visitor")
    assert_error(
        visitor.post("/api/challenge/bob", {"variant": "dobutsu", "rated": True}),
        403,
        "challenge.rated_needs_account",
    )
    opened = alice.post("/api/challenge/open", {"variant": "dobutsu", "rated": True})
    assert opened.status_code == 200, opened.text
    challenge_id = opened.json()["id"]
    assert_error(
        visitor.post(f"/api/challenge/{challenge_id}/accept"),
        403,
        "challenge.rated_needs_account",
    )
    assert alice.post(f"/api/challenge/{challenge_id}/accept").status_code == 200
    assert bob.post(f"/api/challenge/{challenge_id}/accept").status_code == 200
    game = client.get(f"/api/games/{challenge_id}").json()["game"]
    assert game["rated"] is True and game["status"] == "started"
    assert_error(
        visitor.post("/api/board/seek", {"variant": "dobutsu", "rated": True}),
        403,
        "challenge.rated_needs_account",
    )
    assert_error(
        alice.post(
            "/api/board/seek",
            {"variant": "dobutsu", "rated": True, "fen": AFTER_ONE_MOVE},
        ),
        400,
        "challenge.rated_position",
    )


def test_the_leaderboard_lists_established_ratings_only(client, clock) -> None:
    services = services_of(client)
    now = services.games.now()
    day = 86_400_000
    rows = {
        "strong": (1900.0, 60.0, 12, now),
        "steady": (1700.0, 50.0, 30, now),
        "shaky": (2100.0, 150.0, 40, now),  # provisional
        "novice": (2000.0, 60.0, 9, now),  # too few games
        "away": (2200.0, 100.0, 50, now - 400 * day),  # idle: RD back over 110
    }
    accounts = {name: Account(client, name) for name in rows}

    async def store() -> None:
        async with services.games.sessions() as session, session.begin():
            for name, (rating, deviation, games, at) in rows.items():
                session.add(
                    PlayerRating(
                        player_id=accounts[name].id,
                        variant="jungle",
                        rating=rating,
                        deviation=deviation,
                        volatility=0.06,
                        games=games,
                        rated_ms=at,
                    )
                )

    client.portal.call(store)
    board = client.get("/api/player/top/10/jungle").json()
    assert [u["username"] for u in board["users"]] == ["strong", "steady"]
    assert board["users"][0]["perfs"] == {"jungle": {"rating": 1900, "progress": 0}}
    assert "title" not in board["users"][0]
    assert len(client.get("/api/player/top/1/jungle").json()["users"]) == 1
    assert client.get("/api/player/top/10/yote").json() == {"users": []}
    for nb in ("0", "201", "ten"):
        assert_error(client.get(f"/api/player/top/{nb}/jungle"), 400, "request.invalid")
    assert_error(client.get("/api/player/top/10/chess"), 400, "perf.unknown")
    assert_error(client.get("/api/user/nobody/rating-history"), 404, "user.not_found")
    assert json.loads(client.get("/api/user/strong").text)["perfs"]["jungle"]["games"] == 12
