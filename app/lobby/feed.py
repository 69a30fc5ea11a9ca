"""The lobby feed: the lobby page's lists, sent as changes (docs/protocol.md, the lobby socket).

A change of a listed game (created, seated, started, ended) on any instance is published on
the hub's lobby channel as a ``LobbyChanged``. Each instance subscribes once (not once a
socket): it waits ``interval`` so that a burst becomes one update, reads the lists once,
compares them with what its lobby sockets last got (version ``v``) and sends the difference,
encoded once, to all of them. A socket that falls behind gets the whole lists instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

from app.core.time import Clock, Handle
from app.db.models import GameRow
from app.domain.events import (
    GameCreated,
    GameEnded,
    GameEvent,
    GameStarted,
    SeatTaken,
    SeekHidden,
    SeekShown,
)
from app.realtime.hub import CLOSING, LocalHub
from app.realtime.messages import LOBBY_CHANNEL, LobbyChanged

# What changes the lobby's lists: a game created, its seats, its start and its end, a seek
# hidden (its creator has no page open) and shown again.
LISTED = (GameCreated, SeatTaken, GameStarted, GameEnded, SeekHidden, SeekShown)
LIST_NAMES = ("open", "live")
# Updates a socket may have waiting (a slow reader); past that it gets the whole lists.
MAX_PENDING = 8

Entry = dict[str, Any]
Lists = dict[str, list[Entry]]
Send = Callable[[str], Awaitable[None]]

log = logging.getLogger(__name__)


def _text(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def diff_list(old: list[Entry], new: list[Entry]) -> dict[str, list[Any]] | None:
    """What turns ``old`` into ``new``: the ids removed, the entries updated (same id, other
    content), the entries added with their index in ``new`` (applied in that order, after the
    removals). None if the entries both hold are in another order: only a whole list says so.
    """
    before = {entry["id"]: entry for entry in old}
    after = {entry["id"] for entry in new}
    if [e["id"] for e in old if e["id"] in after] != [e["id"] for e in new if e["id"] in before]:
        return None
    return {
        "removed": [entry["id"] for entry in old if entry["id"] not in after],
        "added": [{"at": i, "game": e} for i, e in enumerate(new) if e["id"] not in before],
        "updated": [e for e in new if e["id"] in before and before[e["id"]] != e],
    }


def apply_diff(old: list[Entry], diff: dict[str, list[Any]]) -> list[Entry]:
    """``diff`` applied to ``old`` as a client does (static/js/lobby/lobbylists.js)."""
    removed = set(diff["removed"])
    updated = {entry["id"]: entry for entry in diff["updated"]}
    result = [updated.get(e["id"], e) for e in old if e["id"] not in removed]
    for added in diff["added"]:
        result.insert(added["at"], added["game"])
    return result


class LobbyWatcher:
    """One lobby socket: its updates waiting to be sent. A task sends them only while there
    are some (an idle socket costs no task of its own besides its reader)."""

    __slots__ = ("_behind", "_feed", "_gone", "_pending", "_send", "_task")

    def __init__(self, feed: LobbyFeed, send: Send) -> None:
        self._feed = feed
        self._send = send
        self._pending: list[str] = []
        self._behind = False  # too many waiting: the whole lists replace them
        self._gone = False
        self._task: asyncio.Task[None] | None = None

    def push(self, text: str) -> None:
        if self._gone:
            return
        if self._behind or len(self._pending) >= MAX_PENDING:
            self._pending.clear()
            self._behind = True
        else:
            self._pending.append(text)
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        try:
            while True:
                if self._behind:
                    self._behind = False
                    text = self._feed.full_text()
                elif self._pending:
                    text = self._pending.pop(0)
                else:
                    return
                await self._send(text)
        except Exception:  # the client left: its reader ends the socket
            self._gone = True
            self._pending.clear()
        finally:
            self._task = None

    def stop(self) -> None:
        self._gone = True
        if self._task is not None:
            self._task.cancel()


class LobbyFeed:
    def __init__(
        self, read: Callable[[], Awaitable[Lists]], hub: LocalHub, interval: float, clock: Clock
    ) -> None:
        """``read``: the lists as they are now (the game reads' ``lobby``)."""
        self._read = read
        self.hub = hub
        self.interval = interval
        self.clock = clock
        self.version = 0
        self._lists: Lists | None = None
        self._full: str | None = None  # the whole lists as sent, made once a version
        self.watchers: set[LobbyWatcher] = set()
        self._lock = asyncio.Lock()
        self._runner: asyncio.Task[None] | None = None
        self._due: Handle | None = None  # the read a change asked for, not yet made
        self._queued = False  # without an interval: a read started and not yet begun
        self._publishing: set[asyncio.Task[None]] = set()
        self.refreshes = 0  # lists read (for tests and benches)
        self._pools: str | None = None  # quick pairing's last counts, as sent

    # ---- the events of this instance -----------------------------------------------------
    def changed(self, game: GameRow, events: Sequence[GameEvent]) -> None:
        """A subscriber of every committed change here (app/games/subscribers.py)."""
        if not game.public or not any(isinstance(e, LISTED) for e in events):
            return  # moves, offers and takebacks change neither list; private games are not in it
        task = asyncio.get_running_loop().create_task(
            self.hub.publish(LOBBY_CHANNEL, LobbyChanged(game.id))
        )
        self._publishing.add(task)
        task.add_done_callback(self._publishing.discard)

    def pools_changed(self, waiting: dict[str, int]) -> None:
        """Quick pairing's waiting counts changed (app/matchmaking): every lobby socket here
        hears them at once, and a socket that opens later gets them after the lists."""
        self._pools = _text({"type": "pools", "waiting": waiting})
        for watcher in tuple(self.watchers):
            watcher.push(self._pools)

    # ---- every instance's changes --------------------------------------------------------
    async def start(self) -> None:
        ready = asyncio.Event()
        self._runner = asyncio.get_running_loop().create_task(self._run(ready))
        await ready.wait()

    async def stop(self) -> None:
        if self._due is not None:
            self._due.cancel()
            self._due = None
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._runner
            self._runner = None
        # Reads and publications under way end on their own (a read cancelled inside the
        # database driver would answer into a closed loop).
        with contextlib.suppress(Exception):
            await asyncio.gather(*self._publishing, return_exceptions=True)
        for watcher in tuple(self.watchers):
            watcher.stop()

    async def _run(self, ready: asyncio.Event) -> None:
        async with self.hub.subscribe(LOBBY_CHANNEL) as sub:
            ready.set()
            while await sub.get() is not CLOSING:
                # LobbyChanged, or RESYNC (changes were lost): either way, read the lists once
                # the interval has passed; what comes meanwhile is in that same read. The read
                # is a task of its own that a timer starts, not this loop asleep: the loop only
                # ever waits for the hub.
                if self.interval <= 0:
                    if not self._queued:  # a read not yet begun covers this change too
                        self._queued = True
                        self._start_refresh()
                elif self._due is None:
                    due = self.clock.now_ms() + math.ceil(self.interval * 1000)
                    self._due = self.clock.call_at(due, self._start_refresh)

    def _start_refresh(self) -> None:
        self._due = None  # a change from now on asks for another read
        task = asyncio.get_running_loop().create_task(self._refresh_logged())
        self._publishing.add(task)
        task.add_done_callback(self._publishing.discard)

    async def _refresh_logged(self) -> None:
        self._queued = False
        try:
            await self.refresh()
        except Exception:
            log.exception("could not read the lobby's lists")

    async def refresh(self) -> None:
        """Read the lists; send what changed to every lobby socket of this instance."""
        async with self._lock:
            new = await self._read()
            self.refreshes += 1
            old, self._lists = self._lists, new
            if old is None:
                self._next_version()
                return
            parts = {name: diff_list(old[name], new[name]) for name in LIST_NAMES}
            if all(part is not None and not any(part.values()) for part in parts.values()):
                return  # nothing a socket shows changed
            version = self._next_version()
            if any(part is None for part in parts.values()):
                text = self.full_text()
            else:
                text = _text({"type": "lobbyDiff", "v": version, **parts})
            for watcher in tuple(self.watchers):
                watcher.push(text)

    def _next_version(self) -> int:
        self.version += 1
        self._full = None
        return self.version

    def full_text(self) -> str:
        """The whole lists, as the first message of a socket."""
        if self._full is None:
            assert self._lists is not None
            self._full = _text({"type": "lobby", "v": self.version, **self._lists})
        return self._full

    @contextlib.asynccontextmanager
    async def watch(self, send: Send) -> AsyncIterator[LobbyWatcher]:
        """A lobby socket for the block: the whole lists first, then every change."""
        if self._lists is None:
            async with self._lock:
                pass  # a refresh under way ends first
            if self._lists is None:
                await self.refresh()
        watcher = LobbyWatcher(self, send)
        self.watchers.add(watcher)
        watcher.push(self.full_text())
        if self._pools is not None:
            watcher.push(self._pools)
        try:
            yield watcher
        finally:
            self.watchers.discard(watcher)
            watcher.stop()
