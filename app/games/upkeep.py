"""The server's own actions on games: a seek hidden while its creator is away, shown again,
withdrawn once abandoned (app/lobby/seeks.py decides; the transitions check again), a game
ended when its time or deadline ran out, open games nobody joined withdrawn."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.config import Settings
from app.core.errors import ServiceError
from app.db.models import GameRow
from app.games import queries
from app.games.changes import Changes
from app.games.transitions import Transitions


class Upkeep:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        settings: Settings,
        changes: Changes,
        transitions: Transitions,
        clock_ms: Callable[[], int],
    ) -> None:
        self.sessions = sessions
        self.settings = settings
        self.changes = changes
        self.transitions = transitions
        self.now = clock_ms

    async def seek_away(self, game_id: str) -> GameRow:
        return await self.changes.run(game_id, self.transitions.seek_away)

    async def seek_back(self, game_id: str) -> GameRow:
        return await self.changes.run(game_id, self.transitions.seek_back)

    async def seek_abandoned(self, game_id: str, grace_ms: int) -> GameRow:
        return await self.changes.run(
            game_id, lambda g, now: self.transitions.seek_abandoned(g, now, grace_ms)
        )

    async def expire(self, game_id: str) -> GameRow | None:
        """The server's own time-out check (timers call it; safe to call any time)."""
        try:
            return await self.changes.run(game_id, self.transitions.expire_if_due)
        except ServiceError:
            return None

    async def expire_open_games(self) -> int:
        """Withdraw games whose free seat nobody took within ``open_game_hours``."""
        cutoff = self.now() - int(self.settings.open_game_hours * 3_600_000)
        stale = await queries.unjoined_since(self.sessions, cutoff)
        for game_id in stale:
            await self.changes.run(game_id, self.transitions.expire_unjoined)
        return len(stale)
