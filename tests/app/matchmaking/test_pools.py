"""Quick pairing in one app, on SQLite and PostgreSQL, on the ManualClock: the lobby socket's
``pool``/``unpool`` messages, pairing rounds (once a second of the app's clock) that start
one game per pair, leaving, one pool at a time, expiry, the board seek's door, refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.core.errors import ServiceError
from app.core.time import ManualClock
from app.db.models import Game, PlayerRating, PoolEntry
from app.matchmaking.pairing import CASUAL_AFTER_MS
from app.matchmaking.pools import all_pools, pools_by_id
from app.matchmaking.search import PoolSearch
from tests.app.accounts_and_streams import Account, Lines, assert_error, services_of
from tests.app.conftest import Player, receive, send, settle, started_game

POOL = "dobutsu-3+2"


def lobby(player: Player) -> Any:
    return player.client.websocket_connect("/ws/lobby", headers=player.headers)


def run(client: TestClient, work: Any) -> Any:
    assert client.portal is not None
    return client.portal.call(work)


def entries(client: TestClient) -> list[PoolEntry]:
    async def read() -> list[PoolEntry]:
        async with services_of(client).games.sessions() as session:
            return list((await session.execute(select(PoolEntry))).scalars())

    result: list[PoolEntry] = run(client, read)
    return result


def games(client: TestClient) -> list[Game]:
    async def read() -> list[Game]:
        async with services_of(client).games.sessions() as session:
            return list((await session.execute(select(Game))).scalars())

    result: list[Game] = run(client, read)
    return result


def waiting(client: TestClient) -> dict[str, int]:
    response = client.get("/api/pools")
    assert response.status_code == 200
    return {p["id"]: p["waiting"] for p in response.json()}


def test_the_pool_list_is_each_game_with_its_clocks(client: TestClient):
    listed = client.get("/api/pools").json()
    assert [p["id"] for p in listed] == [p.id for p in all_pools()]
    assert listed[1] == {
        "id": "dobutsu-3+2",
        "variant": "dobutsu",
        "name": listed[1]["name"],
        "minutes": 3,
        "increment": 2,
        "waiting": 0,
    }
    assert {p["variant"] for p in listed} == {"dobutsu", "gorogoro", "jungle", "yote", "wali"}


def test_two_players_clicking_one_pool_are_paired_into_one_started_game(
    client: TestClient, clock: ManualClock, alice: Player, bob: Player
):
    with lobby(alice) as a, lobby(bob) as b:
        send(a, type="pool", pool=POOL)
        receive(a, "pooling")
        send(b, type="pool", pool=POOL)
        receive(b, "pooling")
        assert waiting(client)[POOL] == 2
        assert games(client) == []  # nobody is paired before the round
        clock.advance(1000)
        paired_a, paired_b = receive(a, "paired"), receive(b, "paired")
    assert paired_a == paired_b and paired_a["pool"] == POOL
    (game,) = games(client)
    assert game.id == paired_a["game"]
    assert game.status == "started" and not game.rated and game.public
    assert {game.first_id, game.second_id} == {alice.who.id, bob.who.id}
    assert (game.clock_initial_ms, game.clock_increment_ms) == (180_000, 2_000)
    assert game.rules == pools_by_id()[POOL].rules and game.initial_fen is None
    assert waiting(client)[POOL] == 0
    settle(client)
    assert entries(client) == []  # the holders deleted their paired entries


def test_an_instance_holding_no_entry_runs_no_round_and_pairs_at_the_next_second_once_it_does(
    client: TestClient, clock: ManualClock, alice: Player, bob: Player
):
    pools = services_of(client).pools
    rounds: list[int] = []
    pair_all = pools.pairing.pair_all

    async def counted() -> Any:
        rounds.append(clock.now_ms())
        return await pair_all()

    pools.pairing.pair_all = counted
    clock.advance(5000)
    assert rounds == []  # nobody waits here: no round asks the database
    with lobby(alice) as a, lobby(bob) as b:
        send(a, type="pool", pool=POOL)
        receive(a, "pooling")
        send(b, type="pool", pool=POOL)
        receive(b, "pooling")
        start = clock.now_ms()
        clock.advance(1000)
        assert receive(a, "paired") == receive(b, "paired")
        assert len(rounds) == 1 and rounds[0] - start <= 1000  # the very next second
    settle(client)
    assert entries(client) == []  # both holders are done with their entries
    clock.advance(5000)
    assert len(rounds) == 1


def test_closing_the_socket_or_unpool_leaves_the_pool(
    client: TestClient, clock: ManualClock, alice: Player, bob: Player
):
    with lobby(alice) as a:
        send(a, type="pool", pool=POOL)
        receive(a, "pooling")
        assert waiting(client)[POOL] == 1
    settle(client)
    assert waiting(client)[POOL] == 0  # leaving the page leaves the pool
    with lobby(bob) as b:
        send(b, type="pool", pool=POOL)
        receive(b, "pooling")
        send(b, type="unpool")
        # An unpool has no answer: it has landed once the pool's count no longer holds bob
        # (each read lets the server's loop run the socket's handler).
        for _ in range(100):
            if waiting(client)[POOL] == 0:
                break
        assert waiting(client)[POOL] == 0
        with lobby(alice) as a:
            send(a, type="pool", pool=POOL)
            receive(a, "pooling")
            assert waiting(client)[POOL] == 1
            clock.advance(5000)
            assert games(client) == []  # bob left: alice waits alone
    settle(client)
    assert entries(client) == []


def test_the_lobby_socket_hears_the_waiting_counts_as_they_change(
    client: TestClient, clock: ManualClock, alice: Player, bob: Player
):
    with lobby(bob) as watcher:
        receive(watcher, "lobby")
        clock.advance(1000)  # the first read of the counts: nothing has changed yet
        with lobby(alice) as a:
            send(a, type="pool", pool=POOL)
            receive(a, "pooling")
            clock.advance(1000)  # the next read of the counts, within a second
            told = receive(watcher, "pools")["waiting"]
            assert told == {**waiting(client), POOL: 1}  # every pool
            assert sum(told.values()) == 1
            # a page opened now gets the last counts right after the lists
            with lobby(alice) as late:
                receive(late, "lobby")
                assert receive(late, "pools")["waiting"][POOL] == 1
        settle(client)  # alice's page closed: her search has left the pool
        clock.advance(1000)
        assert receive(watcher, "pools")["waiting"][POOL] == 0


def test_one_pool_at_a_time(client: TestClient, clock: ManualClock, alice: Player, bob: Player):
    with lobby(alice) as first_tab, lobby(alice) as second_tab, lobby(bob) as b:
        send(first_tab, type="pool", pool=POOL)
        receive(first_tab, "pooling")
        send(second_tab, type="pool", pool="jungle-3+2")  # another tab, another pool
        receive(second_tab, "pooling")
        assert receive(first_tab, "unpooled") == {"type": "unpooled", "pool": POOL}
        counts = waiting(client)
        assert (counts[POOL], counts["jungle-3+2"]) == (0, 1)
        send(b, type="pool", pool=POOL)
        receive(b, "pooling")
        clock.advance(1000)
        assert games(client) == []  # alice is no longer in bob's pool
        send(b, type="pool", pool="jungle-3+2")  # a socket's new pool replaces its old one
        receive(b, "pooling")
        clock.advance(1000)
        assert receive(b, "paired")["game"] == receive(second_tab, "paired")["game"]
    (game,) = games(client)
    assert game.variant == "jungle"


def test_pool_message_refusals_change_nothing(client: TestClient, alice: Player):
    with lobby(alice) as a:
        send(a, type="pool", pool="chess-3+2")
        assert receive(a, "error")["code"] == "pool.unknown"
        send(a, type="pool")
        assert receive(a, "error")["code"] == "request.invalid"
        send(a, type="pool", pool=7)
        assert receive(a, "error")["code"] == "request.invalid"
    assert entries(client) == []


def test_a_player_in_a_real_time_game_is_not_paired_until_it_ends(
    client: TestClient, clock: ManualClock, alice: Player, bob: Player, carol: Player
):
    game_id = started_game(alice, bob, clock={"minutes": 5, "increment": 0})
    with lobby(alice) as a, lobby(carol) as c:
        for ws in (a, c):
            send(ws, type="pool", pool=POOL)
            receive(ws, "pooling")
        clock.advance(2000)
        assert len(games(client)) == 1  # only alice's game with bob
        with alice.socket(game_id) as game:
            assert receive(game, "state")["game"]["status"] == "started"
            send(game, type="resign")
            assert receive(game, "state")["game"]["status"] == "resign"
        clock.advance(1000)
        assert receive(a, "paired")["game"] == receive(c, "paired")["game"]


def test_an_entry_nobody_renews_is_never_paired_and_is_swept(
    client: TestClient, clock: ManualClock, alice: Player, bob: Player
):
    services = services_of(client)
    run(client, lambda: services.games.setup.ensure_player(bob.who))
    now = clock.now_ms()

    async def stale() -> None:  # bob's entry, held by an instance that died 16 s ago
        async with services.games.sessions() as session, session.begin():
            session.add(
                PoolEntry(
                    id="stale",
                    pool=POOL,
                    player_id=bob.who.id,
                    rated=False,
                    rating=1500.0,
                    joined_ms=now - 16_000,
                    seen_ms=now - 16_000,
                    instance="dead",
                )
            )

    run(client, stale)
    with lobby(alice) as a:
        send(a, type="pool", pool=POOL)
        receive(a, "pooling")
        assert waiting(client)[POOL] == 1  # the stale entry is not counted
        clock.advance(5000)  # rounds, and a beat that sweeps the stale entry
        assert games(client) == []
        assert [e.player_id for e in entries(client)] == [alice.who.id]


# ---- the board seek's door ---------------------------------------------------------------
def seek_body(**extra: Any) -> dict[str, Any]:
    return {"variant": "jungle", "time": 3, "increment": 2, **extra}


def set_rating(client: TestClient, account: Account, variant: str, rating: float) -> None:
    async def write() -> None:
        async with services_of(client).games.sessions() as session, session.begin():
            session.add(
                PlayerRating(
                    player_id=account.id,
                    variant=variant,
                    rating=rating,
                    deviation=60.0,
                    volatility=0.06,
                    games=30,
                    rated_ms=client_clock_ms(client),
                )
            )

    run(client, write)


def client_clock_ms(client: TestClient) -> int:
    result: int = services_of(client).pools.clock.now_ms()
    return result


@pytest.fixture
def fast(make_client: Any) -> TestClient:
    client: TestClient = make_client(keepalive_seconds=0.1)
    return client


def test_two_rated_board_seeks_in_a_pool_make_a_rated_game_once_the_window_allows(
    fast: TestClient, clock: ManualClock
):
    alice, bob = Account(fast, "alice"), Account(fast, "bob")
    set_rating(fast, alice, "jungle", 1500.0)
    set_rating(fast, bob, "jungle", 1800.0)
    with alice.stream("/api/board/seek", method="POST", json=seek_body(rated=True)) as a:
        waiting_a = Lines(a)
        assert waiting_a.raw() == ""  # keep-alive: waiting in the pool, not in the lobby
        assert fast.get("/api/lobby").json()["open"] == []
        with bob.stream("/api/board/seek", method="POST", json=seek_body(rated=True)) as b:
            waiting_b = Lines(b)
            assert waiting_b.raw() == ""
            clock.advance(19_000)  # 300 apart: allowed after (300 - 100) / 10 = 20 s
            assert games(fast) == []
            clock.advance(1_000)
            paired = waiting_b.rest()
        assert waiting_a.rest() == paired and len(paired) == 1
    (game,) = games(fast)
    assert game.id == paired[0]["id"] and game.rated
    assert {game.first_id, game.second_id} == {alice.id, bob.id}


def test_a_seeks_rating_range_is_honoured(fast: TestClient, clock: ManualClock):
    alice, bob = Account(fast, "alice"), Account(fast, "bob")
    picky = seek_body(ratingRange="1600-1900")  # alice is 1500: never paired with bob
    with bob.stream("/api/board/seek", method="POST", json=picky) as b:
        Lines(b).raw()
        with alice.stream("/api/board/seek", method="POST", json=seek_body()) as a:
            Lines(a).raw()
            clock.advance(90_000)
            assert games(fast) == []


def test_a_rated_search_meets_a_guest_in_a_casual_game_after_the_wait(
    fast: TestClient, clock: ManualClock
):
    alice = Account(fast, "alice")
    set_rating(fast, alice, "jungle", 2100.0)  # far from a guest's place: no window applies
    visitor = Player(fast, "visitor")
    with alice.stream("/api/board/seek", method="POST", json=seek_body(rated=True)) as a:
        waiting_a = Lines(a)
        assert waiting_a.raw() == ""
        with lobby(visitor) as v:
            send(v, type="pool", pool="jungle-3+2")
            receive(v, "pooling")
            assert waiting(fast)["jungle-3+2"] == 2  # both can meet: both are counted
            clock.advance(CASUAL_AFTER_MS - 1000)
            assert games(fast) == []  # alice still waits for a rated opponent
            clock.advance(1000)
            (game,) = games(fast)
            assert receive(v, "paired")["game"] == game.id
        assert waiting_a.rest()[0]["id"] == game.id
    assert not game.rated
    assert {game.first_id, game.second_id} == {alice.id, visitor.who.id}


def test_a_seek_off_the_pools_is_a_lobby_seek_rated_or_not(fast: TestClient):
    alice = Account(fast, "alice")
    off = seek_body(increment=1)  # jungle 3+1: no pool
    with alice.stream("/api/board/seek", method="POST", json=off) as a:
        Lines(a).raw()
        assert [g["variant"] for g in fast.get("/api/lobby").json()["open"]] == ["jungle"]
    rated = seek_body(increment=1, rated=True)  # a rated lobby seek (docs/api.md)
    with alice.stream("/api/board/seek", method="POST", json=rated) as a:
        Lines(a).raw()
        [seek] = fast.get("/api/lobby").json()["open"]
        assert fast.get(f"/api/games/{seek['id']}").json()["game"]["rated"] is True
    coloured = seek_body(color="white")  # a pool's colours are drawn: a lobby seek
    with alice.stream("/api/board/seek", method="POST", json=coloured) as a:
        Lines(a).raw()
        assert entries(fast) == []


def test_board_seek_pool_refusals(fast: TestClient):
    alice = Account(fast, "alice")
    for bad in ("1500", "1800-1500", "a-b"):
        assert_error(
            alice.post("/api/board/seek", seek_body(ratingRange=bad)), 400, "request.invalid"
        )
    assert entries(fast) == []


def test_a_rated_search_needs_an_account(client: TestClient, alice: Player):
    pools = services_of(client).pools
    with pytest.raises(ServiceError) as refused:
        run(client, lambda: pools.join(alice.who, POOL, rated=True))
    assert refused.value.code == "pool.rated_anonymous"
    assert entries(client) == []


# ---- leaving at once -----------------------------------------------------------------------
def search_of(client: TestClient, player: Player, said: list[dict[str, Any]]) -> PoolSearch:
    """A lobby socket's search, driven straight (no socket between): messages handled back
    to back, with no turn of the event loop between them."""

    async def send_text(text: str) -> None:
        said.append(json.loads(text))

    return PoolSearch(services_of(client), send_text, player.who, "testclient")


@pytest.mark.parametrize("leave", ["unpool", "socket closed"])
def test_leaving_right_after_pool_leaves_no_ghost(
    client: TestClient, clock: ManualClock, alice: Player, bob: Player, leave: str
):
    said: list[dict[str, Any]] = []
    search = search_of(client, alice, said)

    async def pool_and_leave() -> None:
        await search.handle({"type": "pool", "pool": POOL})
        # Before the search's waiting task has run once.
        if leave == "unpool":
            await search.handle({"type": "unpool"})
        else:
            await search.close()

    run(client, pool_and_leave)
    settle(client)
    assert entries(client) == []
    clock.advance(10_000)  # heartbeats and rounds: nothing of alice's is renewed or paired
    assert entries(client) == []
    with lobby(bob) as b:
        send(b, type="pool", pool=POOL)
        receive(b, "pooling")
        clock.advance(2000)
        assert games(client) == []  # bob is not paired with someone who is not there
        assert [e.player_id for e in entries(client)] == [bob.who.id]
    settle(client)
    assert entries(client) == []
    assert all(m["type"] != "paired" for m in said)


def test_a_leaked_entry_is_not_renewed_so_it_expires_unpaired(
    client: TestClient, clock: ManualClock, alice: Player, bob: Player
):
    """Whatever happens to a holder, the heartbeat renews only the entries a holder of this
    instance still holds: one nobody holds expires, and nobody is paired with it."""
    services = services_of(client)

    async def leak() -> None:  # an entry made here whose holder never comes to be
        await services.pools.join(alice.who, POOL)

    run(client, leak)
    clock.advance(20_000)
    assert entries(client) == []  # expired and swept
    with lobby(bob) as b:
        send(b, type="pool", pool=POOL)
        receive(b, "pooling")
        clock.advance(2000)
        assert games(client) == []
    settle(client)
