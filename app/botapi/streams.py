"""The bot API's NDJSON streams: lichess's shapes for our games, the per-player event
channels, and who has an event stream open.

Sides: the API says ``white`` for our ``first`` player and ``black`` for ``second``.
Every committed change of a game is published on its hub channel ``game:{id}`` as a
``GameUpdate`` (app/realtime/messages.py); the game streams encode those as lichess lines.
Each player also has a channel ``player:{id}`` carrying the lines of its event stream
(``gameStart``, ``gameFinish``, ``challenge``...), published on every instance's hub.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import time
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

import engine
from app.db.models import Challenge, Game, Player
from app.domain.enums import ENDED, GameStatus, Side
from app.domain.events import GameEnded, GameEvent, GameStarted
from app.games import GameService, clock, has_moved, initial_text
from app.games.timecontrol import DAY_MS, speed_of
from app.limits.api import too_many
from app.ratings.reading import Change, game_changes, seat_rating
from app.realtime.hub import CLOSING, LocalHub, Subscription
from app.realtime.messages import PlayerLine, player_channel

log = logging.getLogger(__name__)

COLOR = {"first": "white", "second": "black"}
SIDE = {"white": "first", "black": "second"}
# The clock of a game without one, in milliseconds: lichess sends int32's maximum.
UNLIMITED_MS = 2_147_483_647
# lichess's numeric status ids, for clients that read them.
STATUS_IDS = {
    "created": 10,
    "started": 20,
    "aborted": 25,
    "mate": 30,
    "resign": 31,
    "stalemate": 32,
    "timeout": 33,
    "draw": 34,
    "outoftime": 35,
    "noStart": 37,
    "variantEnd": 60,
}
KEEPALIVE = b"\n"


def line(data: Mapping[str, Any]) -> bytes:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


def variant_json(variant: str) -> dict[str, str]:
    return {"key": variant, "name": engine.get_game(variant).name}


@dataclass(frozen=True)
class PlayerInfo:
    id: str
    name: str
    title: str | None
    username: str | None

    def json(self) -> dict[str, Any]:
        """A player as lichess shows one in a game: id, name and title (None: no title)."""
        return {"id": self.id, "name": self.name, "title": self.title}


async def load_players(
    sessions: async_sessionmaker[AsyncSession], ids: Iterable[str | None]
) -> dict[str, PlayerInfo]:
    wanted = {i for i in ids if i}
    if not wanted:
        return {}
    async with sessions() as session:
        rows = (await session.execute(select(Player).where(Player.id.in_(wanted)))).scalars()
        return {p.id: PlayerInfo(p.id, p.name, p.title, p.username) for p in rows}


def seat_json(players: Mapping[str, PlayerInfo], player_id: str | None) -> dict[str, Any] | None:
    if player_id is None:
        return None
    info = players.get(player_id)
    return (info or PlayerInfo(player_id, "?", None, None)).json()


def rated_seat_json(
    game: Game, side: Side, players: Mapping[str, PlayerInfo]
) -> dict[str, Any] | None:
    """A seat as lichess's gameFull shows it: with ``rating`` (as of the game's start) for
    an account, and ``"provisional": true`` only while provisional."""
    data = seat_json(players, game.first_id if side == Side.FIRST else game.second_id)
    rating = seat_rating(game, side)
    if data is not None and rating is not None:
        data["rating"] = rating[0]
        if rating[1]:
            data["provisional"] = True
    return data


# ---- game lines ----------------------------------------------------------------------------
def game_state(live: Mapping[str, Any], moves: Sequence[str]) -> dict[str, Any]:
    """A ``gameState`` line from the live part of a game's state (a ``move`` message of the
    browser protocol, or a full state's ``game``)."""
    times = live.get("clock")
    result = live.get("result")
    offer = live.get("drawOffer")
    takeback = live.get("takebackOffer")
    wtime, btime = _times(live)
    data: dict[str, Any] = {
        "type": "gameState",
        "moves": " ".join(moves),
        "wtime": wtime,
        "btime": btime,
        "winc": (times["increment"] or 0) if times else 0,
        "binc": (times["increment"] or 0) if times else 0,
        "status": live["status"],
        "wdraw": offer == "first",
        "bdraw": offer == "second",
        "wtakeback": takeback == "first",
        "btakeback": takeback == "second",
        "fen": live["fen"],
        "legalMoves": list(live["legalMoves"]),
        "turn": COLOR[live["turn"]],
        "check": bool(live.get("check")),
        "ply": live["ply"],
    }
    if times and times.get("byoyomi") is not None:
        data["byoyomi"] = times["byoyomi"]
        data["wperiods"] = times["firstPeriods"]
        data["bperiods"] = times["secondPeriods"]
    if result is not None:
        if result.get("winner"):
            data["winner"] = COLOR[result["winner"]]
        data["reason"] = result.get("reason")
    return data


def _times(live: Mapping[str, Any]) -> tuple[int, int]:
    """``wtime`` and ``btime``: main times; in a correspondence game (as lichess), the
    side to move's time until its deadline and the other's whole days; else unlimited."""
    times = live.get("clock")
    if times:
        return times["first"], times["second"]
    days, deadline = live.get("daysPerTurn"), live.get("deadline")
    if days is None:
        return UNLIMITED_MS, UNLIMITED_MS
    whole = min(days * DAY_MS, UNLIMITED_MS)
    if deadline is None:
        return whole, whole
    left = min(max(0, deadline - live["serverTime"]), UNLIMITED_MS)
    return (left, whole) if live["turn"] == "first" else (whole, left)


def game_full(
    game: Game,
    live: Mapping[str, Any],
    moves: Sequence[str],
    players: Mapping[str, PlayerInfo],
    days: int | None = None,
) -> dict[str, Any]:
    """``days``: lichess's ``daysPerTurn``: the game's days per move (or, for a game made
    before correspondence clocks, the days its challenge asked)."""
    rules = engine.get_game(game.variant, **game.rules)
    data = {
        "type": "gameFull",
        "id": game.id,
        "variant": variant_json(game.variant),
        "clock": clock_json(game),
        "speed": speed_of_game(game),
        "perf": {"name": rules.name},
        "rated": bool(game.rated),
        "createdAt": game.created_ms,
        "white": rated_seat_json(game, Side.FIRST, players),
        "black": rated_seat_json(game, Side.SECOND, players),
        "initialFen": initial_text(game),
        "state": game_state(live, moves),
        "rules": dict(game.rules),
    }
    if days is not None:
        data["daysPerTurn"] = days
    return data


def speed_of_game(game: Game) -> str:
    return speed_of(game.clock_initial_ms, game.clock_increment_ms, game.clock_byoyomi_ms)


def clock_json(game: Game) -> dict[str, int] | None:
    """gameFull's ``clock`` (ms), with byo-yomi's period and periods when it has them."""
    if game.clock_initial_ms is None:
        return None
    data = {"initial": game.clock_initial_ms, "increment": game.clock_increment_ms or 0}
    if game.clock_byoyomi_ms is not None and game.clock_periods is not None:
        data["byoyomi"] = game.clock_byoyomi_ms
        data["periods"] = game.clock_periods
    return data


def event_game(
    game: Game,
    side: str,
    players: Mapping[str, PlayerInfo],
    source: str,
    changes: Mapping[Side, Change] | None = None,
    now: int | None = None,
) -> dict[str, Any]:
    """The ``game`` of a ``gameStart`` / ``gameFinish`` event, as seen by ``side``, at
    ``now`` (None: when it last changed); ``changes``: what the game's end did to the
    ratings (lichess's ``ratingDiff``). ``secondsLeft``: all the time ``side`` may still
    use (main time and byo-yomi periods, or until its correspondence deadline)."""
    opponent_id = game.second_id if side == Side.FIRST else game.first_id
    opponent = players.get(opponent_id or "")
    opponent_json: dict[str, Any] = {
        "id": opponent_id,
        "username": opponent.name if opponent else "?",
        "title": opponent.title if opponent else None,
    }
    opponent_side = Side(side).other
    rating = seat_rating(game, opponent_side)
    if rating is not None:
        opponent_json["rating"] = rating[0]
    if changes:
        opponent_json["ratingDiff"] = changes[opponent_side].diff
    moves = game.moves.split()
    at = now if now is not None else game.finished_ms or game.turn_started_ms or game.created_ms
    left = clock.total_left(game, side, at)
    data: dict[str, Any] = {
        "id": game.id,
        "gameId": game.id,
        "fullId": game.id,
        "color": COLOR[side],
        "fen": game.fen,
        "hasMoved": has_moved(game, side),
        "isMyTurn": game.status == GameStatus.STARTED and clock.side_to_move(game) == side,
        "lastMove": moves[-1] if moves else "",
        "opponent": opponent_json,
        "perf": speed_of_game(game),
        "rated": bool(game.rated),
        "secondsLeft": None if left is None else left // 1000,
        "source": source,
        "status": {"id": STATUS_IDS.get(game.status, 0), "name": game.status},
        "speed": speed_of_game(game),
        "variant": variant_json(game.variant),
        "compat": {"bot": True, "board": True},
        "rules": dict(game.rules),
    }
    if game.status in ENDED:
        if game.winner:
            data["winner"] = COLOR[game.winner]
        data["reason"] = game.reason
    if changes:
        data["ratingDiff"] = changes[Side(side)].diff
    return data


# ---- event channels ------------------------------------------------------------------------
class GameEvents:
    """Tells both players' event streams ``gameStart`` and ``gameFinish`` (a GameService
    listener: it hears every committed change of any game with its events)."""

    def __init__(self, service: GameService, hub: LocalHub) -> None:
        self.service = service
        self.hub = hub
        self._tasks: set[asyncio.Task[None]] = set()
        service.listeners.append(self.changed)

    def changed(self, game: Game, events: Sequence[GameEvent]) -> None:
        for event in events:
            if isinstance(event, GameStarted):
                kind = "gameStart"
            elif isinstance(event, GameEnded) and game.started_ms is not None:
                kind = "gameFinish"  # (a game never started has nobody to tell)
            else:
                continue
            task = asyncio.get_running_loop().create_task(self._publish(game, kind))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _publish(self, game: Game, kind: str) -> None:
        try:
            for player_id, data in await self.lines(game, kind):
                await self.hub.publish(player_channel(player_id), PlayerLine(player_id, data))
        except Exception:
            log.exception("could not announce %s of game %s", kind, game.id)

    async def lines(self, game: Game, kind: str) -> list[tuple[str, dict[str, Any]]]:
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
    games: tuple[str, ...] = field(default=engine.GAMES)
    opened: float = 0.0  # the clock's monotonic seconds when registered (EventStreams.open)
    started: bool = False  # its lines have begun: it will clean up after itself


class EventStreams:
    """The event streams open on this instance (per instance, like presence)."""

    # A stream registered whose lines never began (the client left before the answer
    # started) is forgotten after this long, so that it never blocks its token.
    UNSTARTED_SECONDS = 10.0

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
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
