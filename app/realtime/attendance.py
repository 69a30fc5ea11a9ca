"""Which identities have a socket open, on every instance: what keeps their seeks alive
(app/lobby/seeks.py; docs/decisions/live-lobby.md).

Each instance counts its own sockets per identity in memory (``hold``: a page's socket, a bot's
event stream) and writes the set to the database every ``beat_s`` (table ``player_sockets``:
only what changed since the last write), with its heartbeat (table ``instances``). Every
instance reads them alike; an instance whose heartbeat is older than ``dead_ms`` counts as
gone with all its sockets: a killed instance keeps nothing alive. A socket that closes costs
no database work in its (cancellable) handler: the next beat writes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import Counter
from collections.abc import Iterator

from sqlalchemy import delete, insert, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.time import Clock, every
from app.db.models import PlayerSocket, ServerInstance

log = logging.getLogger(__name__)


class Attendance:
    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], clock: Clock, beat_s: float = 1.0
    ) -> None:
        self.sessions = sessions
        self.clock = clock
        self.beat_s = beat_s
        self.instance = secrets.token_hex(8)
        self._sockets: Counter[str] = Counter()  # identity -> sockets open here
        self._written: set[str] = set()  # the identities the database holds for this instance
        self._runner: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()

    @contextlib.contextmanager
    def hold(self, player_id: str) -> Iterator[None]:
        """For the block, ``player_id`` has a socket open here."""
        self._sockets[player_id] += 1
        try:
            yield
        finally:
            self._sockets[player_id] -= 1
            if self._sockets[player_id] <= 0:
                del self._sockets[player_id]

    def here(self, player_id: str) -> bool:
        return player_id in self._sockets

    async def write(self) -> None:
        """One beat: this instance's heartbeat, and its identities as they are now."""
        async with self._lock:
            now = set(self._sockets)
            came, went = now - self._written, self._written - now
            async with self.sessions() as session, session.begin():
                beat = await session.execute(
                    update(ServerInstance)
                    .where(ServerInstance.id == self.instance)
                    .values(beat_ms=self.clock.now_ms())
                )
                if beat.rowcount == 0:  # type: ignore[attr-defined]
                    await session.execute(
                        insert(ServerInstance).values(id=self.instance, beat_ms=self.clock.now_ms())
                    )
                if went:
                    await session.execute(
                        delete(PlayerSocket).where(
                            PlayerSocket.instance == self.instance,
                            PlayerSocket.player_id.in_(went),
                        )
                    )
                if came:
                    await session.execute(
                        insert(PlayerSocket),
                        [{"instance": self.instance, "player_id": p} for p in sorted(came)],
                    )
            self._written = now

    async def start(self) -> None:
        await self.write()
        # A failed write (the database away) is logged; the next beat writes it all.
        self._runner = asyncio.get_running_loop().create_task(
            every(
                self.clock, self.beat_s, self.write, log, "could not write this instance's sockets"
            )
        )

    async def stop(self) -> None:
        """A clean stop: this instance and its sockets leave the database at once."""
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._runner
            self._runner = None
        with contextlib.suppress(Exception):
            async with self.sessions() as session, session.begin():
                await session.execute(
                    delete(PlayerSocket).where(PlayerSocket.instance == self.instance)
                )
                await session.execute(
                    delete(ServerInstance).where(ServerInstance.id == self.instance)
                )
