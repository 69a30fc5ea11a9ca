"""Periodic work (app/core/time.py ``every``: the sweeps, heartbeats and pairing rounds of
the services): a service stopping during a turn lets the turn end first. Cut short inside a
query, a turn could not give its connection back: seen as SQLAlchemy's "Exception during
reset or similar" traceback in a server's log at shutdown."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import pytest
from sqlalchemy import text

from app.core import time as app_time
from app.core.time import ManualClock, every
from app.db.engine import make_engine, make_sessionmaker

log = logging.getLogger("tests.every")


class Turn:
    """A turn of work that waits, in the middle, until the test lets it go on."""

    def __init__(self) -> None:
        self.inside = asyncio.Event()
        self.go_on = asyncio.Event()
        self.ended = False

    async def __call__(self) -> None:
        self.inside.set()
        await self.go_on.wait()
        self.ended = True


async def stop_during_a_turn(
    clock: ManualClock, work: Callable[[], Awaitable[None]], turn: Turn
) -> asyncio.Task[None]:
    """``every`` running ``work``, stopped (cancelled, as its service's ``stop`` does) while
    ``work`` is inside ``turn``. Every 0 seconds: the first turn starts at once (advancing
    the clock into it would wait on the turn, which waits on the test)."""
    runner = asyncio.get_running_loop().create_task(every(clock, 0, work, log, "failed"))
    await turn.inside.wait()
    runner.cancel()
    await clock.advance_async(0)  # what is runnable runs: the runner hears of its stop
    return runner


def test_a_stop_during_a_turn_lets_the_turn_end_first():
    async def main() -> None:
        clock, turn = ManualClock(), Turn()
        runner = await stop_during_a_turn(clock, turn, turn)
        assert not runner.done()  # still in its turn
        turn.go_on.set()
        with pytest.raises(asyncio.CancelledError):
            await runner
        assert turn.ended

    asyncio.run(main())


def test_a_turn_stuck_past_the_grace_is_cut_short():
    async def main() -> None:
        clock, turn = ManualClock(), Turn()
        runner = await stop_during_a_turn(clock, turn, turn)
        assert not runner.done()
        assert clock.pending == 1  # the grace's timer
        await clock.advance_async(app_time.TURN_GRACE_SECONDS * 1000)
        with pytest.raises(asyncio.CancelledError):
            await runner  # never let go on, yet the stop ends
        assert not turn.ended

    asyncio.run(main())


def test_a_stopped_sweep_ends_its_queries_and_gives_its_connection_back(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
):
    async def main() -> None:
        db = make_engine(sqlite_url)
        sessions = make_sessionmaker(db)
        clock, turn = ManualClock(), Turn()
        ran: list[int] = []

        async def sweep() -> None:
            async with sessions() as session:
                ran.append((await session.execute(text("SELECT 1"))).scalar_one())
                await turn()
                ran.append((await session.execute(text("SELECT 2"))).scalar_one())

        sweeper = await stop_during_a_turn(clock, sweep, turn)
        turn.go_on.set()
        with pytest.raises(asyncio.CancelledError):
            await sweeper
        assert ran == [1, 2]
        assert db.pool.checkedout() == 0  # type: ignore[attr-defined]
        await db.dispose()

    with caplog.at_level(logging.ERROR):
        asyncio.run(main())
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
