"""A seek's rating range (docs/decisions/live-lobby.md): given to POST /api/games
and the board seek as lichess writes it, shown in the lobby's lists with the creator's
rating, enforced when joining (403 ``seek.out_of_range``, an anonymous joiner counting as
1500), not by an invite link. On SQLite and PostgreSQL, on the injected clock."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.challenges import seeks
from app.challenges.terms import Terms
from app.core.time import ManualClock
from app.domain.enums import GameStatus
from app.games import Identity
from tests.app.accounts_and_streams import Account, assert_error, services_of
from tests.app.conftest import Player, invite_token
from tests.app.matchmaking.test_pools import set_rating
from tests.app.ratings.test_rated_games import browser


def _open(client: TestClient) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = client.get("/api/lobby").json()["open"]
    return entries


def _status(client: TestClient, game_id: str) -> str:
    status: str = client.get(f"/api/games/{game_id}").json()["game"]["status"]
    return status


@pytest.fixture
def rated(client: TestClient) -> tuple[Account, Account]:
    """alice at 1800 in jungle, bob at 1600 (not provisional)."""
    alice, bob = Account(client, "alice"), Account(client, "bob")
    set_rating(client, alice, "jungle", 1800.4)
    set_rating(client, bob, "jungle", 1600.0)
    return alice, bob


def test_the_range_is_shown_with_the_creators_rating_and_enforced_when_joining(
    client: TestClient, clock: ManualClock, rated: tuple[Account, Account]
):
    alice, bob = rated
    carol = Account(client, "carol")  # a new account: 1500, provisional
    game_id = browser(client, alice).create("jungle", ratingRange="1700-1900")["id"]
    [entry] = _open(client)
    assert entry["ratingRange"] == [1700, 1900]
    assert entry["creatorRating"] == {"rating": 1800, "provisional": False}
    assert entry["rated"] is False
    for joiner in (browser(client, bob), browser(client, carol), Player(client, "visitor")):
        refused = joiner.post(f"/api/games/{game_id}/join")
        assert_error(refused, 403, "seek.out_of_range")
        assert _status(client, game_id) == GameStatus.CREATED  # the refusal changed nothing
    set_rating(client, carol, "jungle", 1750.0)  # now within it
    assert browser(client, carol).post(f"/api/games/{game_id}/join").status_code == 200
    assert _status(client, game_id) == GameStatus.STARTED


def test_an_anonymous_joiner_counts_as_1500_and_an_invite_link_ignores_the_range(
    client: TestClient, clock: ManualClock, rated: tuple[Account, Account]
):
    alice, _ = rated
    creator = browser(client, alice)
    around = creator.create("jungle", ratingRange="1400-1600")["id"]
    assert Player(client, "anna").post(f"/api/games/{around}/join").status_code == 200
    above = creator.create("jungle", ratingRange="1501-2000")
    visitor = Player(client, "ben")
    assert_error(visitor.post(f"/api/games/{above['id']}/join"), 403, "seek.out_of_range")
    assert visitor.post(f"/api/invite/{invite_token(above)}").status_code == 200
    assert _status(client, above["id"]) == GameStatus.STARTED


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"ratingRange": "1800-1500"}, "request.invalid"),
        ({"ratingRange": "1500"}, "request.invalid"),
        ({"ratingRange": "low-high"}, "request.invalid"),
        ({"ratingRange": "1500-1800", "public": False}, "request.invalid"),
    ],
)
def test_a_bad_range_is_refused_and_creates_nothing(
    client: TestClient, clock: ManualClock, body: dict[str, Any], code: str
):
    alice = Player(client, "alice")
    assert_error(alice.post("/api/games", {"variant": "jungle", **body}), 400, code)
    assert _open(client) == []
    assert alice.get("/api/me").json()["count"]["playing"] == 0


def test_no_range_and_an_empty_one_accept_anyone(client: TestClient, clock: ManualClock):
    alice = Player(client, "alice")
    alice.create("jungle", ratingRange="")
    [entry] = _open(client)
    assert entry["ratingRange"] is None
    assert entry["creatorRating"] is None  # anonymous
    assert Player(client, "bob").post(f"/api/games/{entry['id']}/join").status_code == 200


def test_the_board_seek_pairs_only_within_both_ranges(
    client: TestClient, clock: ManualClock, rated: tuple[Account, Account]
):
    """``pair`` (the non-pool board seek): the open game's range must accept the seeker, and
    the seeker's range the game's creator; else it is left alone."""
    alice, bob = rated
    services = services_of(client)
    assert client.portal is not None
    terms = Terms.asked("jungle", {}, None, 0, None, "random", False)
    seeker = Identity(bob.id, bob.username)

    def pair(wanted: tuple[int, int] | None) -> Any:
        return client.portal.call(seeks.pair, services.challenges, seeker, terms, wanted)  # type: ignore[union-attr]

    narrow = browser(client, alice).create("jungle", color="random", ratingRange="1700-1900")
    assert pair(None) is None  # bob (1600) is outside alice's range
    assert _status(client, narrow["id"]) == GameStatus.CREATED
    wide = browser(client, alice).create("jungle", color="random", ratingRange="1500-1900")
    assert pair((1300, 1700)) is None  # alice (1800) is outside bob's range
    paired = pair((1700, 1900))
    assert paired is not None and paired.id == wide["id"]
    assert _status(client, narrow["id"]) == GameStatus.CREATED


def test_a_board_seek_left_waiting_keeps_its_range(
    client: TestClient, clock: ManualClock, rated: tuple[Account, Account]
):
    alice, _ = rated
    services = services_of(client)
    assert client.portal is not None
    terms = Terms.asked("jungle", {}, None, 0, None, "random", False)
    game = client.portal.call(
        seeks.seek, services.challenges, Identity(alice.id, alice.username), terms, (1550, 1650)
    )
    [entry] = _open(client)
    assert entry["id"] == game.id and entry["ratingRange"] == [1550, 1650]
    assert_error(Player(client, "v").post(f"/api/games/{game.id}/join"), 403, "seek.out_of_range")


def test_live_entries_carry_the_players_ids(client: TestClient, clock: ManualClock):
    alice, bob = Player(client, "alice"), Player(client, "bob")
    game_id = alice.create("jungle")["id"]
    assert bob.post(f"/api/games/{game_id}/join").status_code == 200
    with client.websocket_connect("/ws/lobby") as ws:
        lists = ws.receive_json()
    [entry] = lists["live"]
    assert (entry["firstId"], entry["secondId"]) == (alice.who.id, bob.who.id)
    assert entry["rated"] is False
