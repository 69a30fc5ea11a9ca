"""The outbox: a game's durable events (it ended) are written with the change that made them,
in one statement or transaction, and consumed exactly once (per-player counts), however many
times and by however many instances consumption is tried. Against the real databases."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from app.accounts.stats import PlayerCounts, counts
from app.core.config import Settings
from app.core.time import ManualClock
from app.db.engine import make_engine, make_sessionmaker
from app.db.gamerows import CoreRows, rows_for, snapshot, to_game
from app.db.models import OutboxEntry, PlayerStats
from app.domain.durable import OutboxItem, decode, encode, outbox_items
from app.domain.enums import EndReason, GameStatus, Side
from app.domain.events import GameEnded, GameEvent, MovePlayed
from app.games import GameService, Identity, NewGame
from app.games.terms import GameTerms
from app.outbox.consumer import OutboxConsumer
from app.realtime.hub import LocalHub
from tests.app.conftest import SECRET

pytestmark = pytest.mark.anyio

ALICE = Identity("a" * 16, "Anonymous AAAA")  # first
BOB = Identity("b" * 16, "Anonymous BBBB")  # second


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Instance:
    """One server instance's game service and outbox consumer, on an engine of its own."""

    def __init__(self, url: str, tmp_path: Path, *, core: bool = False, hook: bool = True):
        self.engine: AsyncEngine = make_engine(url)
        self.sessions = make_sessionmaker(self.engine)
        is_postgres = url.startswith("postgresql")
        self.clock = ManualClock()
        self.service = GameService(
            self.sessions,
            LocalHub(),
            Settings(database_url=url, data_dir=tmp_path, secret_key=SECRET),
            self.clock,
            is_postgres=is_postgres,
            rows=CoreRows(self.engine) if core else rows_for(self.engine),
        )
        self.outbox = OutboxConsumer(
            self.sessions,
            [PlayerCounts(is_postgres=is_postgres)],
            self.clock,
        )
        if hook:
            self.service.subscribers.durable.add("outbox", self.outbox.committed)

    async def close(self) -> None:
        await self.outbox.stop()
        await self.service.close()
        await self.engine.dispose()


class Instances:
    def __init__(self, url: str, tmp_path: Path) -> None:
        self.url, self.tmp_path = url, tmp_path
        self.made: list[Instance] = []

    def make(self, **options: Any) -> Instance:
        self.made.append(Instance(self.url, self.tmp_path, **options))
        return self.made[-1]


@pytest.fixture
async def instances(database_url: str, tmp_path: Path) -> AsyncIterator[Instances]:
    made = Instances(database_url, tmp_path)
    try:
        yield made
    finally:
        for instance in made.made:
            await instance.close()


async def started(service: GameService, moves: int = 2) -> str:
    game = await service.setup.create(ALICE, NewGame(GameTerms("dobutsu"), "first", True))
    await service.setup.join(BOB, game_id=game.id)
    for ply, (who, move) in enumerate([(ALICE, "b2b3"), (BOB, "b4a3")][:moves]):
        await service.play.move(who, game.id, move, ply)
    return game.id


async def outbox_rows(instance: Instance) -> list[tuple[Any, ...]]:
    async with instance.sessions() as session:
        found = await session.execute(
            sa.select(
                OutboxEntry.game_id, OutboxEntry.seq, OutboxEntry.kind, OutboxEntry.consumed_ms
            ).order_by(OutboxEntry.game_id, OutboxEntry.seq)
        )
        return [tuple(row) for row in found]


async def record(instance: Instance, who: Identity) -> tuple[int, int, int, int]:
    found = await counts(instance.sessions, who.id)
    return (found.played, found.won, found.lost, found.drawn)


# ---- the codec ---------------------------------------------------------------------------
def test_a_durable_event_round_trips_through_its_outbox_row():
    ended = GameEnded("g1", 7, GameStatus.RESIGN, Side.SECOND, EndReason.RESIGN)
    drawn = GameEnded("g2", 9, GameStatus.DRAW, None, EndReason.AGREEMENT)
    items = outbox_items([MovePlayed("g1", 7, Side.FIRST, "b2b3"), ended], 123)
    assert items == (OutboxItem("gameEnded", encode(ended), 123),)  # only the durable one
    assert decode("gameEnded", items[0].payload) == ended
    assert (
        decode(
            "gameEnded",
            {"game_id": "g2", "ply": 9, "status": "draw", "winner": None, "reason": "agreement"},
        )
        == drawn
    )
    with pytest.raises(ValueError, match="unknown outbox kind"):
        decode("ratingChanged", "{}")


# ---- written with the change -------------------------------------------------------------
@pytest.mark.parametrize("core", [False, True], ids=["fastest", "core"])
async def test_an_ended_game_is_counted_once_for_both_players(instances: Instances, core: bool):
    a = instances.make(core=core)
    game_id = await started(a.service)
    await a.service.play.resign(BOB, game_id)
    rows = await outbox_rows(a)
    assert [(g, seq, kind) for g, seq, kind, _ in rows] == [(game_id, 1, "gameEnded")]
    assert rows[0][3] is not None  # consumed right after the commit
    assert await record(a, ALICE) == (1, 1, 0, 0)
    assert await record(a, BOB) == (1, 0, 1, 0)
    assert await a.outbox.sweep() == 0  # nothing left: a sweep counts nothing again
    assert await record(a, ALICE) == (1, 1, 0, 0)


async def test_a_draw_counts_for_both_and_moves_write_no_outbox_row(instances: Instances):
    a = instances.make()
    game_id = await started(a.service)
    assert await outbox_rows(a) == []  # moves, joins, creation: nothing durable
    await a.service.play.draw(ALICE, game_id, "offer")
    await a.service.play.draw(BOB, game_id, "accept")
    assert await record(a, ALICE) == (1, 0, 0, 1)
    assert await record(a, BOB) == (1, 0, 0, 1)
    game_2 = await started(a.service)
    await a.service.play.resign(ALICE, game_2)
    assert await record(a, ALICE) == (2, 0, 1, 1)
    assert await record(a, BOB) == (2, 1, 0, 1)


async def test_aborted_games_and_games_never_started_count_nothing(instances: Instances):
    a = instances.make()
    aborted = await started(a.service, moves=1)
    await a.service.play.abort(BOB, aborted)
    unmoved = await started(a.service, moves=0)
    a.clock.jump(3_600_000)  # an hour on: the first move never came
    ended = await a.service.upkeep.expire(unmoved)
    assert ended is not None and ended.status == GameStatus.NO_START
    canceled = await a.service.setup.create(ALICE, NewGame(GameTerms("dobutsu"), "first", True))
    await a.service.setup.cancel(ALICE, canceled.id)
    rows = await outbox_rows(a)
    assert len(rows) == 3 and all(consumed is not None for *_, consumed in rows)
    assert await record(a, ALICE) == (0, 0, 0, 0)
    assert await record(a, BOB) == (0, 0, 0, 0)


@pytest.mark.parametrize("core", [False, True], ids=["fastest", "core"])
async def test_the_outbox_row_is_written_only_if_the_change_is(instances: Instances, core: bool):
    a = instances.make(core=core, hook=False)
    game_id = await started(a.service)
    rows = a.service.pipeline.rows
    old = await rows.load(game_id)
    assert old is not None
    game = to_game(old.row)
    game.status, game.winner, game.reason = GameStatus.RESIGN, Side.FIRST, EndReason.RESIGN
    ended = GameEnded(game_id, 2, GameStatus.RESIGN, Side.FIRST, EndReason.RESIGN)
    items = outbox_items([ended, ended], 5)  # two, to see each get the next seq
    assert await rows.save(old, snapshot(game), items) is not None
    # The same change again from the row as it was: the UPDATE matches nothing, and so
    # nothing is inserted either.
    assert await rows.save(old, snapshot(game), items) is None
    assert [(seq, consumed) for _g, seq, _k, consumed in await outbox_rows(a)] == [
        (1, None),
        (2, None),
    ]
    with pytest.raises(ValueError, match="outbox rows come with a change"):
        await rows.save(old, old.row, items)


# ---- consumed exactly once ---------------------------------------------------------------
async def test_consuming_a_row_twice_counts_it_once(instances: Instances):
    a = instances.make(hook=False)  # nothing consumes after the commit: as after a crash
    game_id = await started(a.service)
    await a.service.play.resign(ALICE, game_id)
    [(_, seq, kind, consumed)] = await outbox_rows(a)
    assert consumed is None and await record(a, BOB) == (0, 0, 0, 0)
    async with a.sessions() as session:
        payload = (
            await session.execute(sa.select(OutboxEntry.payload).where(OutboxEntry.seq == seq))
        ).scalar_one()
    assert await a.outbox.consume(game_id, seq, kind, payload) is True
    assert await a.outbox.consume(game_id, seq, kind, payload) is False
    assert await a.outbox.sweep() == 0
    assert await record(a, BOB) == (1, 1, 0, 0)
    assert await record(a, ALICE) == (1, 0, 1, 0)


async def test_instances_sweeping_together_count_each_game_once(instances: Instances):
    a = instances.make(hook=False)
    others = [instances.make(hook=False) for _ in range(3)]
    for _ in range(4):
        await a.service.play.resign(BOB, await started(a.service))
    swept = await asyncio.gather(*(i.outbox.sweep() for i in [a, *others]))
    assert sum(swept) == 4  # each row consumed by exactly one of them
    assert await record(a, ALICE) == (4, 4, 0, 0)
    assert await record(a, BOB) == (4, 0, 4, 0)


class Failing:
    """A consumer that fails (a bug, a lost connection) the first ``times`` times."""

    def __init__(self, times: int) -> None:
        self.times = times

    async def apply(self, _session: AsyncSession, _event: GameEvent) -> None:
        if self.times:
            self.times -= 1
            raise RuntimeError("the consumer failed")


async def test_a_failed_consumer_undoes_the_mark_and_every_other_consumer(instances: Instances):
    a = instances.make()
    failing = Failing(1)
    a.outbox.consumers.append(failing)  # after the counts: their writes are undone too
    game_id = await started(a.service)
    game = await a.service.play.resign(ALICE, game_id)  # the change stands, consumption failed
    assert game.status == GameStatus.RESIGN
    [(*_, consumed)] = await outbox_rows(a)
    assert consumed is None
    assert await record(a, BOB) == (0, 0, 0, 0)
    assert await a.outbox.sweep() == 1  # the sweep's try succeeds, once
    assert await record(a, BOB) == (1, 1, 0, 0)
    assert failing.times == 0


async def test_start_consumes_what_a_previous_run_left(instances: Instances):
    a = instances.make(hook=False)
    await a.service.play.resign(BOB, await started(a.service))
    restarted = instances.make()
    await restarted.outbox.start()  # the start-up sweep, then the periodic one
    assert await record(restarted, ALICE) == (1, 1, 0, 0)
    await restarted.outbox.stop()


async def test_the_periodic_sweep_runs_on_the_apps_clock(instances: Instances):
    a = instances.make(hook=False)  # nothing consumes after the commit: only the sweep does
    await a.outbox.start()
    await a.service.play.resign(BOB, await started(a.service))
    assert await record(a, ALICE) == (0, 0, 0, 0)
    await a.clock.advance_async(round(a.outbox.sweep_seconds * 1000))  # its turn begins
    await a.outbox.stop()  # which lets the turn in progress end
    assert await record(a, ALICE) == (1, 1, 0, 0)


# ---- the counts over HTTP ----------------------------------------------------------------
def test_me_and_user_show_the_counts(client: Any, alice: Any, bob: Any):
    assert alice.get("/api/me").json()["count"] == {
        "all": 0,
        "rated": 0,
        "win": 0,
        "loss": 0,
        "draw": 0,
        "playing": 0,
    }
    game_id = alice.create()["id"]
    assert bob.post(f"/api/games/{game_id}/join").status_code == 200
    assert alice.get("/api/me").json()["count"]["playing"] == 1
    response = bob.post(f"/api/board/game/{game_id}/resign")
    assert response.status_code == 200, response.text
    assert alice.get("/api/me").json()["count"] == {
        "all": 1,
        "rated": 0,
        "win": 1,
        "loss": 0,
        "draw": 0,
        "playing": 0,
    }
    assert bob.get("/api/me").json()["count"] == {
        "all": 1,
        "rated": 0,
        "win": 0,
        "loss": 1,
        "draw": 0,
        "playing": 0,
    }


# ---- the migration -----------------------------------------------------------------------
def _alembic(url: str, action: str, revision: str) -> None:
    from alembic import command  # noqa: PLC0415
    from alembic.config import Config  # noqa: PLC0415

    from app.__main__ import MIGRATIONS  # noqa: PLC0415

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url)
    getattr(command, action)(config, revision)


@pytest.fixture(params=["sqlite", "postgres"])
def url_at_0006(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database migrated only up to 0006: before the outbox and the counts."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'kodama.sqlite3'}"
    else:
        url = request.getfixturevalue("empty_postgres_url")
    _alembic(url, "upgrade", "0006")
    return url


async def test_the_migration_counts_the_games_finished_before_it(url_at_0006: str):
    carol = Identity("c" * 16, "Anonymous CCCC")
    finished = [  # (first, second, status, winner)
        (ALICE, BOB, "resign", "first"),
        (BOB, ALICE, "variantEnd", "first"),
        (ALICE, BOB, "draw", None),
        (ALICE, carol, "outoftime", "second"),
        (ALICE, BOB, "aborted", None),  # not counted
        (BOB, carol, "noStart", None),  # not counted
        (ALICE, BOB, "started", None),  # not finished
    ]
    engine = make_engine(url_at_0006)
    try:
        async with engine.begin() as conn:
            await conn.execute(
                sa.text("INSERT INTO players (id, name, created_ms) VALUES (:id, :name, 1)"),
                [{"id": p.id, "name": p.name} for p in (ALICE, BOB, carol)],
            )
            await conn.execute(
                sa.text(
                    "INSERT INTO games (id, variant, rules, public, status, creator_id,"
                    " creator_color, first_id, second_id, invite_token, moves, ply, fen,"
                    " winner, created_ms, rated) VALUES (:id, 'dobutsu', '{}', true, :status,"
                    " :first, 'first', :first, :second, :id, '', 0, 'x', :winner, 1, false)"
                ),
                [
                    {"id": f"g{n}", "first": a.id, "second": b.id, "status": s, "winner": w}
                    for n, (a, b, s, w) in enumerate(finished)
                ],
            )
        await asyncio.to_thread(_alembic, url_at_0006, "upgrade", "head")
        async with engine.connect() as conn:
            stats = (
                await conn.execute(
                    sa.select(
                        PlayerStats.player_id,
                        PlayerStats.played,
                        PlayerStats.won,
                        PlayerStats.lost,
                        PlayerStats.drawn,
                    ).order_by(PlayerStats.player_id)
                )
            ).all()
        assert [tuple(row) for row in stats] == [
            (ALICE.id, 4, 1, 2, 1),  # won g0; lost g1, g3; drew g2
            (BOB.id, 3, 1, 1, 1),  # won g1; lost g0; drew g2
            (carol.id, 1, 1, 0, 0),  # won g3
        ]
        await asyncio.to_thread(_alembic, url_at_0006, "downgrade", "0006")
        await asyncio.to_thread(_alembic, url_at_0006, "upgrade", "head")
    finally:
        await engine.dispose()
