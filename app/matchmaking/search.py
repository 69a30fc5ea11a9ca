"""Quick pairing through the lobby socket (docs/protocol.md, "Quick pairing"): a ``pool``
message puts the socket's player in a pool, ``unpool`` (or the socket closing) takes them
out. The socket holds the entry (app/matchmaking/holder.py) and says ``paired`` with the
game once a round made it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from app.core.errors import ServiceError
from app.domain.players import Identity
from app.http.connections import json_message
from app.http.deps import Services
from app.matchmaking.holder import Holder

log = logging.getLogger(__name__)
POOL_TYPES = ("pool", "unpool")

Send = Callable[[str], Awaitable[None]]


def _text(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"))


def _error(exc: ServiceError) -> str:
    return _text({"type": "error", "code": exc.code, "error": exc.message})


class PoolSearch:
    """One lobby socket's search: at most one pool at a time."""

    def __init__(self, services: Services, send: Send, who: Identity | None, address: str):
        self.services = services
        self.send = send
        self.who = who
        self.address = address
        self._task: asyncio.Task[None] | None = None
        # The search's entry: closed by whoever takes it from here first, the waiting task
        # once its outcome is told, or ``close`` (even if that task never got to run).
        self._holder: Holder | None = None

    async def handle(self, data: dict[str, Any]) -> None:
        """A client message of one of ``POOL_TYPES``."""
        kind = data.get("type")
        try:
            subject = f"player:{self.who.id}" if self.who is not None else f"socket:{id(self)}"
            self.services.limits.hit("socket", subject, self.address)
            if kind == "unpool":
                await self.close()
                return
            pool = data.get("pool")
            if not isinstance(pool, str):
                raise ServiceError("request.invalid", "a pool message needs 'pool': a pool id")
            if self.who is None:
                raise ServiceError("pool.no_identity", "load the page first: it gives you a name")
            await self.close()  # one search per socket: the new pool replaces the old
            self._holder = holder = await Holder.open(self.services.pools, self.who, pool)
        except ServiceError as exc:
            await self.send(_error(exc))
            return
        self._task = asyncio.get_running_loop().create_task(self._wait(holder, pool))

    async def _wait(self, holder: Holder, pool: str) -> None:
        try:
            await self.send(_text({"type": "pooling", "pool": pool}))
            while True:
                outcome = await holder.next()
                if outcome is None or outcome.waiting:
                    continue
                game = outcome.game_id
                if game is not None:
                    await self.send(_text({"type": "paired", "pool": pool, "game": game}))
                else:
                    await self.send(_text({"type": "unpooled", "pool": pool}))
                return
        except Exception:  # the socket is gone (a send failed), or the database
            log.debug("a pool search ended", exc_info=True)
        finally:
            if self._holder is holder:
                self._holder = None
                await holder.close()

    async def close(self) -> None:
        """Out of the pool (nothing if not searching): the entry is gone when this returns.
        A task cancelled before its first step never runs its ``finally``, so the holder is
        closed here, not left to the task."""
        task, self._task = self._task, None
        holder, self._holder = self._holder, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if holder is not None:
            await holder.close()


def pool_message(raw: str | None, limit: int) -> dict[str, Any] | None:
    """A lobby socket's text frame read as a pool message; None for anything else (the lobby
    socket ignores what it does not know)."""
    try:
        data = json_message(raw, limit)
    except ServiceError:
        return None
    return data if data.get("type") in POOL_TYPES else None
