"""The game lifecycle, by role: ``GameService`` holds one object per role, over one pipeline
(pipeline.py), one set of transitions (transitions.py) and one clock.

- ``reads`` (reads.py): a game as stored, its players, the state a client shows, its
  deadlines, the lists of many games;
- ``setup`` (setup.py): a player's row, games created, created started, joined, canceled;
- ``play`` (play.py): the players' actions: move, resign, abort, draw, takeback, claim;
- ``upkeep`` (upkeep.py): the server's own: seeks hidden and shown, time-outs, stale games;
- ``changes`` (changes.py): a change run through the pipeline and told to ``subscribers``
  (subscribers.py) and on the hub, and the one way to tell a change written outside it.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.config import Settings
from app.core.time import Clock
from app.db.gamerows import GameRows, rows_for
from app.games.changes import Changes
from app.games.pipeline import Pipeline
from app.games.play import PlayerActions
from app.games.reads import GameReads
from app.games.rules import Positions
from app.games.setup import GameSetup
from app.games.subscribers import Subscribers
from app.games.transitions import Transitions
from app.games.upkeep import Upkeep
from app.realtime.hub import LocalHub


class GameService:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        hub: LocalHub,
        settings: Settings,
        clock: Clock,
        *,
        is_postgres: bool,
        rows: GameRows | None = None,
    ) -> None:
        self.sessions = sessions
        self.hub = hub
        self.settings = settings
        self.now = clock.now_ms
        self.transitions = Transitions(settings, Positions())
        # The move pipeline's reads and writes of game rows (not the ORM: app/db/gamerows).
        self.pipeline = Pipeline(
            rows if rows is not None else rows_for(sessions.kw["bind"]), self.now
        )
        self.subscribers = Subscribers()
        self.reads = GameReads(
            sessions, self.pipeline, self.transitions, self.transitions.positions, self.now
        )
        self.changes = Changes(self.pipeline, hub, self.reads, self.subscribers)
        self.setup = GameSetup(
            sessions,
            settings,
            self.reads,
            self.changes,
            self.transitions,
            self.now,
            is_postgres=is_postgres,
        )
        self.play = PlayerActions(self.changes, self.transitions)
        self.upkeep = Upkeep(sessions, settings, self.changes, self.transitions, self.now)

    @property
    def gone_for_ms(self) -> Callable[[str, str], int | None]:
        """How long a seat (game id, side) has had nobody connected: for claims."""
        return self.transitions.gone_for_ms

    @gone_for_ms.setter
    def gone_for_ms(self, value: Callable[[str, str], int | None]) -> None:
        self.transitions.gone_for_ms = value

    async def close(self) -> None:
        """Close the rows' own connections (PostgreSQL); the service is done."""
        await self.pipeline.close()
