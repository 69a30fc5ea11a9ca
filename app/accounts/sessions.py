"""Ending an account's browser sessions: each account has a session generation, signed into
the cookies of the browsers logged in to it (app/http/identity.py). Raising it (a password
change or reset, closing the account) ends every session issued before: such a cookie is
read as no identity, so the browser becomes a new anonymous visitor.

Checking a cookie needs the account's generation: it is read from the database and kept
here for ``KEEP_S`` seconds, so that a logged-in browser's requests do not each cost a read.
This instance learns its own changes at once; another instance sharing the database within
``KEEP_S`` seconds.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Player

KEEP_S = 5.0
KEPT = 50_000  # accounts remembered at most (the least recently checked are forgotten)


class SessionGens:
    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], monotonic: Callable[[], float]
    ) -> None:
        self.sessions = sessions
        self.monotonic = monotonic
        # player id -> (generation, still open, read at)
        self._known: OrderedDict[str, tuple[int, bool, float]] = OrderedDict()

    async def current(self, player_id: str, gen: int) -> bool:
        """Whether a session of generation ``gen`` of this account is still on: the account
        exists, is not closed, and has not ended its sessions since."""
        now = self.monotonic()
        known = self._known.get(player_id)
        if known is None or now - known[2] >= KEEP_S:
            async with self.sessions() as session:
                row = (
                    await session.execute(
                        select(Player.session_gen, Player.closed_ms).where(
                            Player.id == player_id, Player.username.is_not(None)
                        )
                    )
                ).one_or_none()
            known = (-1, False, now) if row is None else (row[0], row[1] is None, now)
            self._remember(player_id, known)
        self._known.move_to_end(player_id)
        return known[1] and known[0] == gen

    def changed(self, player_id: str, gen: int, *, closed: bool = False) -> None:
        """This instance has just raised the account's generation (or closed it)."""
        self._remember(player_id, (gen, not closed, self.monotonic()))

    def _remember(self, player_id: str, known: tuple[int, bool, float]) -> None:
        self._known[player_id] = known
        while len(self._known) > KEPT:
            self._known.popitem(last=False)
