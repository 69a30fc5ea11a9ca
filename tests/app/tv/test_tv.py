"""TV: each channel features its highest-rated live game, switches to the next best when that
one ends (its feed says so with a new ``featured`` line), keeps the last one when none is
live; lichess's TV routes in their shapes (docs/api.md, "TV")."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.core.time import ManualClock
from app.db.models import PlayerRating
from app.main import create_app
from app.tv.choice import BEST, Candidate, ranked
from tests.app.accounts_and_streams import Account, Lines, assert_error, challenge, services_of
from tests.app.conftest import Player, make_settings, receive, send, started_game

CLOCK: dict[str, Any] = {"clock": {"limit": 300, "increment": 0}}


def rate(client: TestClient, player_id: str, variant: str, rating: float) -> None:
    services = services_of(client)

    async def write() -> None:
        async with services.games.sessions() as session, session.begin():
            session.add(
                PlayerRating(
                    player_id=player_id,
                    variant=variant,
                    rating=rating,
                    deviation=80.0,
                    volatility=0.06,
                    games=12,
                    rated_ms=services.games.now(),
                )
            )

    assert client.portal is not None
    client.portal.call(write)


def start(white: Account, black: Account, **body: Any) -> str:
    created = challenge(white, black.username, color="white", **CLOCK, **body)
    response = black.post(f"/api/challenge/{created['id']}/accept")
    assert response.status_code == 200, response.text
    return str(created["id"])


def channels(client: TestClient) -> dict[str, Any]:
    """``/api/tv/channels`` once every change committed so far is on the channels."""
    assert client.portal is not None
    client.portal.call(services_of(client).tv.refreshed)
    response = client.get("/api/tv/channels")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def featured(lines: Lines) -> dict[str, Any]:
    """The feed's next ``featured`` line's game (its ``fen`` lines skipped)."""
    for _ in range(20):
        data = lines.next()
        if data["t"] == "featured":
            game: dict[str, Any] = data["d"]
            return game
    raise AssertionError("no featured line")


def test_the_best_live_game_first_guests_count_1500_then_rated_then_the_earliest() -> None:
    def game(id: str, first: int | None, second: int | None, rated: bool, at: int) -> Candidate:
        return Candidate(id, "dobutsu", rated, "a", "b", first, second, at)

    games = [
        game("guests", None, None, False, 1),  # 3000
        game("casual", 1500, 1500, False, 2),  # 3000, casual, earlier than "late"
        game("late", 1600, 1400, True, 9),  # 3000, rated, later
        game("rated", 1500, 1500, True, 5),  # 3000, rated, earlier
        game("strong", 1400, 1700, False, 7),  # 3100
    ]
    assert [c.id for c in ranked(games)] == ["strong", "rated", "late", "guests", "casual"]
    assert games[4].top_side == "second" and games[3].top_side == "first"


def test_tv_features_the_best_game_switches_when_it_ends_and_keeps_the_last(
    client: TestClient,
) -> None:
    names = ("alice", "bob", "carol", "dave")
    alice, bob, carol, dave = (Account(client, name) for name in names)
    for who, rating in ((alice, 1900), (bob, 1800), (carol, 1600), (dave, 1700)):
        rate(client, who.id, "dobutsu", rating)
    assert channels(client) == {}  # nothing live, nothing shown yet

    weaker = start(carol, dave)  # 3300
    stronger = start(bob, alice)  # 3700
    guests = started_game(Player(client, "g1"), Player(client, "g2"), "gorogoro")  # 3000
    private = started_game(Player(client, "p1"), Player(client, "p2"), public=False)
    # Correspondence: a move a day is nothing to watch.
    slow = started_game(Player(client, "c1"), Player(client, "c2"), "jungle", days=3)
    services = services_of(client)
    assert client.portal is not None

    shown = channels(client)
    assert set(shown) == {BEST, "dobutsu", "gorogoro"}
    # The player of the higher rating in the game, as lichess names a channel's game.
    assert shown[BEST] == {
        "user": {"id": "alice", "name": "alice", "title": None},
        "rating": 1900,
        "gameId": stronger,
        "color": "black",
    }
    assert shown["dobutsu"]["gameId"] == stronger
    assert shown["gorogoro"]["gameId"] == guests and "rating" not in shown["gorogoro"]
    assert services.tv.best(BEST, 30) == [stronger, weaker, guests]  # never a private game
    assert private not in services.tv.best("dobutsu", 30)
    assert services.tv.best("jungle", 30) == [] and slow not in services.tv.best(BEST, 30)

    with client.stream("GET", "/api/tv/feed") as response:
        lines = Lines(response)
        first = featured(lines)
        assert first["id"] == stronger and first["orientation"] == "black"
        assert first["variant"] == {"key": "dobutsu", "name": "Dōbutsu shōgi"}
        assert first["players"] == [
            {"color": "white", "user": {"id": "bob", "name": "bob", "title": None},
             "rating": 1800, "seconds": 300},
            {"color": "black", "user": {"id": "alice", "name": "alice", "title": None},
             "rating": 1900, "seconds": 300},
        ]  # fmt: skip
        assert bob.post(f"/api/board/game/{stronger}/move/b1a2").status_code == 200
        moved = lines.next()
        assert moved["t"] == "fen" and moved["d"]["lm"] == "b1a2"
        assert {moved["d"]["wc"], moved["d"]["bc"]} == {300}
        assert moved["d"]["fen"] != first["fen"]
        # A move in another game is not on this feed; the featured game's end switches it.
        assert carol.post(f"/api/board/game/{weaker}/move/b1a2").status_code == 200
        assert alice.post(f"/api/board/game/{stronger}/resign").status_code == 200
        assert featured(lines)["id"] == weaker  # the next best
        assert dave.post(f"/api/board/game/{weaker}/resign").status_code == 200
        nxt = featured(lines)
        assert nxt["id"] == guests and nxt["variant"]["key"] == "gorogoro"
        assert nxt["orientation"] == "white" and "rating" not in nxt["players"][0]

    shown = channels(client)
    assert shown[BEST]["gameId"] == guests
    assert shown["dobutsu"]["gameId"] == weaker  # none live in dobutsu: the last one stays
    # A channel's best live games, as lichess exports them.
    response = client.get("/api/tv/best?nb=5", headers={"accept": "application/x-ndjson"})
    assert response.status_code == 200, response.text
    listed = [json.loads(text)["id"] for text in response.text.splitlines() if text]
    assert listed[0] == guests and stronger not in listed and weaker not in listed


@pytest.mark.parametrize("path", ["/api/tv/chess/feed", "/api/tv/chess"])
def test_an_unknown_channel_is_a_404(client: TestClient, path: str) -> None:
    assert_error(client.get(path), 404, "tv.channel_not_found")


@pytest.fixture
def two_instances(postgres_url: str, tmp_path: Path) -> Iterator[tuple[TestClient, TestClient]]:
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    one = TestClient(create_app(make_settings(postgres_url, tmp_path / "one"), ManualClock()))
    two = TestClient(create_app(make_settings(postgres_url, tmp_path / "two"), ManualClock()))
    with one, two:
        yield one, two


def test_every_instance_features_the_same_game_and_follows_it_wherever_it_is_played(
    two_instances: tuple[TestClient, TestClient],
) -> None:
    one, two = two_instances
    alice, bob, carol, dave = (Account(one, name) for name in ("alice", "bob", "carol", "dave"))
    for who, rating in ((alice, 1900), (bob, 1800), (carol, 1600), (dave, 1700)):
        rate(one, who.id, "dobutsu", rating)
    weaker, stronger = start(carol, dave), start(bob, alice)
    assert channels(one) == channels(two)
    assert channels(two)["dobutsu"]["gameId"] == stronger

    with two.stream("GET", "/api/tv/dobutsu/feed") as response:
        lines = Lines(response)
        assert featured(lines)["id"] == stronger
        assert bob.post(f"/api/board/game/{stronger}/move/b1a2").status_code == 200
        assert lines.next() == {
            "t": "fen",
            "d": {"fen": lines_fen(one, stronger), "lm": "b1a2", "wc": 300, "bc": 300},
        }
        assert alice.post(f"/api/board/game/{stronger}/resign").status_code == 200
        assert featured(lines)["id"] == weaker
    assert channels(one) == channels(two)


def lines_fen(client: TestClient, game_id: str) -> str:
    response = client.get(f"/api/games/{game_id}")
    assert response.status_code == 200, response.text
    fen: str = response.json()["game"]["fen"]
    return fen


def test_the_pages_socket_sends_the_feeds_lines_and_closes_on_an_unknown_channel(
    client: TestClient,
) -> None:
    alice, bob = Player(client, "alice"), Player(client, "bob")
    game_id = started_game(alice, bob)
    assert client.portal is not None
    client.portal.call(services_of(client).tv.refreshed)
    with client.websocket_connect("/ws/tv/dobutsu") as tv, alice.socket(game_id) as play:
        first = tv.receive_json()
        assert first["t"] == "featured" and first["d"]["id"] == game_id
        assert first["d"]["players"][0]["user"]["name"] == alice.who.name
        receive(play, "state")
        send(play, type="move", move="b1a2", ply=0)
        moved = tv.receive_json()
        assert moved["t"] == "fen" and moved["d"]["lm"] == "b1a2"
        tv.send_json({"type": "ping"})  # read and ignored
    with client.websocket_connect("/ws/tv/chess") as unknown:
        with pytest.raises(WebSocketDisconnect) as closed:
            unknown.receive_json()
        assert closed.value.code == 4404
