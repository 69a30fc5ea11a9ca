"""The game lifecycle: create, join, cancel, the move pipeline, draws, resign, abort, claims,
and the server's own time-outs.

Every change runs through ``_change`` (../shared/DESIGN.md, the move pipeline):
load the game (the row this process last read or wrote, else the database's) -> the change
checks who may do what and applies it (the engine validates moves) -> persist with one
conditional UPDATE that commits by itself and matches no row if the stored game is no longer
the one read (rows.py: then reload and run the change again) -> publish the event. A
duplicate or late submission can never apply twice: it finds the ply moved on and is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

import engine
from engine import EngineError

from ..core.config import Settings
from ..models import Game, Player
from ..realtime.hub import LocalHub
from . import clock
from .errors import ServiceError
from .rows import ConnectionLost, GameRows, RowCache, Stored, rows_for, snapshot, to_game

log = logging.getLogger(__name__)

SIDES = ("first", "second")
ENDED = ("aborted", "noStart", "mate", "resign", "outoftime", "timeout", "draw", "variantEnd")
MAX_CLOCK_MINUTES = 180
MIN_CLOCK_SECONDS = 1  # the shortest clock, in every API
MAX_INCREMENT_SECONDS = 180


def clock_ms_of(minutes: float) -> int | None:
    """A clock's initial time in milliseconds, rounded; None if not 1 s to the maximum (or
    not a number: NaN and infinities get through Python's JSON reader)."""
    if not (math.isfinite(minutes) and 0 < minutes <= MAX_CLOCK_MINUTES):
        return None
    initial = round(minutes * 60_000)
    return initial if initial >= MIN_CLOCK_SECONDS * 1000 else None


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def other(side: str) -> str:
    return "second" if side == "first" else "first"


def game_channel(game_id: str) -> str:
    return f"game:{game_id}"


LOBBY_CHANNEL = "lobby"


def too_many_open(whose: str, cap: int) -> ServiceError:
    return ServiceError(
        "game.too_many_open",
        f"{whose} for an opponent (at most {cap}): cancel one, or wait until one is joined",
        409,
    )


class _Conflict(Exception):
    """A save found the stored game changed since it was read."""


@dataclass(frozen=True)
class Identity:
    """Who is asking: an anonymous visitor (cookie) for now."""

    id: str
    name: str


@dataclass(frozen=True)
class NewGame:
    variant: str
    rules: dict[str, str]
    minutes: float | None  # None: no clock
    increment: int
    color: str  # first | second | random
    public: bool
    initial_fen: str | None = None  # a checked position string (None: the game's start)


@dataclass
class Outcome:
    """What a change did. ``message``: what to publish (None: the full state; nothing if
    ``quiet``); ``error``: raised after the commit (the change itself is kept)."""

    message: dict[str, Any] | None = None
    error: ServiceError | None = None
    quiet: bool = False


class Positions:
    """An LRU of each game's current engine position, so a move is not a replay.

    Keyed by the whole move list, not the ply: a position cached by a transaction that
    then failed can never stand in for another game history of the same length.
    """

    def __init__(self, size: int = 10_000) -> None:
        self._items: OrderedDict[str, tuple[str, Any]] = OrderedDict()
        self._size = size

    def get(self, game: Game) -> Any:
        item = self._items.get(game.id)
        if item is not None and item[0] == game.moves:
            self._items.move_to_end(game.id)
            return item[1]
        rules = rules_of(game)
        pos = start_of(game)
        for text in game.moves.split():
            pos = rules.play(pos, text)
        self.put(game.id, game.moves, pos)
        return pos

    def put(self, game_id: str, moves: str, pos: Any) -> None:
        self._items[game_id] = (moves, pos)
        self._items.move_to_end(game_id)
        while len(self._items) > self._size:
            self._items.popitem(last=False)


_RULES: dict[tuple[str, tuple[tuple[str, Any], ...]], Any] = {}


def rules_of(game: Game) -> Any:
    """The game's rules object; remembered per variant and options (engine.get_game checks
    and sorts the options on every call: a tenth of a move's time)."""
    key = (game.variant, tuple(game.rules.items()))
    found = _RULES.get(key)
    if found is None:
        found = _RULES[key] = engine.get_game(game.variant, **game.rules)
    return found


def start_of(game: Game) -> Any:
    """The position the game started from: its ``initial_fen``, else its game's start."""
    rules = rules_of(game)
    return rules.start() if game.initial_fen is None else rules.from_text(game.initial_fen)


def initial_text(game: Game) -> str:
    """The position string the game started from (lichess's ``initialFen``)."""
    if game.initial_fen is not None:
        return game.initial_fen
    rules = rules_of(game)
    return str(rules.to_text(rules.start()))


def opening_side(game: Game) -> str:
    """Who moves first in this game: ``first`` but from a position with second to move."""
    if game.initial_fen is None:
        return "first"
    return "first" if game.initial_fen.split(" ", 2)[1] == "f" else "second"


def has_moved(game: Game, side: str) -> bool:
    """Whether ``side`` has made its first move (the side that opens moves at ply 0)."""
    return game.ply >= (1 if side == opening_side(game) else 2)


def status_of(result: engine.Result) -> str:
    return "mate" if result.reason == "checkmate" else "variantEnd"


class GameService:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        hub: LocalHub,
        settings: Settings,
        *,
        is_postgres: bool,
        clock_ms: Callable[[], int] = now_ms,
        rows: GameRows | None = None,
    ) -> None:
        self.sessions = sessions
        self.hub = hub
        self.settings = settings
        self.is_postgres = is_postgres
        self.now = clock_ms
        self.positions = Positions()
        # The move pipeline's reads and writes of game rows (not the ORM: see rows.py), the
        # latest row seen of each game, and one lock per game changing in this process.
        self.rows = rows if rows is not None else rows_for(sessions.kw["bind"])
        self.cache = RowCache()
        self._locks: dict[str, tuple[asyncio.Lock, list[int]]] = {}
        # Called after every committed change with the game (timers, presence, lobby).
        self.listeners: list[Callable[[Game], None]] = []
        # How long a seat (game id, side) has had nobody connected: for claims.
        self.gone_for_ms: Callable[[str, str], int | None] = lambda _game_id, _side: None

    # ---- reading -------------------------------------------------------------------------
    async def get(self, game_id: str) -> Game:
        """The game as stored now (never only from the cache: another instance may have
        changed it)."""
        return to_game((await self._load(game_id)).row)

    async def _load(self, game_id: str) -> Stored:
        stored = await self.rows.load(game_id)
        if stored is None:
            self.cache.drop(game_id)
            raise ServiceError("game.not_found", f"no game {game_id!r}", 404)
        self.cache.put(game_id, stored)
        return stored

    async def close(self) -> None:
        """Close the rows' own connections (PostgreSQL); the service is done."""
        await self.rows.close()

    async def players(self, game: Game) -> dict[str, dict[str, str] | None]:
        ids = [i for i in (game.first_id, game.second_id, game.creator_id) if i]
        async with self.sessions() as session:
            rows = (await session.execute(select(Player).where(Player.id.in_(ids)))).scalars()
            names = {p.id: p.name for p in rows}
        seats: dict[str, dict[str, str] | None] = {}
        for side, pid in (("first", game.first_id), ("second", game.second_id)):
            seats[side] = {"id": pid, "name": names.get(pid, "?")} if pid else None
        seats["creator"] = {"id": game.creator_id, "name": names.get(game.creator_id, "?")}
        return seats

    def seat_of(self, game: Game, player_id: str) -> str | None:
        if game.first_id == player_id:
            return "first"
        if game.second_id == player_id:
            return "second"
        return None

    async def state(self, game: Game) -> dict[str, Any]:
        """Everything a client shows: the full state, as sent on (re)connect."""
        data = self._live(game)
        over = game.status in ENDED
        positions, movers = self.replay(game, positions=over)
        data.update(
            id=game.id,
            variant=game.variant,
            name=engine.get_game(game.variant).name,
            rules=game.rules,
            public=game.public,
            moves=game.moves.split(),
            players=await self.players(game),
            movers=movers,
            positions=positions,
            createdAt=game.created_ms,
            startedAt=game.started_ms,
            finishedAt=game.finished_ms,
        )
        return data

    @staticmethod
    def replay(game: Game, *, positions: bool) -> tuple[list[str] | None, list[str]]:
        """The side that made each move (not always alternating: wali's automatic passes)
        and, if asked, the position after each ply (0 = the start) without the history field."""
        rules = rules_of(game)
        pos = start_of(game)
        seen = [pos]
        movers = []
        for text in game.moves.split():
            movers.append(rules.side_to_move(pos))
            pos = rules.play(pos, text)
            seen.append(pos)
        if not positions:
            return None, movers
        fields = rules.TEXT_FIELDS
        return [" ".join(rules.to_text(p).split(" ")[:fields]) for p in seen], movers

    def _clock(self, game: Game) -> dict[str, Any] | None:
        times = clock.remaining(game, self.now())
        if times is None:
            return None
        return {
            "initial": game.clock_initial_ms,
            "increment": game.clock_increment_ms,
            **times,
            "running": clock.running(game),
        }

    def _live(self, game: Game) -> dict[str, Any]:
        """The part of the state that changes with every move."""
        pos = self.positions.get(game)
        rules = rules_of(game)
        over = game.status in ENDED
        return {
            "ply": game.ply,
            "status": game.status,
            "fen": game.fen,
            "turn": rules.side_to_move(pos),
            "check": rules.in_check(pos),
            "legalMoves": [] if over or game.status != "started" else rules.legal_moves(pos),
            "result": None
            if not over
            else {"winner": game.winner, "reason": game.reason, "status": game.status},
            "drawOffer": game.draw_offer,
            "takebackOffer": game.takeback_offer,
            "clock": self._clock(game),
            "deadline": self.first_move_deadline(game),
            "serverTime": self.now(),
        }

    def first_move_deadline(self, game: Game) -> int | None:
        if game.status != "started" or game.ply >= 2 or game.turn_started_ms is None:
            return None
        return game.turn_started_ms + int(self.settings.first_move_seconds * 1000)

    def due_at(self, game: Game) -> int | None:
        """When the server must end this game by itself if nothing happens first."""
        return self.first_move_deadline(game) or clock.flag_at(game)

    # ---- the pipeline --------------------------------------------------------------------
    async def _change(self, game_id: str, change: Callable[[Game, int], Outcome]) -> Game:
        for attempt in range(3):
            try:
                return await self._change_once(game_id, change)
            except _Conflict:
                # Another writer (another instance) committed between our read and our
                # write: run again on the new state (a move that named its ply is then stale).
                log.info("game %s changed concurrently (attempt %d)", game_id, attempt + 1)
        raise ServiceError("game.busy", "the game is changing too fast; try again", 409)

    async def _change_once(self, game_id: str, change: Callable[[Game, int], Outcome]) -> Game:
        """Load (the cached row if any) -> change -> conditional UPDATE (it commits) -> tell.

        The cached row is only a guess: the UPDATE applies only if the stored row is still
        that one, and a refusal or a no-op computed from it is checked against the stored
        row. Changes of one game in this process run one at a time, and publish in order."""
        async with self._serial(game_id):
            stored = self.cache.get(game_id)
            fresh = stored is None
            if stored is None:
                stored = await self._load(game_id)
            while True:
                game = to_game(stored.row)
                try:
                    outcome = change(game, self.now())
                except ServiceError:
                    if fresh:
                        raise
                    stored, fresh = await self._load(game_id), True  # refuse on the stored row
                    continue
                new = snapshot(game)
                if new == stored.row:  # nothing to write
                    if fresh:
                        break
                    latest = await self._load(game_id)
                    if latest.row == stored.row:
                        break
                    stored, fresh = latest, True
                    continue
                try:
                    saved = await self.rows.save(stored, new)
                except ConnectionLost:
                    # Did the UPDATE commit before the connection died? The row tells.
                    latest = await self._load(game_id)
                    if latest.row != new:
                        stored, fresh = latest, True
                        continue
                    saved = latest
                if saved is not None:
                    self.cache.put(game_id, saved)
                    break
                if fresh:
                    self.cache.drop(game_id)
                    raise _Conflict
                stored, fresh = await self._load(game_id), True  # the cache was behind
            for listener in self.listeners:
                listener(game)
            if not outcome.quiet:
                message = outcome.message or await self._state_message(game)
                await self.hub.publish(
                    game_channel(game.id), json.dumps(message, separators=(",", ":"))
                )
        if outcome.error is not None:
            raise outcome.error
        return game

    @contextlib.asynccontextmanager
    async def _serial(self, game_id: str) -> AsyncIterator[None]:
        """One change of this game at a time in this process (the lock is dropped when no
        one holds or awaits it)."""
        entry = self._locks.get(game_id)
        if entry is None:
            entry = self._locks[game_id] = (asyncio.Lock(), [0])
        lock, users = entry
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if not users[0]:
                del self._locks[game_id]

    async def _state_message(self, game: Game) -> dict[str, Any]:
        return {"type": "state", "ply": game.ply, "game": await self.state(game)}

    # ---- creating and joining ------------------------------------------------------------
    async def ensure_player(self, who: Identity) -> None:
        """The player's row, made on first use. A new visitor's first requests come at once:
        a check then an insert raced (a duplicate key, a 500), so the insert is one statement
        that does nothing when the row is already there (``ON CONFLICT DO NOTHING``)."""
        async with self.sessions() as session:
            if await session.get(Player, who.id) is not None:
                return  # the usual case: a read, no write
        insert = postgresql_insert if self.is_postgres else sqlite_insert
        statement = (
            insert(Player)
            .values(id=who.id, name=who.name, created_ms=self.now())
            .on_conflict_do_nothing(index_elements=[Player.id])
        )
        async with self.sessions() as session, session.begin():
            await session.execute(statement)

    async def create(self, who: Identity, new: NewGame) -> Game:
        try:
            rules = engine.get_game(new.variant, **new.rules)
        except EngineError as exc:
            raise ServiceError(exc.code, str(exc), 400) from None
        if new.color not in ("first", "second", "random"):
            raise ServiceError(
                "request.invalid", f"color must be first, second or random, not {new.color!r}"
            )
        # Checked once rounded to the milliseconds stored: 1e-300 minutes is above 0, and
        # was a 0 ms clock.
        initial = None if new.minutes is None else clock_ms_of(new.minutes)
        if new.minutes is not None and initial is None:
            raise ServiceError(
                "clock.invalid",
                f"minutes must make 1 second to {MAX_CLOCK_MINUTES} minutes"
                " (rounded to whole milliseconds)",
            )
        if not (0 <= new.increment <= MAX_INCREMENT_SECONDS):
            raise ServiceError(
                "clock.invalid", f"increment must be 0 to {MAX_INCREMENT_SECONDS} seconds"
            )
        if new.public:
            await self._check_open_games(who)
        await self.ensure_player(who)
        game = Game(
            id=secrets.token_urlsafe(6),  # 8 characters, 48 bits: public, only needs no clash
            variant=new.variant,
            rules=dict(rules.options),
            public=new.public,
            status="created",
            creator_id=who.id,
            creator_color=new.color,
            invite_token=secrets.token_urlsafe(24),  # 192 bits: the seat's secret
            moves="",
            ply=0,
            fen=new.initial_fen or rules.to_text(rules.start()),
            initial_fen=new.initial_fen,
            clock_initial_ms=initial,
            clock_increment_ms=None if initial is None else new.increment * 1000,
            first_ms=initial,
            second_ms=initial,
            created_ms=self.now(),
        )
        async with self.sessions() as session, session.begin():
            session.add(game)
        if new.color != "random":
            # The creator's seat is known at once; the other waits for whoever comes.
            await self._change(game.id, lambda g, _now: self._seat_creator(g))
        else:
            for listener in self.listeners:
                listener(game)
        return await self.get(game.id)

    async def _check_open_games(self, who: Identity) -> None:
        """A player's public games waiting for an opponent are capped: the lobby's open list
        is everyone's, and one client filling it pushes the others' games off it."""
        cap = self.settings.max_open_games
        async with self.sessions() as session:
            waiting = (
                await session.execute(
                    select(func.count())
                    .select_from(Game)
                    .where(
                        Game.status == "created",
                        Game.public.is_(True),
                        Game.creator_id == who.id,
                    )
                )
            ).scalar_one()
        if waiting >= cap:
            raise too_many_open(f"you already have {waiting} open games waiting", cap)

    async def still_open(self, game_ids: list[str]) -> list[str]:
        """Those of these games that are still waiting for an opponent, in the same order."""
        if not game_ids:
            return []
        async with self.sessions() as session:
            rows = await session.execute(
                select(Game.id).where(Game.id.in_(game_ids), Game.status == "created")
            )
            waiting = {row[0] for row in rows}
        return [game_id for game_id in game_ids if game_id in waiting]

    @staticmethod
    def _seat_creator(game: Game) -> Outcome:
        if game.creator_color == "first":
            game.first_id = game.creator_id
        else:
            game.second_id = game.creator_id
        return Outcome()

    async def join(
        self, who: Identity, game_id: str | None = None, token: str | None = None
    ) -> Game:
        """Take the free seat: of a public game by id, or of any game by its invite token."""
        if token is not None:
            async with self.sessions() as session:
                found = (
                    await session.execute(select(Game.id).where(Game.invite_token == token))
                ).scalar_one_or_none()
            if found is None:
                raise ServiceError("invite.not_found", "this invite link is not valid", 404)
            game_id = found
        assert game_id is not None
        await self.ensure_player(who)

        def take_seat(game: Game, now: int) -> Outcome:
            if who.id in (game.creator_id, game.first_id, game.second_id):
                return Outcome(quiet=True)  # already in the game: nothing to do
            if token is None and not game.public:
                raise ServiceError(
                    "game.private", "this game is private: join it with its invite link", 403
                )
            if game.status != "created":
                raise ServiceError(
                    "game.seat_taken", "this game's seats are taken", 409, id=game.id
                )
            color = game.creator_color
            if color == "random":
                color = secrets.choice(SIDES)  # the rules: the first player is drawn at random
            if color == "first":
                game.first_id, game.second_id = game.creator_id, who.id
            else:
                game.first_id, game.second_id = who.id, game.creator_id
            game.status = "started"
            game.started_ms = now
            game.turn_started_ms = now
            return Outcome()

        return await self._change(game_id, take_seat)

    async def cancel(self, who: Identity, game_id: str) -> Game:
        def cancel(game: Game, now: int) -> Outcome:
            if game.creator_id != who.id:
                raise ServiceError("game.not_creator", "only the creator can cancel a game", 403)
            if game.status != "created":
                raise ServiceError(
                    "game.not_cancelable", "someone has joined: the game can only be aborted", 409
                )
            self._finish(game, now, "aborted", None, "canceled")
            return Outcome()

        return await self._change(game_id, cancel)

    # ---- playing -------------------------------------------------------------------------
    def _seat(self, game: Game, who: Identity) -> str:
        side = self.seat_of(game, who.id)
        if side is None:
            if game.status == "created" and game.creator_id == who.id:
                # A random-colour creator has no seat until the opponent arrives.
                raise ServiceError("game.not_started", "the game waits for its second player", 409)
            raise ServiceError("game.not_player", "you are not playing in this game", 403)
        return side

    @staticmethod
    def _require_started(game: Game) -> None:
        if game.status in ENDED:
            raise ServiceError("game.over", f"the game is over ({game.status}: {game.reason})", 409)
        if game.status != "started":
            raise ServiceError("game.not_started", "the game waits for its second player", 409)

    @staticmethod
    def _finish(game: Game, now: int, status: str, winner: str | None, reason: str) -> None:
        game.status = status
        game.winner = winner
        game.reason = reason
        game.finished_ms = now
        game.draw_offer = None
        game.takeback_offer = None
        if clock.running(game) and game.turn_started_ms is not None:
            times = clock.remaining(game, now)
            if times is not None:
                game.first_ms, game.second_ms = times["first"], times["second"]
        game.turn_started_ms = now

    def _expire_if_due(self, game: Game, now: int) -> bool:
        """End the game if its clock or first-move deadline ran out; True if it did."""
        if game.status != "started":
            return False
        side = clock.side_to_move(game)
        deadline = self.first_move_deadline(game)
        if deadline is not None and now >= deadline:
            self._finish(game, now, "noStart", None, "first_move")
            return True
        flag = clock.flag_at(game)
        if flag is not None and now >= flag:
            if side == "first":
                game.first_ms = 0
            else:
                game.second_ms = 0
            game.turn_started_ms = now
            self._finish(game, now, "outoftime", other(side), "outoftime")
            return True
        return False

    async def move(self, who: Identity, game_id: str, text: str, ply: int | None = None) -> Game:
        """The move pipeline. ``ply``: the number of moves the client has seen (stale check)."""
        if not isinstance(text, str) or not text or len(text) > 16:
            raise ServiceError("move.invalid", f"not a move text: {text!r}", 400)

        def play(game: Game, now: int) -> Outcome:
            side = self._seat(game, who)
            if self._expire_if_due(game, now):
                return Outcome(
                    error=ServiceError("game.over", f"the game is over ({game.status})", 409)
                )
            self._require_started(game)
            if ply is not None and ply != game.ply:
                raise ServiceError(
                    "game.stale",
                    f"the game is at ply {game.ply}, not {ply}: resync and try again",
                    409,
                )
            rules = rules_of(game)
            pos = self.positions.get(game)
            if rules.side_to_move(pos) != side:
                raise ServiceError("game.not_your_turn", "it is not your turn", 409)
            try:
                after = rules.play(pos, text)
            except EngineError as exc:
                status = 422 if exc.code == "move.illegal" else 400
                raise ServiceError(exc.code, str(exc), status) from None
            left = clock.charge(game, side, now)
            if side == "first":
                game.first_ms = left
            else:
                game.second_ms = left
            game.moves = f"{game.moves} {text}" if game.moves else text
            game.ply += 1
            game.fen = rules.to_text(after)
            game.turn_started_ms = now
            if game.draw_offer == other(side):
                game.draw_offer = None  # moving declines the opponent's offer
            if game.takeback_offer == side:
                # Moving withdraws one's own takeback proposal (lichess). The opponent's
                # stands: accepted later, it also takes this move back.
                game.takeback_offer = None
            result = rules.result(after)
            if result is not None:
                self._finish(game, now, status_of(result), result.winner, result.reason)
            self.positions.put(game.id, game.moves, after)
            return Outcome({"type": "move", "move": text, **self._live(game)})

        return await self._change(game_id, play)

    async def resign(self, who: Identity, game_id: str) -> Game:
        def resign(game: Game, now: int) -> Outcome:
            side = self._seat(game, who)
            if self._expire_if_due(game, now):
                return Outcome()
            self._require_started(game)
            self._finish(game, now, "resign", other(side), "resign")
            return Outcome()

        return await self._change(game_id, resign)

    async def abort(self, who: Identity, game_id: str) -> Game:
        def abort(game: Game, now: int) -> Outcome:
            self._seat(game, who)
            self._require_started(game)
            if game.ply >= 2:
                raise ServiceError(
                    "game.not_abortable",
                    "both players have moved: the game can no longer be aborted",
                    409,
                )
            self._finish(game, now, "aborted", None, "abort")
            return Outcome()

        return await self._change(game_id, abort)

    async def draw(self, who: Identity, game_id: str, action: str) -> Game:
        """offer (accepts a standing offer of the opponent), accept, or decline."""
        if action not in ("offer", "accept", "decline"):
            raise ServiceError("request.invalid", f"unknown draw action {action!r}")

        def draw(game: Game, now: int) -> Outcome:
            side = self._seat(game, who)
            if self._expire_if_due(game, now):
                return Outcome()
            self._require_started(game)
            offered_by_opponent = game.draw_offer == other(side)
            if action == "offer" and not offered_by_opponent:
                game.draw_offer = side
            elif action in ("offer", "accept"):
                if not offered_by_opponent:
                    raise ServiceError("draw.no_offer", "your opponent has not offered a draw", 409)
                self._finish(game, now, "draw", None, "agreement")
            else:
                if not offered_by_opponent:
                    raise ServiceError("draw.no_offer", "your opponent has not offered a draw", 409)
                game.draw_offer = None
            return Outcome()

        return await self._change(game_id, draw)

    async def takeback(self, who: Identity, game_id: str, action: str) -> Game:
        """lichess's takebacks, in casual games. ``offer`` proposes (or accepts the
        opponent's proposal), ``accept`` accepts it, ``decline`` declines the opponent's
        proposal or withdraws one's own. Accepted, it takes back the proposer's last move and
        every move after it (lichess: one or two plies), so that the proposer is to move."""
        if action not in ("offer", "accept", "decline"):
            raise ServiceError("request.invalid", f"unknown takeback action {action!r}")

        def takeback(game: Game, now: int) -> Outcome:
            side = self._seat(game, who)
            if self._expire_if_due(game, now):
                return Outcome(
                    error=ServiceError("game.over", f"the game is over ({game.status})", 409)
                )
            self._require_started(game)
            if game.rated:
                raise ServiceError(
                    "takeback.rated", "moves cannot be taken back in a rated game", 409
                )
            proposed_by_opponent = game.takeback_offer == other(side)
            if action == "decline":
                if game.takeback_offer is None:
                    raise ServiceError("takeback.no_offer", "nobody proposes a takeback", 409)
                game.takeback_offer = None
            elif proposed_by_opponent:
                self._take_back(game, now, other(side))
            elif action == "accept":
                raise ServiceError(
                    "takeback.no_offer", "your opponent has not proposed a takeback", 409
                )
            elif game.takeback_offer != side:  # proposing again changes nothing
                _positions, movers = self.replay(game, positions=False)
                if game.ply < 2 or side not in movers:
                    raise ServiceError(
                        "takeback.nothing",
                        "nothing to take back: both players must have moved first",
                        409,
                    )
                game.takeback_offer = side
            return Outcome()

        return await self._change(game_id, takeback)

    def _take_back(self, game: Game, now: int, proposer: str) -> None:
        """Take back the proposer's last move and every move after it.

        The clocks are not wound back (as lichess's, which only give back the running turn):
        each side keeps the time it had when the current turn began, and the side to move
        now starts its turn afresh."""
        _positions, movers = self.replay(game, positions=False)
        keep = max(i for i, mover in enumerate(movers) if mover == proposer)
        rules = rules_of(game)
        moves = game.moves.split()[:keep]
        pos = start_of(game)
        for text in moves:
            pos = rules.play(pos, text)
        game.moves = " ".join(moves)
        game.ply = keep
        game.fen = rules.to_text(pos)
        game.turn_started_ms = now
        game.takeback_offer = None
        game.draw_offer = None  # an offer was about a position that is gone
        self.positions.put(game.id, game.moves, pos)

    async def claim(self, who: Identity, game_id: str, kind: str) -> Game:
        """Claim victory or a draw when the opponent has been gone past the grace period."""
        if kind not in ("victory", "draw"):
            raise ServiceError("request.invalid", f"one claims victory or draw, not {kind!r}")

        def claim(game: Game, now: int) -> Outcome:
            side = self._seat(game, who)
            if self._expire_if_due(game, now):
                return Outcome()
            self._require_started(game)
            grace = self.grace_ms(game, other(side))
            gone = self.gone_for_ms(game.id, other(side))
            if gone is None:
                raise ServiceError("claim.opponent_present", "your opponent is connected", 409)
            if gone < grace:
                raise ServiceError(
                    "claim.too_early",
                    f"your opponent has not been gone for {grace // 1000} seconds",
                    409,
                )
            if kind == "victory":
                self._finish(game, now, "timeout", side, "opponent_gone")
            else:
                self._finish(game, now, "draw", None, "opponent_gone")
            return Outcome()

        return await self._change(game_id, claim)

    def grace_ms(self, game: Game, side: str) -> int:
        """How long ``side`` may be away before the opponent can claim (shorter if unmoved)."""
        moved = has_moved(game, side)
        seconds = self.settings.gone_seconds if moved else self.settings.gone_unmoved_seconds
        return int(seconds * 1000)

    async def expire(self, game_id: str) -> Game | None:
        """The server's own time-out check (timers call it; safe to call any time)."""

        def expire(game: Game, now: int) -> Outcome:
            return Outcome(quiet=not self._expire_if_due(game, now))

        try:
            return await self._change(game_id, expire)
        except ServiceError:
            return None

    # ---- lists ---------------------------------------------------------------------------
    async def lobby(self, limit: int = 100) -> dict[str, list[dict[str, Any]]]:
        async with self.sessions() as session:
            open_rows = (
                await session.execute(
                    select(Game)
                    .where(Game.status == "created", Game.public.is_(True))
                    .order_by(Game.created_ms.desc())
                    .limit(limit)
                )
            ).scalars()
            open_games = list(open_rows)
            live_rows = (
                await session.execute(
                    select(Game)
                    .where(Game.status == "started", Game.public.is_(True))
                    .order_by(Game.started_ms.desc())
                    .limit(limit)
                )
            ).scalars()
            live_games = list(live_rows)
            ids = {g.creator_id for g in open_games} | {
                i for g in live_games for i in (g.first_id, g.second_id) if i
            }
            names = {
                p.id: p.name
                for p in (await session.execute(select(Player).where(Player.id.in_(ids)))).scalars()
            }

        def summary(game: Game) -> dict[str, Any]:
            return {
                "id": game.id,
                "variant": game.variant,
                "rules": game.rules,
                "clock": None
                if game.clock_initial_ms is None
                else {"initial": game.clock_initial_ms, "increment": game.clock_increment_ms},
            }

        return {
            "open": [
                {
                    **summary(g),
                    "creator": names.get(g.creator_id, "?"),
                    "creatorId": g.creator_id,
                    "color": g.creator_color,
                }
                for g in open_games
            ],
            "live": [
                {
                    **summary(g),
                    "first": names.get(g.first_id or "", "?"),
                    "second": names.get(g.second_id or "", "?"),
                }
                for g in live_games
            ],
        }

    async def expire_open_games(self) -> int:
        """Withdraw games whose free seat nobody took within ``open_game_hours``."""
        cutoff = self.now() - int(self.settings.open_game_hours * 3_600_000)
        async with self.sessions() as session:
            rows = await session.execute(
                select(Game.id).where(Game.status == "created", Game.created_ms < cutoff)
            )
            stale = [r[0] for r in rows]

        def expire(game: Game, now: int) -> Outcome:
            if game.status != "created":
                return Outcome(quiet=True)  # someone joined meanwhile
            self._finish(game, now, "aborted", None, "expired")
            return Outcome()

        for game_id in stale:
            await self._change(game_id, expire)
        return len(stale)

    async def live_games(self) -> list[Game]:
        # Not through the ORM: with thousands of live games, loading them as ORM objects
        # blocked every game for tens of milliseconds at each sweep.
        return [to_game(stored.row) for stored in await self.rows.with_status("started")]

    # ---- challenges and seeks (bot API) --------------------------------------------------
    async def create_started(
        self,
        game_id: str,
        first: Identity,
        second: Identity,
        creator: Identity,
        *,
        variant: str,
        rules: dict[str, str],
        clock_ms: int | None,
        increment_ms: int,
        public: bool = True,
        initial_fen: str | None = None,
    ) -> Game:
        """A game whose two players are known (an accepted challenge): both seated and the
        game started at once, under the given id (the challenge's)."""
        try:
            game_rules = engine.get_game(variant, **rules)
        except EngineError as exc:
            raise ServiceError(exc.code, str(exc), 400) from None
        await self.ensure_player(first)
        await self.ensure_player(second)
        now = self.now()
        game = Game(
            id=game_id,
            variant=variant,
            rules=dict(game_rules.options),
            public=public,
            status="started",
            creator_id=creator.id,
            creator_color="first" if creator.id == first.id else "second",
            first_id=first.id,
            second_id=second.id,
            invite_token=secrets.token_urlsafe(24),  # never shown: both seats are taken
            moves="",
            ply=0,
            fen=initial_fen or game_rules.to_text(game_rules.start()),
            initial_fen=initial_fen,
            clock_initial_ms=clock_ms,
            clock_increment_ms=None if clock_ms is None else increment_ms,
            first_ms=clock_ms,
            second_ms=clock_ms,
            turn_started_ms=now,
            created_ms=now,
            started_ms=now,
        )
        try:
            async with self.sessions() as session, session.begin():
                session.add(game)
        except IntegrityError:
            if first.id != second.id:
                raise
            # The table's CHECK: one player never holds both seats, whatever seated them.
            raise ServiceError(
                "game.same_player", "one player cannot take both seats of a game", 409
            ) from None
        for listener in self.listeners:
            listener(game)
        await self.hub.publish(
            game_channel(game.id),
            json.dumps(await self._state_message(game), separators=(",", ":")),
        )
        return game
