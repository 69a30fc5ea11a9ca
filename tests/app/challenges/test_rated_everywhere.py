"""Rated or casual, every way a game is made (docs/decisions/ratings.md, "What is rated"):
the browser's POST /api/games (a lobby seek, an invite link), a challenge to a player, an
open challenge and the board seek, with every kind of clock. An account may ask for either;
a guest only for a casual game, refused with a stable code; a rated seek keeps its rating
range; and a rated game of any clock changes the one rating of its game (perf keys:
docs/decisions/rating-perfs.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.challenges import seeks
from app.challenges.terms import Terms
from app.games import Identity
from tests.app.accounts_and_streams import MATE, Account, assert_error, services_of
from tests.app.conftest import Player, invite_token
from tests.app.matchmaking.test_pools import set_rating
from tests.app.ratings.test_rated_games import browser

# What this module tests is the same on either database (tests/app/conftest.py).
pytestmark = pytest.mark.sqlite_only

# Each kind of clock: as POST /api/games takes it, and as a challenge does.
CLOCKS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "none": ({}, {}),
    "fischer": (
        {"clock": {"minutes": 7, "increment": 2}},
        {"clock": {"limit": 420, "increment": 2}},
    ),
    "byoyomi": (
        {"clock": {"minutes": 7, "increment": 0, "byoyomi": 30, "periods": 3}},
        {"clock": {"limit": 420, "byoyomi": 30, "periods": 3}},
    ),
    "correspondence": ({"days": 3}, {"days": 3}),
}
KINDS = list(CLOCKS)


@pytest.fixture
def pair(client: TestClient) -> tuple[Account, Account]:
    return Account(client, "alice"), Account(client, "bob")


def game_of(client: TestClient, game_id: str) -> dict[str, Any]:
    game: dict[str, Any] = client.get(f"/api/games/{game_id}").json()["game"]
    return game


def mate(client: TestClient, game_id: str, first: Account, second: Account) -> None:
    """The first player mates in five plies (board API moves)."""
    for n, move in enumerate(MATE):
        mover = first if n % 2 == 0 else second
        answer = mover.post(f"/api/board/game/{game_id}/move/{move}")
        assert answer.status_code == 200, answer.text


def perf(client: TestClient, username: str, variant: str = "dobutsu") -> dict[str, Any] | None:
    found: dict[str, Any] | None = client.get(f"/api/user/{username}").json()["perfs"].get(variant)
    return found


def assert_clock(game: dict[str, Any], kind: str) -> None:
    """The game has the clock asked for (its kind)."""
    if kind in ("none", "correspondence"):
        assert game["clock"] is None
        assert game["daysPerTurn"] == (3 if kind == "correspondence" else None)
    else:
        assert game["clock"]["initial"] == 420_000 and game["daysPerTurn"] is None
        assert game["clock"]["byoyomi"] == (30_000 if kind == "byoyomi" else None)


# ---- the browser's own API: a lobby seek, an invite link ------------------------------------
@pytest.mark.parametrize("kind", KINDS)
def test_a_lobby_seek_is_rated_for_an_account_and_casual_for_a_guest(
    client: TestClient, pair: tuple[Account, Account], kind: str
) -> None:
    alice, bob = pair
    body = {"variant": "dobutsu", "color": "first", **CLOCKS[kind][0]}
    guest = Player(client, "guest")
    assert_error(guest.post("/api/games", {**body, "rated": True}), 403, "game.rated_needs_account")
    casual = guest.post("/api/games", {**body, "rated": False})
    assert casual.status_code == 201 and casual.json()["game"]["rated"] is False
    created = browser(client, alice).post("/api/games", {**body, "rated": True})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    [entry] = [e for e in client.get("/api/lobby").json()["open"] if e["id"] == game_id]
    assert entry["rated"] is True
    assert_error(guest.post(f"/api/games/{game_id}/join"), 403, "game.rated_needs_account")
    assert browser(client, bob).post(f"/api/games/{game_id}/join").status_code == 200
    game = game_of(client, game_id)
    assert game["rated"] is True and game["status"] == "started"
    assert_clock(game, kind)


@pytest.mark.parametrize("kind", KINDS)
def test_an_invite_link_to_a_rated_game_seats_an_account_and_refuses_a_guest(
    client: TestClient, pair: tuple[Account, Account], kind: str
) -> None:
    """A rated game of every clock kind, both ratings changed once it is played out."""
    alice, bob = pair
    body = {"variant": "dobutsu", "color": "first", "public": False, "rated": True}
    created = browser(client, alice).post("/api/games", {**body, **CLOCKS[kind][0]})
    assert created.status_code == 201, created.text
    token = invite_token(created.json())
    assert_error(
        Player(client, "guest").post(f"/api/invite/{token}"), 403, "game.rated_needs_account"
    )
    joined = browser(client, bob).post(f"/api/invite/{token}")
    assert joined.status_code == 200, joined.text
    game_id = created.json()["id"]
    assert_clock(game_of(client, game_id), kind)
    mate(client, game_id, alice, bob)
    won, lost = perf(client, "alice"), perf(client, "bob")
    assert won is not None and lost is not None
    assert (won["rating"], won["games"], lost["rating"], lost["games"]) == (1742, 1, 1258, 1)


def test_a_casual_invite_takes_a_guest_and_changes_no_rating(
    client: TestClient, pair: tuple[Account, Account]
) -> None:
    alice, bob = pair
    created = browser(client, alice).post(
        "/api/games", {"variant": "dobutsu", "color": "first", "public": False, "days": 2}
    )
    assert created.json()["game"]["rated"] is False
    assert (
        browser(client, bob).post(f"/api/invite/{invite_token(created.json())}").status_code == 200
    )
    mate(client, created.json()["id"], alice, bob)
    assert perf(client, "alice") is None and perf(client, "bob") is None


# ---- challenges ------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", KINDS)
def test_a_challenge_to_a_player_is_rated_or_casual_with_any_clock(
    client: TestClient, pair: tuple[Account, Account], kind: str
) -> None:
    alice, bob = pair
    body = {"variant": "dobutsu", "color": "white", **CLOCKS[kind][1]}
    guest = Player(client, "guest")
    assert_error(
        guest.post("/api/challenge/bob", {**body, "rated": True}),
        403,
        "challenge.rated_needs_account",
    )
    casual = guest.post("/api/challenge/bob", {**body, "rated": False})
    assert casual.status_code == 200 and casual.json()["rated"] is False
    made = alice.post("/api/challenge/bob", {**body, "rated": True})
    assert made.status_code == 200, made.text
    assert made.json()["rated"] is True
    game_id = made.json()["id"]
    assert bob.post(f"/api/challenge/{game_id}/accept").status_code == 200
    game = game_of(client, game_id)
    assert game["rated"] is True
    assert_clock(game, kind)
    mate(client, game_id, alice, bob)
    won = perf(client, "alice")
    assert won is not None and (won["rating"], won["games"]) == (1742, 1)


@pytest.mark.parametrize("kind", KINDS)
def test_an_open_challenge_is_rated_for_accounts_only(
    client: TestClient, pair: tuple[Account, Account], kind: str
) -> None:
    alice, bob = pair
    body = {"variant": "dobutsu", **CLOCKS[kind][1]}
    guest = Player(client, "guest")
    assert_error(
        guest.post("/api/challenge/open", {**body, "rated": True}),
        403,
        "challenge.rated_needs_account",
    )
    assert guest.post("/api/challenge/open", {**body, "rated": False}).json()["rated"] is False
    opened = alice.post("/api/challenge/open", {**body, "rated": True}).json()
    assert opened["rated"] is True
    assert_error(
        guest.post(f"/api/challenge/{opened['id']}/accept"), 403, "challenge.rated_needs_account"
    )
    assert alice.post(f"/api/challenge/{opened['id']}/accept").status_code == 200
    assert bob.post(f"/api/challenge/{opened['id']}/accept").status_code == 200
    game = game_of(client, opened["id"])
    assert game["rated"] is True and game["status"] == "started"
    assert_clock(game, kind)


# ---- the board seek, and a rated seek's rating range ----------------------------------------
# Each kind of clock as the board seek takes it (lichess's minutes), none there being a pool's.
SEEK_CLOCKS: dict[str, dict[str, Any]] = {
    "fischer": {"time": 7, "increment": 2},
    "byoyomi": {"time": 7, "byoyomi": 30, "periods": 3},
    "correspondence": {"days": 3},
}


@pytest.mark.parametrize("kind", list(SEEK_CLOCKS))
def test_a_rated_board_seek_takes_a_rated_seek_within_both_ranges(
    client: TestClient, pair: tuple[Account, Account], kind: str
) -> None:
    alice, bob = pair
    carol = Account(client, "carol")
    set_rating(client, alice, "dobutsu", 1800.0)
    set_rating(client, bob, "dobutsu", 1600.0)
    set_rating(client, carol, "dobutsu", 1750.0)
    created = browser(client, alice).post(
        "/api/games",
        {
            "variant": "dobutsu",
            "color": "first",
            "rated": True,
            "ratingRange": "1700-1900",
            **CLOCKS[kind][0],
        },
    )
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    [entry] = client.get("/api/lobby").json()["open"]
    assert entry["rated"] is True and entry["ratingRange"] == [1700, 1900]
    # The range holds for a rated seek: bob (1600) may not take the seat from the lobby...
    assert_error(browser(client, bob).post(f"/api/games/{game_id}/join"), 403, "seek.out_of_range")
    # ... nor does a board seek of his pair him with it (he would wait instead).
    clock = SEEK_CLOCKS[kind]
    terms = Terms.asked(
        "dobutsu",
        {},
        clock["time"] * 60 if "time" in clock else None,
        clock.get("increment", 0),
        clock.get("days"),
        "black",
        True,
        byoyomi=clock.get("byoyomi", 0),
        periods=clock.get("periods", 0),
    )
    challenges = services_of(client).challenges
    assert client.portal is not None
    assert client.portal.call(seeks.pair, challenges, Identity(bob.id, "bob"), terms, None) is None
    # A casual seek never takes a rated game; a guest's rated board seek is refused.
    carol_id = Identity(carol.id, "carol")
    assert client.portal.call(seeks.pair, challenges, carol_id, terms.rated_as(False), None) is None
    body = {"variant": "dobutsu", "color": "black", **clock}
    assert_error(
        Player(client, "guest").post("/api/board/seek", {**body, "rated": True}),
        403,
        "challenge.rated_needs_account",
    )
    # carol (1750) is within alice's range, and alice (1800) within carol's: paired, rated.
    answer = carol.post("/api/board/seek", {**body, "rated": True, "ratingRange": "1700-1850"})
    assert answer.status_code == 200, answer.text
    assert json.loads(answer.text.strip()) == {"id": game_id}
    game = game_of(client, game_id)
    assert game["rated"] is True and game["status"] == "started"
    assert_clock(game, kind)
