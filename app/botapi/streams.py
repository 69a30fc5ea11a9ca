"""The bot API's NDJSON streams: the per-player event channels, who has an event stream
open, and the ending of every stream when the server shuts down. (The lines' JSON of games:
gamejson.py.)

Every committed change of a game is published on its hub channel ``game:{id}`` as a
``GameUpdate`` (app/realtime/messages.py); the game streams encode those as lichess lines.
Each player also has a channel ``player:{id}`` carrying the lines of its event stream
(``gameStart``, ``gameFinish``, ``challenge``...), published on every instance's hub.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import math
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import engine
from app.botapi.gamejson import event_game, load_players
from app.db.models import Challenge, GameRow
from app.domain.events import GameEnded, GameEvent, GameStarted
from app.games import GameService
from app.limits.api import too_many
from app.ratings.reading import game_changes
from app.realtime.hub import CLOSING, LocalHub, Subscription
from app.realtime.messages import PlayerLine, player_channel

log = logging.getLogger(__name__)

KEEPALIVE = b"\n"


def line(data: Mapping[str, Any]) -> bytes:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


# ---- event channels ------------------------------------------------------------------------
class GameEvents:
    """Tells both players' event streams ``gameStart`` and ``gameFinish`` (a subscriber of
    every committed change, app/games/subscribers.py).

    A game's lines go out in the order of its changes: each waits for the game's line before
    it (their reads take their own time: a game aborted at once must not reach a bot as
    ``gameFinish`` before its ``gameStart``)."""

    def __init__(self, service: GameService, hub: LocalHub) -> None:
        self.service = service
        self.hub = hub
        self._tasks: set[asyncio.Task[None]] = set()
        self._last: dict[str, asyncio.Task[None]] = {}  # per game: its latest line's task

    def changed(self, game: GameRow, events: Sequence[GameEvent]) -> None:
        for event in events:
            if isinstance(event, GameStarted):
                kind = "gameStart"
            elif isinstance(event, GameEnded) and game.started_ms is not None:
                kind = "gameFinish"  # (a game never started has nobody to tell)
            else:
                continue
            before = self._last.get(game.id)
            task = asyncio.get_running_loop().create_task(self._publish(game, kind, before))
            self._last[game.id] = task
            self._tasks.add(task)
            task.add_done_callback(functools.partial(self._done, game.id))

    def _done(self, game_id: str, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if self._last.get(game_id) is task:
            del self._last[game_id]

    async def _publish(self, game: GameRow, kind: str, before: asyncio.Task[None] | None) -> None:
        if before is not None:
            await asyncio.wait((before,))  # its outcome is its own (logged there)
        try:
            for player_id, data in await self.lines(game, kind):
                await self.hub.publish(player_channel(player_id), PlayerLine(player_id, data))
        except Exception:
            log.exception("could not announce %s of game %s", kind, game.id)

    async def lines(self, game: GameRow, kind: str) -> list[tuple[str, dict[str, Any]]]:
        """Each seated player's line: (player id, the line)."""
        players = await load_players(self.service.sessions, (game.first_id, game.second_id))
        source = await self.source(game.id)
        # A game's end is told after its consumption: a rated game's ratings changed then.
        changes = None
        if kind == "gameFinish":
            changes = (await game_changes(self.service.sessions, [game])).get(game.id)
        out = []
        for side, player_id in (("first", game.first_id), ("second", game.second_id)):
            if player_id is not None:
                shown = event_game(game, side, players, source, changes)
                out.append((player_id, {"type": kind, "game": shown}))
        return out

    async def source(self, game_id: str) -> str:
        """lichess's game source: ``friend`` for a challenge's game, else ``lobby``."""
        async with self.service.sessions() as session:
            found = await session.get(Challenge, game_id)
        return "lobby" if found is None else "friend"

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()


@dataclass(eq=False)
class EventStream:
    """One open ``/api/stream/event``: whose, and (for a bot) which games it accepts."""

    key: str  # one open stream per key: "token:<id>" (a browser's streams have unique keys)
    player_id: str
    name: str
    title: str | None
    games: tuple[str, ...] = field(default_factory=engine.game_ids)
    opened: float = 0.0  # the clock's monotonic seconds when registered (EventStreams.open)
    started: bool = False  # its lines have begun: it will clean up after itself


class EventStreams:
    """The event streams open on this instance (per instance, like presence)."""

    # A stream registered whose lines never began (the client left before the answer
    # started) is forgotten after this long, so that it never blocks its token.
    UNSTARTED_SECONDS = 10.0

    def __init__(self, clock: Callable[[], float]) -> None:
        """``clock``: monotonic seconds (the app's clock's ``monotonic``)."""
        self.clock = clock
        self._open: dict[str, EventStream] = {}

    def open(self, stream: EventStream, retry_seconds: float) -> None:
        held = self._open.get(stream.key)
        if held is not None and (
            held.started or self.clock() - held.opened < self.UNSTARTED_SECONDS
        ):
            raise too_many(
                "stream.event",
                "an event stream is already open for this token (one at a time)",
                max(1, math.ceil(retry_seconds)),
            )
        stream.opened = self.clock()
        self._open[stream.key] = stream

    def close(self, stream: EventStream) -> None:
        if self._open.get(stream.key) is stream:
            del self._open[stream.key]

    def bots(self) -> list[EventStream]:
        """One entry per bot account with an event stream open, in opening order."""
        seen: dict[str, EventStream] = {}
        for stream in self._open.values():
            if stream.title == "BOT":
                seen.setdefault(stream.player_id, stream)
        return list(seen.values())

    def online(self, player_id: str) -> bool:
        return any(s.player_id == player_id for s in self._open.values())


# The NDJSON streams' subscriptions (they never end by themselves), and the event loops whose
# server is shutting down: see end_streams.
_streaming: weakref.WeakSet[Subscription] = weakref.WeakSet()
_closing: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()


def end_streams() -> None:
    """The server is shutting down: every NDJSON stream of this event loop ends now, cleanly,
    instead of holding the shutdown up until uvicorn's grace runs out and cancels it."""
    _closing.add(asyncio.get_running_loop())
    for sub in tuple(_streaming):
        sub.interrupt()


def streaming(sub: Subscription) -> None:
    """Count ``sub`` among the streams that ``end_streams`` ends (``wait_message``'s callers
    register once; ``next_message`` registers on every call)."""
    _streaming.add(sub)


async def wait_message(sub: Subscription) -> object:
    """The subscription's next message, however long it takes (no timer to arm and cancel:
    the game socket sends no keep-alive of its own); ``CLOSING`` once the server is shutting
    down. ``sub`` must have been registered with ``streaming``."""
    if _closing and asyncio.get_running_loop() in _closing:
        return CLOSING
    return await sub.get()


async def next_message(sub: Subscription, seconds: float) -> object | None:
    """The subscription's next message, or None after ``seconds`` of silence (keep-alive).

    ``CLOSING`` once the server is shutting down: the stream must end then."""
    if asyncio.get_running_loop() in _closing:
        return CLOSING
    _streaming.add(sub)
    try:
        async with asyncio.timeout(seconds):  # no task per message, unlike wait_for
            return await sub.get()
    except TimeoutError:
        return None
