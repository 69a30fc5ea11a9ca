"""A seek lives while its creator has a page open (docs/decisions/live-lobby.md): every
``sweep_s`` each instance reads the public games waiting for an opponent with
whether their creator has a socket open on a live instance (app/realtime/attendance.py), and
hides the seek of a creator who has none, shows it again when they are back, and cancels it
(as expired) once hidden for the grace. Each change is a transition that checks its own
condition again, so instances sweeping at once change a game once."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from sqlalchemy import and_, exists, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.config import Settings
from app.core.errors import ServiceError
from app.core.time import Clock, every
from app.db.models import Game, PlayerSocket, ServerInstance
from app.domain.enums import GameStatus
from app.games import GameService

log = logging.getLogger(__name__)


async def open_seeks(
    sessions: async_sessionmaker[AsyncSession], alive_since_ms: int
) -> list[tuple[str, int | None, int, bool]]:
    """Each public game waiting for an opponent: (id, hidden since, created, creator here),
    "here" meaning a socket on an instance whose heartbeat is newer than ``alive_since_ms``."""
    here = exists().where(
        and_(
            PlayerSocket.player_id == Game.creator_id,
            ServerInstance.id == PlayerSocket.instance,
            ServerInstance.beat_ms > alive_since_ms,
        )
    )
    async with sessions() as session:
        rows = await session.execute(
            select(Game.id, Game.seek_away_ms, Game.created_ms, here.label("here")).where(
                Game.status == GameStatus.CREATED, Game.public.is_(True)
            )
        )
        return [(r.id, r.seek_away_ms, r.created_ms, bool(r.here)) for r in rows]


class SeekKeeper:
    def __init__(self, service: GameService, settings: Settings, clock: Clock) -> None:
        self.service = service
        self.clock = clock
        self.sweep_s = settings.seek_sweep_seconds
        self.grace_ms = round(settings.seek_grace_seconds * 1000)
        self.dead_ms = round(settings.instance_dead_seconds * 1000)
        self.new_ms = round(settings.seek_new_seconds * 1000)
        self._runner: asyncio.Task[None] | None = None

    async def sweep(self) -> None:
        now = self.clock.now_ms()
        for game_id, away, created, here in await open_seeks(
            self.service.sessions, now - self.dead_ms
        ):
            present = here or now - created < self.new_ms
            try:
                if present and away is not None:
                    await self.service.upkeep.seek_back(game_id)
                elif not present and away is None:
                    await self.service.upkeep.seek_away(game_id)
                elif not present and away is not None and now - away >= self.grace_ms:
                    await self.service.upkeep.seek_abandoned(game_id, self.grace_ms)
            except ServiceError:  # joined or cancelled meanwhile
                continue

    async def start(self) -> None:
        self._runner = asyncio.get_running_loop().create_task(
            every(self.clock, self.sweep_s, self.sweep, log, "could not sweep the seeks")
        )

    async def stop(self) -> None:
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._runner
            self._runner = None
