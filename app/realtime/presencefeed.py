"""Presence told to the sockets, coalesced, and carried across instances.

Every live view of a game joins and leaves here (app/games/viewer.py). A player's arrival or
departure is told at once; spectators coming and going only mark the game, and its sockets get
one ``PresenceChanged`` at most every ``flush_ms`` (lichess's crowd does the same), and for a
crowd of more than ``CROWD_SENDS_PER_S`` sockets here, at most that many sends a second: a
spectator joining costs a constant number of messages, not one to everyone already there.
The joiner gets its own presence line from the viewer.

With several instances on one PostgreSQL, each reports its own connections on the presence
channel (``PresenceReport``): the changes as they are told here, and everything it remembers
every ``beat_ms``; a report not renewed for three beats expires (an instance killed stops
beating). An instance that starts, or lost messages, says ``hello``: the others report at once.
With the in-process hub (one instance) nothing is sent anywhere.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Coroutine
from typing import Any

from app.core.time import Clock, every
from app.realtime.hub import RESYNC, LocalHub
from app.realtime.messages import PRESENCE_CHANNEL, game_channel
from app.realtime.presence import GamePresence, Presence, PresenceChanged, PresenceReport

log = logging.getLogger(__name__)

REPORT_CHUNK = 40  # games per report: well under PostgreSQL's NOTIFY payload limit
MISSED_BEATS = 3  # a report not renewed for this many beats has expired
CROWD_SENDS_PER_S = 500  # past this many spectators here, a game's crowd is told less often


class PresenceFeed:
    def __init__(
        self,
        presence: Presence,
        hub: LocalHub,
        clock: Clock,
        *,
        flush_ms: int = 1000,
        beat_ms: int = 5000,
        instance: str | None = None,
    ) -> None:
        self.presence = presence
        self.hub = hub
        self.clock = clock
        self.flush_ms = flush_ms
        self.beat_ms = beat_ms
        self.instance = instance or secrets.token_hex(6)
        self._dirty: dict[str, bool] = {}  # game -> changed here (to report to the others)
        self._told: dict[str, PresenceChanged] = {}  # game -> last told to its sockets here
        self._flush: asyncio.TimerHandle | None = None
        self._flush_at = 0.0
        self._last_flush = float("-inf")
        self._tasks: set[asyncio.Task[None]] = set()
        self._running: list[asyncio.Task[None]] = []

    @property
    def shared(self) -> bool:
        """Other instances may exist: reports are sent and read."""
        return self.hub.shared

    async def start(self) -> None:
        if not self.shared:
            return
        ready = asyncio.Event()
        loop = asyncio.get_running_loop()
        self._running = [
            loop.create_task(self._listen(ready)),
            loop.create_task(
                every(self.clock, self.beat_ms / 1000, self.beat, log, "presence heartbeat failed")
            ),
        ]
        await ready.wait()
        await self.hub.publish(PRESENCE_CHANNEL, PresenceReport(self.instance, (), hello=True))

    async def stop(self) -> None:
        """Stop beating; the others hear this instance's last word (its sockets closed by
        now: nobody here), not three missed beats later."""
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
        for task in self._running:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._running = []
        if self.shared:
            self.flush()
            self.announce()
        for task in tuple(self._tasks):
            with contextlib.suppress(Exception):
                await task

    # ---- this instance's views -----------------------------------------------------------
    def join(self, game_id: str, side: str | None) -> None:
        self.presence.join(game_id, side)
        self._changed(game_id, urgent=side is not None)

    def leave(self, game_id: str, side: str | None) -> None:
        self.presence.leave(game_id, side)
        self._changed(game_id, urgent=side is not None)

    def seated(self, game_id: str, side: str) -> None:
        """A watcher got a seat: one of the spectators is now that player."""
        self.presence.leave(game_id, None)
        self.presence.join(game_id, side)
        self._changed(game_id, urgent=True)

    def _changed(self, game_id: str, *, urgent: bool, here: bool = True) -> None:
        self._dirty[game_id] = self._dirty.get(game_id, False) or here
        # A crowd's updates cost a send per socket: a large one is told less often, so that
        # telling it costs at most CROWD_SENDS_PER_S sends a second.
        crowd = self.presence.spectators_here(game_id)
        self._schedule(urgent, self.flush_ms * max(1.0, crowd / CROWD_SENDS_PER_S))

    def _schedule(self, urgent: bool, interval_ms: float = 0.0) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        at = now if urgent else max(now, self._last_flush + interval_ms / 1000)
        if self._flush is not None:
            if self._flush_at <= at:
                return
            self._flush.cancel()
        self._flush = loop.call_at(at, self.flush)
        self._flush_at = at

    def flush(self) -> None:
        """Tell what changed since the last flush (the timer calls it)."""
        self._flush = None
        self._last_flush = asyncio.get_running_loop().time()
        dirty, self._dirty = self._dirty, {}
        reports: list[GamePresence] = []
        for game_id, here in dirty.items():
            message = self.presence.message(game_id)
            if self._told.get(game_id) != message:
                self.hub.deliver(game_channel(game_id), message)
                self._told[game_id] = message
            if here:
                reports.append(self.presence.report(game_id))
            if not self.presence.connected(game_id):
                self._told.pop(game_id, None)  # nobody here to tell
                self.presence.forget_if_idle(game_id)
        if reports and self.shared:
            self._send(reports)

    # ---- across instances ----------------------------------------------------------------
    def _send(self, games: list[GamePresence], hello: bool = False) -> None:
        for i in range(0, max(len(games), 1), REPORT_CHUNK):
            chunk = tuple(games[i : i + REPORT_CHUNK])
            report = PresenceReport(self.instance, chunk, hello=hello)
            self._detach(self.hub.publish(PRESENCE_CHANNEL, report))

    def _detach(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def announce(self) -> None:
        """Report everything this instance remembers (a heartbeat)."""
        games = [self.presence.report(g) for g in self.presence.local_games()]
        if games:
            self._send(games)

    async def _listen(self, ready: asyncio.Event) -> None:
        async with self.hub.subscribe(PRESENCE_CHANNEL) as sub:
            ready.set()
            while True:
                message = await sub.get()
                if message is RESYNC:
                    # Reports were lost: ask everyone again (and report, for them).
                    self._send([], hello=True)
                    self.announce()
                elif isinstance(message, PresenceReport):
                    self.received(message)

    def received(self, report: PresenceReport) -> None:
        if report.instance == self.instance:
            return
        keep_ms = self.beat_ms * MISSED_BEATS + self.beat_ms // 2
        self.presence.receive(report.instance, report.games, keep_ms)
        for entry in report.games:
            self._changed(entry.game_id, urgent=True, here=False)
        if report.hello:
            self.announce()

    async def beat(self) -> None:
        """Every ``beat_ms`` of the clock: report everything here, and forget the others'
        reports not renewed in time."""
        self.announce()
        for game_id in self.presence.expire():
            self._changed(game_id, urgent=True, here=False)
