"""The move pipeline's cached rows and conditional UPDATE, against the real databases.

Two GameService objects on one database stand for two server instances: each keeps the rows
it has seen, and a copy that another instance made stale must never be written back nor
trusted for a refusal."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from app.core.config import Settings
from app.core.errors import ServiceError
from app.core.time import ManualClock
from app.db.engine import make_engine, make_sessionmaker
from app.db.gamerows import (
    ConnectionLost,
    CoreRows,
    GameRecord,
    GameRows,
    PostgresRows,
    Row,
    RowCache,
    SqliteRows,
    Stored,
    rows_for,
    snapshot,
    to_game,
)
from app.domain.durable import OutboxItem
from app.games import GameService, Identity, NewGame, game_channel
from app.games.terms import GameTerms
from app.realtime.hub import LocalHub
from app.realtime.messages import GameUpdate
from tests.app.conftest import SECRET

pytestmark = pytest.mark.anyio

ALICE = Identity("a" * 16, "Anonymous AAAA")  # first
BOB = Identity("b" * 16, "Anonymous BBBB")  # second


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Instances:
    """Two services (two server instances) on one database, each with its own engine."""

    def __init__(self, url: str, tmp_path: Path) -> None:
        self.url = url
        self.engines: list[AsyncEngine] = []
        self.services: list[GameService] = []
        self.settings = Settings(database_url=url, data_dir=tmp_path, secret_key=SECRET)

    def make(self, rows: GameRows | None = None, *, core: bool = False) -> GameService:
        """core: SQLAlchemy Core rows (the fallback) instead of the database's fastest."""
        engine = make_engine(self.url)
        self.engines.append(engine)
        if rows is None:
            rows = CoreRows(engine) if core else rows_for(engine)
        service = GameService(
            make_sessionmaker(engine),
            LocalHub(),
            self.settings,
            ManualClock(),
            is_postgres=self.url.startswith("postgresql"),
            rows=rows,
        )
        self.services.append(service)
        return service

    async def close(self) -> None:
        for service in self.services:
            await service.close()
        for engine in self.engines:
            await engine.dispose()


@pytest.fixture
async def instances(database_url: str, tmp_path: Path) -> AsyncIterator[Instances]:
    made = Instances(database_url, tmp_path)
    try:
        yield made
    finally:
        await made.close()


async def started(service: GameService) -> str:
    game = await service.setup.create(ALICE, NewGame(GameTerms("dobutsu"), "first", True))
    await service.setup.join(BOB, game_id=game.id)
    return game.id


@pytest.mark.parametrize("core", [False, True], ids=["fastest", "core"])
async def test_a_stale_copy_never_overwrites_a_resignation(instances: Instances, core: bool):
    a, b = instances.make(core=core), instances.make(core=core)
    game_id = await started(a)
    await a.play.move(ALICE, game_id, "b2b3", 0)  # a now holds the row at ply 1
    await b.play.resign(BOB, game_id)  # the same ply: only the status changed
    with pytest.raises(ServiceError) as refused:
        await a.play.move(BOB, game_id, "b4a3", 1)  # legal on a's copy, where the game goes on
    assert refused.value.code == "game.over"
    game = await b.reads.get(game_id)
    assert (game.status, game.winner, game.ply, game.moves) == ("resign", "first", 1, "b2b3")


async def test_a_refusal_from_a_stale_copy_is_checked_against_the_database(
    instances: Instances,
):
    a, b = instances.make(), instances.make()
    game_id = await started(a)  # a holds the row at ply 0
    await b.play.move(ALICE, game_id, "b2b3", 0)
    # a's copy says ply 0 and first to move: only the stored row shows the move is right.
    game = await a.play.move(BOB, game_id, "b4a3", 1)
    assert (game.ply, game.moves) == (2, "b2b3 b4a3")
    with pytest.raises(ServiceError) as refused:
        await b.play.move(BOB, game_id, "b4b3", 1)  # b's copy is behind too: the refusal holds
    assert refused.value.code == "game.stale"
    assert (await b.reads.get(game_id)).moves == "b2b3 b4a3"


@pytest.mark.parametrize("core", [False, True], ids=["fastest", "core"])
async def test_a_draw_offer_made_elsewhere_is_declined_by_the_next_move(
    instances: Instances, core: bool
):
    a, b = instances.make(core=core), instances.make(core=core)
    game_id = await started(a)
    await b.play.draw(BOB, game_id, "offer")
    game = await a.play.move(ALICE, game_id, "b2b3", 0)  # a's copy had no offer
    assert (game.ply, game.draw_offer) == (1, None)
    stored = await b.reads.get(game_id)
    assert (stored.ply, stored.draw_offer, stored.status) == (1, None, "started")


async def test_a_no_op_from_a_stale_copy_is_checked_against_the_database(
    instances: Instances,
):
    a, b = instances.make(), instances.make()
    created = await a.setup.create(ALICE, NewGame(GameTerms("dobutsu"), "random", True))
    await b.setup.join(BOB, game_id=created.id)  # a's copy: still waiting for a second player
    # Already in the game per the stored row: nothing to do, no error, nothing written.
    game = await a.setup.join(BOB, game_id=created.id)
    assert game.status == "started"
    assert {game.first_id, game.second_id} == {ALICE.id, BOB.id}


class FlakyRows:
    """Real rows whose next save loses its connection, before or after the UPDATE ran."""

    def __init__(self, rows: GameRows) -> None:
        self.rows = rows
        self.fail: str | None = None  # "before" | "after" | None
        self.saves = 0

    async def load(self, game_id: str) -> Stored | None:
        return await self.rows.load(game_id)

    async def with_status(self, status: str) -> list[Stored]:
        return await self.rows.with_status(status)

    async def save(self, old: Stored, new: Row, outbox: Sequence[OutboxItem] = ()) -> Stored | None:
        self.saves += 1
        fail, self.fail = self.fail, None
        if fail == "before":
            raise ConnectionLost("the connection died before the UPDATE was sent")
        saved = await self.rows.save(old, new, outbox)
        if fail == "after":
            raise ConnectionLost("the connection died before the UPDATE's reply came")
        return saved

    async def save_in(self, session: AsyncSession, old: Stored, new: Row) -> bool:
        return await self.rows.save_in(session, old, new)

    async def close(self) -> None:
        await self.rows.close()


async def _moves_published(service: GameService, game_id: str, action: Any) -> list[str]:
    async with service.hub.subscribe(game_channel(game_id)) as sub:
        await action()
        messages = []
        while not sub.queue.empty():
            messages.append(await sub.get())
    return [m.move.move for m in messages if isinstance(m, GameUpdate) and m.move is not None]


@pytest.mark.parametrize("when", ["before", "after"])
async def test_a_save_whose_connection_died_applies_once(instances: Instances, when: str):
    engine = make_engine(instances.url)
    instances.engines.append(engine)
    flaky = FlakyRows(rows_for(engine))
    service = instances.make(flaky)
    game_id = await started(service)
    flaky.fail, flaky.saves = when, 0
    moves = await _moves_published(
        service, game_id, lambda: service.play.move(ALICE, game_id, "b2b3", 0)
    )
    assert len(moves) == 1  # told once, whether the first UPDATE committed or not
    game = await instances.make().reads.get(game_id)
    assert (game.ply, game.moves) == (1, "b2b3")
    assert flaky.saves == (2 if when == "before" else 1)
    await service.play.move(BOB, game_id, "b4a3", 1)
    assert (await service.reads.get(game_id)).moves == "b2b3 b4a3"


async def test_no_lock_outlives_the_changes(instances: Instances):
    service = instances.make()
    game_id = await started(service)
    outcomes = await asyncio.gather(
        *(service.play.move(ALICE, game_id, "b2b3", 0) for _ in range(8)), return_exceptions=True
    )
    assert sum(not isinstance(o, BaseException) for o in outcomes) == 1
    assert service.pipeline._locks == {}


async def test_live_games_are_read_without_the_orm(instances: Instances):
    service = instances.make()
    game_id = await started(service)
    waiting = await service.setup.create(ALICE, NewGame(GameTerms("yote"), "first", True))
    live = await service.reads.live_games()
    assert [g.id for g in live] == [game_id]
    assert waiting.id not in {g.id for g in live}
    assert live[0].rules == {"ruleset": "dobutsu"}  # the JSON column, decoded
    assert (live[0].status, live[0].first_id, live[0].second_id) == ("started", ALICE.id, BOB.id)


async def test_the_pipeline_changes_plain_records(instances: Instances):
    """Not mapped instances (their instrumented attributes cost a quarter of a change's CPU):
    records with every column, whose row survives the round trip."""
    service = instances.make()
    game_id = await started(service)
    game = await service.play.move(ALICE, game_id, "b2b3", 0)
    assert isinstance(game, GameRecord)
    assert (game.ply, game.moves, game.rules) == (1, "b2b3", {"ruleset": "dobutsu"})
    row = snapshot(game)
    copy = to_game(row)
    copy.rules["ruleset"] = "changed"  # a copy's JSON values are its own
    assert snapshot(to_game(row)) == row and game.rules == {"ruleset": "dobutsu"}


def test_the_fastest_rows_of_each_database(tmp_path):
    assert isinstance(rows_for(make_engine(f"sqlite+aiosqlite:///{tmp_path}/k.db")), SqliteRows)
    assert isinstance(rows_for(make_engine("sqlite+aiosqlite://")), CoreRows)  # in memory
    assert isinstance(rows_for(make_engine("postgresql+asyncpg://u@h/d")), PostgresRows)


def test_the_row_cache_keeps_the_most_recently_used():
    cache = RowCache(size=2)
    for name in ("a", "b"):
        cache.put(name, Stored((name,)))
    assert cache.get("a") == Stored(("a",))  # "a" used: "b" is now the oldest
    cache.put("c", Stored(("c",)))
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == (
        Stored(("a",)),
        None,
        Stored(("c",)),
    )
    cache.drop("a")
    assert len(cache) == 1


# ---- PostgreSQL only: the rows' own connections --------------------------------------------
async def _backends(url: str, application: str) -> int:
    conn = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
    try:
        count: int = await conn.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1", application
        )
        return count
    finally:
        await conn.close()


async def test_moves_go_on_after_postgresql_drops_every_connection(postgres_url, tmp_path):
    made = Instances(postgres_url, tmp_path)
    try:
        service = made.make()
        game_id = await started(service)
        await service.play.move(ALICE, game_id, "b2b3", 0)
        admin = await asyncpg.connect(postgres_url.replace("postgresql+asyncpg", "postgresql"))
        try:
            killed = await admin.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        finally:
            await admin.close()
        assert killed >= 1
        game = await service.play.move(BOB, game_id, "b4a3", 1)  # a dead connection: retried
        assert game.moves == "b2b3 b4a3"
        assert (await service.reads.get(game_id)).ply == 2
    finally:
        await made.close()


async def test_the_rows_never_open_more_connections_than_their_size(postgres_url, tmp_path):
    made = Instances(postgres_url, tmp_path)
    try:
        game_id = await started(made.make())
        engine = make_engine(postgres_url)
        made.engines.append(engine)
        _args, connect = engine.dialect.create_connect_args(engine.url)
        application = "kodama-rows-test"
        rows = PostgresRows({**connect, "server_settings": {"application_name": application}}, 2)
        try:

            async def load_and_count() -> int:
                assert (await rows.load(game_id)) is not None
                return await _backends(postgres_url, application)

            counts = await asyncio.gather(*(load_and_count() for _ in range(30)))
            assert max(counts) <= 2
            assert await rows.load("nonexistent") is None
        finally:
            await rows.close()
        assert await _backends(postgres_url, application) == 0
    finally:
        await made.close()


async def test_the_rows_connections_are_handed_out_first_come_first_served(postgres_url, tmp_path):
    made = Instances(postgres_url, tmp_path)
    try:
        game_id = await started(made.make())
        engine = make_engine(postgres_url)
        made.engines.append(engine)
        _args, connect = engine.dialect.create_connect_args(engine.url)
        rows = PostgresRows(dict(connect), 1)
        order: list[str] = []
        try:

            async def reader(name: str) -> None:
                for _ in range(4):
                    assert (await rows.load(game_id)) is not None
                    order.append(name)

            await asyncio.gather(reader("a"), reader("b"), reader("c"))
        finally:
            await rows.close()
        # One connection: a reader that is done queues behind the others (none starves).
        assert order == list("abc" * 4)
    finally:
        await made.close()
