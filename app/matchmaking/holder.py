"""Holding a pool entry: what a lobby socket or a board seek does while its player waits.

The holder listens on the player's pool channel BEFORE the entry exists, so a pairing made
at once is not missed; when told (``PoolChanged``) or after lost messages (``RESYNC``) it
reads its entry again: paired (its game), gone (replaced by the player's search elsewhere,
or expired), or still waiting. Closing the holder takes the entry out of the pool (or, once
paired, deletes it: the game is made). An entry is renewed by its instance's heartbeat only
while a holder holds it (``PoolService.held``), from its join until its leave is done: an
entry whose holder is gone, however that happened, expires and is never paired.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from dataclasses import dataclass

from app.botapi.streams import next_message
from app.core.errors import ServiceError
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
        # The entry's id is chosen here, and held (renewed by the heartbeat) from before it
        # exists: whatever interrupts the opening, the entry it may have made is known.
        entry_id = secrets.token_urlsafe(9)
        service.held.add(entry_id)
        joining = asyncio.ensure_future(
            service.join(who, pool_id, rated=rated, rating_range=rating_range, entry_id=entry_id)
        )
        try:
            await asyncio.shield(joining)
        except ServiceError:  # refused (an unknown pool, say): no entry was made
            service.held.discard(entry_id)
            await stack.aclose()
            raise
        except BaseException:
            try:
                # Cancelled while joining: the join still runs to its end, and only then
                # can the entry it made be taken out again.
                await uncancelled(_undo(service, joining, entry_id))
            finally:
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
            await uncancelled(_undo(self.service, None, self.entry_id))
        finally:
            await stack.aclose()


async def _undo(service: PoolService, joining: asyncio.Future[str] | None, entry_id: str) -> None:
    """The entry out of the pool once its join (if still running) is over; no longer held."""
    try:
        if joining is not None:
            with contextlib.suppress(Exception):
                await joining
        await service.leave(entry_id)
    finally:
        service.held.discard(entry_id)
