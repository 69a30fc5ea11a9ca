"""One game socket's messages in ply order (docs/protocol.md, "Order").

A socket's messages come from two tasks (its forwarding of the game's channel, and its
replies) and the channel's from every instance: a ``state`` published by another instance
can arrive after a newer ``move`` made here. What goes out is checked here, just before it is
handed to the socket (whose sends keep the order they are made in):

- a ``move`` at or below the ply of the last ``state`` or ``move`` sent is already in what
  the client has: dropped;
- a published ``state`` below it is stale, or a takeback's (the one change that lowers the
  ply): either way the caller sends the game read afresh instead;
- a ``state`` read afresh is sent if no ``state`` or ``move`` went out while it was read;
  otherwise it may be older than that one, and the game is read again;
- any other message says at least the ply of the last ``state`` or ``move`` sent.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from app.http.connections import Connection

READS = 3  # reads of a fresh state overtaken by a newer message, before giving up on it


class InOrder:
    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.ply: int | None = None  # of the last ``state`` or ``move`` sent
        self._sent = 0  # ``state`` and ``move`` messages sent

    def at_least(self, ply: int | None) -> int | None:
        """The ply a message other than ``state`` and ``move`` says."""
        if ply is None or self.ply is None:
            return ply if ply is not None else self.ply
        return max(ply, self.ply)

    async def _send(self, ply: int, text: str) -> None:
        self.ply = ply
        self._sent += 1
        await self.conn.send(text)

    async def move(self, ply: int, text: str) -> bool:
        """A published ``move``; False: dropped (the client has it already)."""
        if self.ply is not None and ply <= self.ply:
            return False
        await self._send(ply, text)
        return True

    async def published_state(self, ply: int, text: str) -> bool:
        """A published ``state``; False: not sent (older than the last sent: send the game
        read afresh instead, with ``fresh_state``)."""
        if self.ply is not None and ply < self.ply:
            return False
        await self._send(ply, text)
        return True

    async def fresh_state(self, read: Callable[[], Awaitable[tuple[int, str]]]) -> None:
        """A ``state`` of the game as ``read`` reads it (its ply, its text): sent once no
        ``state`` or ``move`` went out while it was read (else it is read again)."""
        for _ in range(READS):
            before = self._sent
            ply, text = await read()
            if self._sent == before:  # nothing went out meanwhile: this is the newest
                await self._send(ply, text)
                return
        if self.ply is None or ply >= self.ply:
            await self._send(ply, text)
