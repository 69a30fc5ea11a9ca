"""The server's own clock: ends games whose time or first-move deadline runs out, with no
client needed. One timer per live game, set after every change; at start-up and every
``sweep_seconds`` all live games are rescheduled from the database (restarts, other
instances). Ending a game twice is impossible: ``expire`` re-checks inside the transaction."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from app.core.time import Clock, Handle, every
from app.db.models import GameRow
from app.games import GameService

log = logging.getLogger(__name__)


class Timekeeper:
    def __init__(self, service: GameService, clock: Clock, sweep_seconds: float = 30.0) -> None:
        self.service = service
        self.sweep_seconds = sweep_seconds
        self.clock = clock
        self._timers: dict[str, Handle] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._sweeper: asyncio.Task[None] | None = None

    def schedule(self, game: GameRow) -> None:
        """(Re)arm the game's timer for its next deadline, or drop it (after every committed
        change: a subscriber, app/games/subscribers.py)."""
        old = self._timers.pop(game.id, None)
        if old is not None:
            old.cancel()
        due = self.service.reads.due_at(game)
        if due is None:
            return
        game_id = game.id
        self._timers[game_id] = self.clock.call_at(due, lambda: self._fire(game_id))

    def _fire(self, game_id: str) -> None:
        self._timers.pop(game_id, None)
        task = asyncio.get_running_loop().create_task(self._expire(game_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _expire(self, game_id: str) -> None:
        game = None
        try:
            game = await self.service.upkeep.expire(game_id)
            if game is None:  # the check failed (a busy game, say): look again
                game = await self.service.reads.get(game_id)
        except Exception:
            log.exception("time-out check of game %s failed", game_id)
        if game is not None:
            self.schedule(game)  # still due (the clock moved, or the check failed): arm again

    async def sweep(self) -> None:
        await self.service.upkeep.expire_open_games()
        for game in await self.service.reads.live_games():
            self.schedule(game)

    async def start(self) -> None:
        await self.sweep()
        self._sweeper = asyncio.get_running_loop().create_task(
            every(self.clock, self.sweep_seconds, self.sweep, log, "sweep of live games failed")
        )

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        for task in list(self._tasks):
            task.cancel()
