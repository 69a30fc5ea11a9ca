"""The kept chat lines a socket is sent when it connects, read once for a crowd.

Every socket of a game gets its chat's kept lines after its first state (app/chat/protocol.py).
Read from the database per socket, 2,000 spectators joining one game made 2,000 reads (in
bench/crowd.py, the joins' server CPU went from 2.3 s to 6.7 s). Here a read is kept per
game and rooms, and shared, while no line of that game has been told on this instance
since it began:

- the cache listens to the game's hub channel from before its read begins, and every
  instance's hub delivers every message of the channel here (app/realtime/hub.py), so a
  ``ChatPosted``, a ``ChatHidden`` (a moderator hid a line) or a ``RESYNC`` (messages
  lost) makes what it kept stale;
- a socket subscribes to its game before it asks: a line told here after that reaches it
  live, and a line told before it made the kept read stale, so the socket gets a new read.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence

from app.db.models import ChatLine
from app.domain.enums import ChatRoom
from app.domain.events import ChatHidden, ChatPosted
from app.realtime.hub import LocalHub, Marker
from app.realtime.messages import game_channel

# Games whose lines are kept (the least recently asked leave first): a game without lines
# costs ~1 KB here; fewer games than a server's live ones would read on every connect.
GAMES_KEPT = 4096

Rooms = tuple[ChatRoom, ...]
Read = Callable[[str, Rooms], Awaitable[list[ChatLine]]]


class _Kept:
    """One game's kept reads: a receiver of its channel."""

    __slots__ = ("reads", "told")

    def __init__(self) -> None:
        self.told = 0  # lines (or losses) told since listening began
        self.reads: dict[Rooms, tuple[int, asyncio.Task[list[ChatLine]]]] = {}

    def deliver(self, message: object) -> None:
        # a line told or hidden, or lost messages (RESYNC)
        if isinstance(message, ChatPosted | ChatHidden | Marker):
            self.told += 1


class KeptLines:
    def __init__(self, hub: LocalHub, read: Read) -> None:
        self.hub = hub
        self.read = read
        self._games: OrderedDict[str, _Kept] = OrderedDict()

    async def recent(self, game_id: str, rooms: Sequence[ChatRoom]) -> list[ChatLine]:
        """``read(game_id, rooms)``: a read kept or under way if nothing was told since it
        began, else a new one."""
        key = tuple(rooms)
        kept = self._games.get(game_id)
        if kept is None:
            kept = self._games[game_id] = _Kept()
            self.hub.listen(game_channel(game_id), kept)
            while len(self._games) > GAMES_KEPT:
                gone, left = self._games.popitem(last=False)
                self.hub.unlisten(game_channel(gone), left)
        self._games.move_to_end(game_id)
        found = kept.reads.get(key)
        if found is None or found[0] != kept.told or _failed(found[1]):
            task = asyncio.ensure_future(self.read(game_id, key))
            task.add_done_callback(_seen)
            kept.reads[key] = found = (kept.told, task)
        return list(await asyncio.shield(found[1]))  # a caller leaving ends no one's read


def _failed(task: asyncio.Task[list[ChatLine]]) -> bool:
    return task.done() and (task.cancelled() or task.exception() is not None)


def _seen(task: asyncio.Task[list[ChatLine]]) -> None:
    if not task.cancelled():
        task.exception()  # each caller got it; a read that failed is read again next time
