"""The reviews' work: each instance runs at most ``workers`` reviews at once, each in its own
worker process at a lower priority than the server's (app/review/compute.py), so the games'
moves are never held up by them (docs/decisions/game-review.md).

A review is claimed from the queue by one compare-and-set UPDATE (of several instances, one
wins it), its positions are evaluated one by one and kept as they come (with a heartbeat:
a review whose instance stopped reporting for ``lease`` seconds is queued again and goes on
where it was), and it ends judged (app/review/judge.py). An instance that stops puts its
running reviews back in the queue.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from sqlalchemy import and_, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.analysis.evaluate import Budget
from app.analysis.workers import CONTEXT
from app.core.errors import ServiceError
from app.core.time import Clock
from app.games import GameService, initial_text
from app.review import compute
from app.review.judge import PositionValue, judge
from app.review.tables import DONE, FAILED, QUEUED, RUNNING, GameReview

log = logging.getLogger(__name__)
# One position's value: (variant, rules, fen) -> its value, found off the event loop.
Evaluator = Callable[[str, dict[str, str], str], Awaitable[PositionValue]]


class ReviewRunner:
    """This instance's share of the reviews (``start``/``stop`` with the app)."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        clock: Clock,
        games: GameService,
        *,
        workers: int,
        budget: Budget,
        tables: Path | None,
        lease_s: float,
        poll_s: float,
    ) -> None:
        self.sessions = sessions
        self.clock = clock
        self.games = games
        self.workers = workers
        self.budget = budget
        self.tables = tables
        self.lease_ms = round(lease_s * 1000)
        self.poll_s = poll_s
        self.owner = secrets.token_hex(8)  # this instance, in the rows it runs
        self.evaluate: Evaluator = self._in_worker
        self._pool: ProcessPoolExecutor | None = None
        self._running: set[asyncio.Task[None]] = set()
        self._woken = asyncio.Event()
        # Who waits for a turn of the queue to end (``turned``): (idle wanted, its future).
        self._waiters: list[tuple[bool, asyncio.Future[None]]] = []
        self._loop: asyncio.Task[None] | None = None

    # ---- the app's lifespan ------------------------------------------------------------------
    async def start(self) -> None:
        self._loop = asyncio.create_task(self._serve(), name="reviews")

    async def stop(self) -> None:
        tasks = [t for t in (self._loop, *self._running) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._loop = None
        # What this instance was running goes back in the queue, for whichever runs next.
        async with self.sessions() as session:
            await session.execute(
                update(GameReview)
                .where(GameReview.owner == self.owner, GameReview.status == RUNNING)
                .values(status=QUEUED, owner=None)
            )
            await session.commit()
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def wake(self) -> None:
        """A review was queued: look at the queue now, not at the next poll."""
        self._woken.set()

    async def turned(self, idle: bool = False) -> None:
        """Wait for the end of a look at the queue begun after this call; ``idle``: of one
        that left nothing running and found nothing queued (for tests: no sleeping)."""
        found: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append((idle, found))
        self.wake()
        await found

    # ---- the queue ---------------------------------------------------------------------------
    async def _serve(self) -> None:
        while True:
            self._woken.clear()
            waiting, self._waiters = self._waiters, []
            idle = False
            try:
                idle = await self._turn()
            except Exception:
                log.exception("the reviews' queue could not be read")
            for wants_idle, found in waiting:
                if found.done():
                    continue
                if idle or not wants_idle:
                    found.set_result(None)
                else:
                    self._waiters.append((wants_idle, found))
            woken = asyncio.ensure_future(self._woken.wait())
            slept = asyncio.ensure_future(self.clock.sleep(self.poll_s))
            try:
                await asyncio.wait({woken, slept}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                woken.cancel()
                slept.cancel()

    async def _turn(self) -> bool:
        """Queue the stale reviews again and start what the free workers can; whether
        nothing is left running or queued."""
        if not self._running and not await self._anything():
            return True  # the common turn: one read
        await self._requeue_stale()
        while len(self._running) < self.workers:
            claimed = await self._claim()
            if claimed is None:
                return not self._running
            task = asyncio.create_task(self._review(claimed), name=f"review {claimed}")
            self._running.add(task)
            task.add_done_callback(self._finished)
        return False

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._running.discard(task)
        self.wake()

    async def _anything(self) -> bool:
        """Whether a review is queued, or running but not heard of within the lease."""
        stale = self.clock.now_ms() - self.lease_ms
        async with self.sessions() as session:
            found = await session.scalar(
                select(GameReview.game_id)
                .where(
                    or_(
                        GameReview.status == QUEUED,
                        and_(GameReview.status == RUNNING, GameReview.heartbeat_ms < stale),
                    )
                )
                .limit(1)
            )
            return found is not None

    async def _requeue_stale(self) -> None:
        stale = self.clock.now_ms() - self.lease_ms
        async with self.sessions() as session:
            await session.execute(
                update(GameReview)
                .where(GameReview.status == RUNNING, GameReview.heartbeat_ms < stale)
                .values(status=QUEUED, owner=None)
            )
            await session.commit()

    async def _claim(self) -> str | None:
        """The oldest queued review, now this instance's; None when none is left."""
        for _ in range(8):  # another instance may win each one: try the next
            async with self.sessions() as session:
                oldest = await session.scalar(
                    select(GameReview.game_id)
                    .where(GameReview.status == QUEUED)
                    .order_by(GameReview.requested_ms, GameReview.game_id)
                    .limit(1)
                )
                if oldest is None:
                    return None
                now = self.clock.now_ms()
                won = await session.execute(
                    update(GameReview)
                    .where(GameReview.game_id == oldest, GameReview.status == QUEUED)
                    .values(status=RUNNING, owner=self.owner, started_ms=now, heartbeat_ms=now)
                )
                await session.commit()
                if getattr(won, "rowcount", 0) == 1:
                    return oldest
        return None

    # ---- one review --------------------------------------------------------------------------
    async def _review(self, game_id: str) -> None:
        try:
            await self._work(game_id)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            code = exc.code if isinstance(exc, ServiceError) else "review.failed"
            log.exception("the review of %s failed", game_id)
            await self._save(game_id, status=FAILED, error=code, owner=None)

    async def _work(self, game_id: str) -> None:
        game = await self.games.reads.get(game_id)
        variant, rules, moves = game.variant, dict(game.rules), game.moves.split()
        async with self.sessions() as session:
            row = await session.get(GameReview, game_id)
            assert row is not None
            values: list[PositionValue] = json.loads(row.evals)
        fens = await self._call(compute.positions, variant, rules, initial_text(game), moves)
        for fen in fens[len(values) :]:
            values.append(await self.evaluate(variant, rules, fen))
            kept = await self._save(
                game_id,
                evals=json.dumps(values, separators=(",", ":")),
                plies_done=len(values),
                heartbeat_ms=self.clock.now_ms(),
            )
            if not kept:
                return  # queued again (this instance was taken for gone): another runs it
        result = judge(variant, moves, values)
        await self._save(
            game_id,
            status=DONE,
            result=json.dumps(result, separators=(",", ":")),
            finished_ms=self.clock.now_ms(),
            owner=None,
        )

    async def _save(self, game_id: str, **values: Any) -> bool:
        """Write the running review's columns, if it is still this instance's."""
        async with self.sessions() as session:
            done = await session.execute(
                update(GameReview)
                .where(
                    GameReview.game_id == game_id,
                    GameReview.status == RUNNING,
                    GameReview.owner == self.owner,
                )
                .values(**values)
            )
            await session.commit()
            return getattr(done, "rowcount", 0) == 1

    # ---- the worker processes ----------------------------------------------------------------
    async def _in_worker(self, variant: str, rules: dict[str, str], fen: str) -> PositionValue:
        value: PositionValue = await self._call(
            compute.value_of, variant, rules, fen, self.budget, self.tables
        )
        return value

    async def _call(self, work: Callable[..., Any], *args: Any) -> Any:
        if self._pool is None:
            # Made at the first review: an instance nobody asks starts no process.
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=CONTEXT, initializer=compute.lower_priority
            )
        return await asyncio.wrap_future(self._pool.submit(work, *args))
