"""Holding a pool entry: what a lobby socket or a board seek does while its player waits.

The holder listens on the player's pool channel BEFORE the entry exists, so a pairing made
at once is not missed; when told (``PoolChanged``) or after lost messages (``RESYNC``) it
reads its entry again: paired (its game), gone (replaced by the player's search elsewhere,
or expired), or still waiting. Closing the holder takes the entry out of the pool (or, once
paired, deletes it: the game is made).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from app.botapi.streams import next_message
from app.db.engine import uncancelled
from app.domain.players import Identity
from app.matchmaking.service import PoolService
from app.realtime.hub import CLOSING, Subscription
from app.realtime.messages import pool_channel


@dataclass(frozen=True, slots=True)
class Outcome:
    game_id: str | None = None  # paired: the game made
    gone: bool = False  # the entry is gone without a game (or the server is stopping)

    @property
    def waiting(self) -> bool:
        return self.game_id is None and not self.gone


class Holder:
    """One pool entry held on this instance (``open``, then ``close`` once, whatever
    happens)."""

    def __init__(self, service: PoolService, entry_id: str, sub: Subscription) -> None:
        self.service = service
        self.entry_id = entry_id
        self.sub = sub
        self._stack: contextlib.AsyncExitStack | None = None

    @classmethod
    async def open(
        cls,
        service: PoolService,
        who: Identity,
        pool_id: str,
        *,
        rated: bool | None = None,
        rating_range: tuple[int, int] | None = None,
    ) -> Holder:
        stack = contextlib.AsyncExitStack()
        sub = await stack.enter_async_context(service.hub.subscribe(pool_channel(who.id)))
        try:
            entry_id = await service.join(who, pool_id, rated=rated, rating_range=rating_range)
        except BaseException:
            await stack.aclose()
            raise
        holder = cls(service, entry_id, sub)
        holder._stack = stack
        return holder

    async def read(self) -> Outcome:
        entry = await self.service.entry(self.entry_id)
        if entry is None:
            return Outcome(gone=True)
        return Outcome(game_id=entry.game_id)

    async def next(self, seconds: float | None = None) -> Outcome | None:
        """The entry after its next change (None: ``seconds`` went by with no news)."""
        if seconds is None:
            message: object = await self.sub.get()
        else:
            message = await next_message(self.sub, seconds)
            if message is None:
                return None
        if message is CLOSING:
            return Outcome(gone=True)
        return await self.read()  # PoolChanged, or RESYNC: messages were lost

    async def close(self) -> None:
        stack, self._stack = self._stack, None
        if stack is None:
            return
        try:
            # Runs to its end even if the closing request or socket task is being cancelled.
            await uncancelled(self.service.leave(self.entry_id))
        finally:
            await stack.aclose()
