"""The lobby WebSocket: open public games and live games, the whole lists once, then changes."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import event, update

from app.core.time import ManualClock
from app.db.engine import make_engine, make_sessionmaker
from app.db.models import Game
from app.domain.enums import GameStatus, Side
from app.domain.events import GameCreated, MovePlayed
from app.games import queries
from app.lobby.feed import MAX_PENDING, Lists, LobbyFeed, apply_diff, diff_list
from app.main import create_app
from app.realtime.hub import LocalHub
from app.realtime.messages import LOBBY_CHANNEL, HubCodec, LobbyChanged
from tests.app.conftest import (
    Player,
    invite_token,
    make_settings,
    move_at,
    receive,
    send,
)


class LobbyView:
    """A lobby page: the lists as the client keeps them (the whole lists, then diffs)."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        first: dict[str, Any] = ws.receive_json()
        assert first["type"] == "lobby", first
        self.v: int = first["v"]
        self.lists: dict[str, list[dict[str, Any]]] = {k: first[k] for k in ("open", "live")}
        self.diffs = 0

    def next(self) -> dict[str, list[dict[str, Any]]]:
        message: dict[str, Any] = self.ws.receive_json()
        if message["type"] == "lobby":
            self.lists = {k: message[k] for k in ("open", "live")}
        else:
            assert message["type"] == "lobbyDiff", message
            assert message["v"] == self.v + 1  # no gap within one connection
            self.lists = {k: apply_diff(self.lists[k], message[k]) for k in ("open", "live")}
            self.diffs += 1
        self.v = message["v"]
        return self.lists

    def until(self, check: Any) -> dict[str, list[dict[str, Any]]]:
        for _ in range(20):
            if check(lists := self.next()):
                return lists
        raise AssertionError("the lobby never showed the expected lists")


@pytest.fixture
def quick(make_client: Any) -> TestClient:
    """An app whose lobby updates go out as soon as they are read (no coalescing wait)."""
    client: TestClient = make_client(lobby_interval_seconds=0)
    return client


def test_the_lobby_lists_update_live_as_changes(quick: TestClient):
    alice, bob = Player(quick, "alice"), Player(quick, "bob")
    with quick.websocket_connect("/ws/lobby") as ws:
        lobby = LobbyView(ws)
        assert lobby.lists == {"open": [], "live": []}
        public = alice.create("jungle", public=True, color="random")
        shown = lobby.until(lambda m: m["open"])
        entry = shown["open"][0]
        assert entry["id"] == public["id"]
        assert entry["variant"] == "jungle"
        assert entry["color"] == "random"
        assert entry["creator"].startswith("Anonymous ")
        assert "invite" not in str(entry)  # the seat's secret never reaches the lobby
        private = alice.create("yote", public=False)
        joined = bob.post(f"/api/games/{public['id']}/join")
        assert joined.status_code == 200
        shown = lobby.until(lambda m: m["live"] and not m["open"])
        assert [g["id"] for g in shown["live"]] == [public["id"]]
        assert private["id"] not in str(shown)
        bob.post(f"/api/invite/{invite_token(private)}")
        with alice.socket(public["id"]) as game:
            send(game, type="abort")
            shown = lobby.until(lambda m: not m["live"])
        # A private game is link-only: never listed, not even to watch once it has started.
        assert private["id"] not in str(shown)
        assert lobby.diffs >= 3
        # A page that connects now gets the same lists whole.
        with quick.websocket_connect("/ws/lobby") as again:
            assert LobbyView(again).lists == lobby.lists == quick.get("/api/lobby").json()


def test_a_diff_says_only_what_changed(quick: TestClient, clock: ManualClock):
    alice = Player(quick, "alice")
    first = alice.create("wali", public=True)
    with quick.websocket_connect("/ws/lobby") as ws:
        lobby = LobbyView(ws)
        assert [g["id"] for g in lobby.lists["open"]] == [first["id"]]
        clock.advance(1_000)  # the clock stands still: a second later, the newer game is newer
        second = alice.create("dobutsu", public=True)
        message = ws.receive_json()
        assert message["type"] == "lobbyDiff"
        assert message["v"] == lobby.v + 1
        assert message["open"]["removed"] == [] and message["open"]["updated"] == []
        assert [(a["at"], a["game"]["id"]) for a in message["open"]["added"]] == [
            (0, second["id"])  # newest first
        ]
        assert message["live"] == {"removed": [], "added": [], "updated": []}
        assert alice.post(f"/api/games/{first['id']}/cancel").status_code == 200
        message = ws.receive_json()
        assert message["open"] == {"removed": [first["id"]], "added": [], "updated": []}


def test_moves_do_not_flood_the_lobby(quick: TestClient):
    alice, bob = Player(quick, "alice"), Player(quick, "bob")
    created = alice.create("dobutsu", color="first")
    bob.post(f"/api/invite/{invite_token(created)}")
    with quick.websocket_connect("/ws/lobby") as ws:
        lobby = LobbyView(ws)
        if len(lobby.lists["live"]) != 1:  # the lists as last sent: the start may follow
            lobby.until(lambda m: len(m["live"]) == 1)
        diffs = lobby.diffs
        with alice.socket(created["id"]) as a, bob.socket(created["id"]) as b:
            for ply, (game, move) in enumerate([(a, "b2b3"), (b, "b4b3"), (a, "c1c2")]):
                send(game, type="move", move=move, ply=ply)
                move_at(game, ply + 1)
            send(b, type="resign")
            assert receive(a, "state")["game"]["status"] == "resign"
        assert lobby.next()["live"] == []  # the first lobby message after the start is the end
        assert lobby.diffs == diffs + 1


def test_a_game_joined_while_the_lists_are_read_is_in_one_list_only(
    quick: TestClient, database_url: str
):
    """The lists are one snapshot. Read as two statements, a game joined between them was
    in both (open from the first read, live from the second): a lobby socket then showed
    the start twice, as a live entry and, a read later, as an open entry removed."""
    alice, bob = Player(quick, "alice"), Player(quick, "bob")
    created = alice.create("dobutsu", public=True, color="first")
    bob.create("yote", public=True)  # bob is a player now: a seat can name him
    bob_id = bob.get("/api/me").json()["id"]
    engine = make_engine(database_url)
    joined: list[str] = []

    def join_after_the_first_read(conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        # The join commits between two statements of the read: simulated on the reading
        # connection itself, whose later statements see it as they would see a commit.
        if joined or "FROM games" not in statement:
            return
        joined.append(statement)
        conn.execute(
            update(Game)
            .where(Game.id == created["id"])
            .values(status=GameStatus.STARTED, second_id=bob_id, started_ms=Game.created_ms + 1)
        )

    event.listen(engine.sync_engine, "after_cursor_execute", join_after_the_first_read)

    async def read() -> Lists:
        try:
            return await queries.lobby(make_sessionmaker(engine), 0)
        finally:
            await engine.dispose()

    lists = asyncio.run(read())
    assert joined
    listed = [g["id"] for name in ("open", "live") for g in lists[name]]
    assert listed.count(created["id"]) == 1, lists


def test_a_change_on_one_instance_reaches_the_lobby_sockets_of_another(
    postgres_url: str, tmp_path: Path
):
    one = TestClient(create_app(make_settings(postgres_url, tmp_path, lobby_interval_seconds=0)))
    two = TestClient(create_app(make_settings(postgres_url, tmp_path, lobby_interval_seconds=0)))
    with one, two, two.websocket_connect("/ws/lobby") as ws:
        lobby = LobbyView(ws)
        alice, bob = Player(one, "alice"), Player(one, "bob")
        created = alice.create("gorogoro", public=True)
        assert [g["id"] for g in lobby.until(lambda m: m["open"])["open"]] == [created["id"]]
        bob.post(f"/api/games/{created['id']}/join")
        shown = lobby.until(lambda m: m["live"])
        assert shown["open"] == [] and [g["id"] for g in shown["live"]] == [created["id"]]


def test_a_seat_nobody_takes_is_withdrawn_after_a_day(client, clock):
    alice = Player(client, "alice")
    created = alice.create("wali")
    # Hours pass in one step; then the sweeper's next round (every 30 s) runs, late.
    clock.jump(23 * 3_600_000)
    clock.advance(0)
    assert alice.get(f"/api/games/{created['id']}").json()["game"]["status"] == "created"
    clock.jump(2 * 3_600_000)
    clock.advance(0)
    game = alice.get(f"/api/games/{created['id']}").json()["game"]
    assert game["status"] == "aborted"
    assert game["result"]["reason"] == "expired"


# ---- the feed itself, without a database --------------------------------------------------
def _entry(game_id: str, name: str = "x") -> dict[str, Any]:
    return {"id": game_id, "creator": name}


entries = st.lists(st.sampled_from("abcdefghij"), unique=True).map(
    lambda ids: [_entry(i) for i in ids]
)


@given(entries, entries, st.sets(st.sampled_from("abcdefghij")))
def test_a_diff_applied_gives_the_new_list(old, new, renamed):
    # The kept entries in the old list's order (as the lobby's: time never reorders them).
    kept = [e["id"] for e in new if e["id"] in {o["id"] for o in old}]
    rank = {game_id: i for i, game_id in enumerate(e["id"] for e in old)}
    order = iter(sorted(kept, key=rank.__getitem__))
    new = [next(order) if e["id"] in rank else e["id"] for e in new]
    new = [_entry(i, "renamed" if i in renamed else "x") for i in new]
    diff = diff_list(old, new)
    assert diff is not None
    assert apply_diff(old, diff) == new
    assert len(diff["added"]) + len(diff["removed"]) + len(diff["updated"]) <= len(old) + len(new)


def test_kept_entries_in_another_order_need_the_whole_list():
    assert diff_list([_entry("a"), _entry("b")], [_entry("b"), _entry("a")]) is None


class FakeGames:
    """The service's side of the feed: lists set by hand, a hub."""

    def __init__(self) -> None:
        self.hub = LocalHub()
        self.lists: Lists = {"open": [], "live": []}

    async def lobby(self) -> Lists:
        return {k: list(v) for k, v in self.lists.items()}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_a_burst_is_one_read_and_one_message_encoded_once_for_all_sockets():
    games, clock = FakeGames(), ManualClock()
    feed = LobbyFeed(games.lobby, games.hub, interval=0.25, clock=clock)
    await feed.start()
    got: list[list[str]] = [[] for _ in range(50)]
    try:
        async with contextlib.AsyncExitStack() as stack:
            for into in got:
                await stack.enter_async_context(feed.watch(_collect(into)))
            await _settle()
            assert all(len(g) == 1 for g in got)  # the whole lists first
            reads = feed.refreshes
            for i in range(30):  # thirty changes within the interval
                games.lists["open"].insert(0, _entry(f"g{i}"))
                await games.hub.publish(LOBBY_CHANNEL, LobbyChanged(f"g{i}"))
            await _settle()
            assert feed.refreshes == reads  # nothing read before the interval has passed
            await clock.advance_async(249)
            assert feed.refreshes == reads
            await clock.advance_async(1)
            await _settle()
            assert feed.refreshes == reads + 1  # one read for the burst, not one a socket
            assert all(len(g) == 2 for g in got)  # one message for the burst
            assert len({id(g[1]) for g in got}) == 1  # the very same text object for all
            assert '"type":"lobbyDiff"' in got[0][1]
    finally:
        await feed.stop()


@pytest.mark.anyio
async def test_a_socket_that_falls_behind_gets_the_whole_lists_instead():
    games = FakeGames()
    feed = LobbyFeed(games.lobby, games.hub, interval=0, clock=ManualClock())
    release = asyncio.Event()
    sent: list[str] = []

    async def slow(text: str) -> None:
        await release.wait()
        sent.append(text)

    async with feed.watch(slow):
        await _settle()  # the first message is being sent, and the client reads no more
        for i in range(MAX_PENDING + 5):
            games.lists["open"].insert(0, _entry(f"g{i}"))
            await feed.refresh()
        release.set()
        await _settle()
    assert len(sent) == 2  # the first whole lists (sending when it stalled), then the newest
    assert sent[1].startswith('{"type":"lobby",') and f'"v":{feed.version}' in sent[1]


@pytest.mark.anyio
async def test_a_private_game_or_a_move_publishes_nothing():
    games = FakeGames()
    feed = LobbyFeed(games.lobby, games.hub, interval=0, clock=ManualClock())

    class Row:
        id, public = "g", False

    async with games.hub.subscribe(LOBBY_CHANNEL) as sub:
        feed.changed(Row(), [GameCreated("g", 0, "p", False)])  # type: ignore[arg-type]
        Row.public = True
        feed.changed(Row(), [MovePlayed("g", 1, Side.FIRST, "a1a2")])  # type: ignore[arg-type]
        await _settle()
        assert sub.queue.empty()
        feed.changed(Row(), [GameCreated("g", 0, "p", True)])  # type: ignore[arg-type]
        await _settle()
        assert await sub.get() == LobbyChanged("g")


def test_lobby_changed_crosses_instances_as_itself():
    codec = HubCodec()
    assert codec.decode(codec.encode(LobbyChanged("abc"))) == LobbyChanged("abc")


def _collect(into: list[str]) -> Any:
    async def send(text: str) -> None:
        into.append(text)

    return send


async def _settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)
