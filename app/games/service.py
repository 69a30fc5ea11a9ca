"""The game lifecycle: create, join, cancel, the move pipeline, draws, takebacks, resign,
abort, claims, and the server's own time-outs.

Every change runs one transition (transitions.py) through the pipeline (pipeline.py), then
tells its events: to the listeners of this process (the timekeeper, the lobby, the bot event
streams, presence) and, as a ``GameUpdate`` with the state after it, on the game's hub channel
(every socket and stream showing the game, on every instance). A change with durable events
(written to the outbox with it) first awaits the ``durable`` hooks (the outbox consumer).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

import engine
from app.core.config import Settings
from app.core.errors import ServiceError
from app.db.gamerows import GameRows, rows_for, to_game
from app.db.models import Game, Player
from app.domain.enums import ENDED, GameStatus
from app.domain.events import (
    DURABLE,
    GameCreated,
    GameEvent,
    MovePlayed,
    SeatTaken,
)
from app.domain.players import Identity
from app.games import queries, timecontrol
from app.games.newgames import (
    NewGame,
    new_game,
    rated_needs_account,
    started_game,
    too_many_open,
)
from app.games.pipeline import Change, Pipeline
from app.games.rules import Positions, replay
from app.games.state import GameState, LiveState, Seats, live_state
from app.games.timecontrol import MAX_CLOCK_MINUTES, TimeControl, clock_ms_of
from app.games.transitions import Transitions, seat_of
from app.ratings.reading import at_start, changes_json, game_changes, seat_rating
from app.realtime.hub import LocalHub
from app.realtime.messages import GameUpdate, game_channel
from engine import Side

log = logging.getLogger(__name__)


def now_ms() -> int:
    return time.time_ns() // 1_000_000


NAMES_KEPT = 50_000
STATES_KEPT = 2_000


def _json(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


# Called after every committed change, with the game and its events.
Listener = Callable[[Game, Sequence[GameEvent]], None]
# Awaited after a change committed, with the game and its events: one with durable events
# (GameService.durable, .told), or the change a caller ran (``change(before_telling=…)``).
ChangeHook = Callable[[Game, Sequence[GameEvent]], Awaitable[None]]

# Run in the transaction that inserts a started game (an accepted challenge flips its
# status there): False rolls the insert back, so a game exists exactly when it was claimed.
Claim = Callable[[AsyncSession], Awaitable[bool]]


class _Unclaimed(Exception):
    """The claim of a game's insert said no."""


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
        self.transitions = Transitions(settings, self.positions)
        # The move pipeline's reads and writes of game rows (not the ORM: see rows.py).
        # (The pipeline asks this service the time: a test may swap ``now``.)
        self.pipeline = Pipeline(
            rows if rows is not None else rows_for(sessions.kw["bind"]),
            lambda: self.now(),  # noqa: PLW0108 (a test may swap now)
        )
        self.listeners: list[Listener] = []
        self.durable: list[ChangeHook] = []
        self.told: list[ChangeHook] = []  # awaited after such a change was told
        # Players' names never change: kept (the most recent) so that a socket opening on
        # a game costs no query for them. And the part of a game's full state that only
        # changes with its moves, seats or end, as JSON text: a crowd joining one game shares
        # it (docs/benchmarks.md, "Crowds").
        self._names: OrderedDict[str, str] = OrderedDict()
        self._fixed: OrderedDict[str, tuple[tuple[Any, ...], str, bool]] = OrderedDict()
        self._reads: dict[str, asyncio.Future[Game]] = {}  # get_shared's reads to start
        self._reading: set[asyncio.Task[None]] = set()

    @property
    def gone_for_ms(self) -> Callable[[str, str], int | None]:
        """How long a seat (game id, side) has had nobody connected: for claims."""
        return self.transitions.gone_for_ms

    @gone_for_ms.setter
    def gone_for_ms(self, value: Callable[[str, str], int | None]) -> None:
        self.transitions.gone_for_ms = value

    # ---- reading -------------------------------------------------------------------------
    async def get(self, game_id: str) -> Game:
        """The game as stored now (never only from the cache)."""
        return await self.pipeline.get(game_id)

    async def get_shared(self, game_id: str) -> Game:
        """``get``, by a read that starts after this call, shared by every caller until it
        starts: a crowd of sockets opening on one game at once (each subscribed first) reads
        it once per loop turn, not once each. The game returned is theirs to read only."""
        pending = self._reads.get(game_id)
        if pending is None:
            pending = self._reads[game_id] = asyncio.get_running_loop().create_future()
            task = asyncio.get_running_loop().create_task(self._read_shared(game_id, pending))
            self._reading.add(task)
            task.add_done_callback(self._reading.discard)
        return await asyncio.shield(pending)

    async def _read_shared(self, game_id: str, pending: asyncio.Future[Game]) -> None:
        del self._reads[game_id]  # callers from now on need a read that starts later
        try:
            pending.set_result(await self.get(game_id))
        except asyncio.CancelledError:
            pending.cancel()
            raise
        except Exception as exc:
            pending.set_exception(exc)
            pending.exception()  # retrieved: nobody may be waiting any more

    async def close(self) -> None:
        """Close the rows' own connections (PostgreSQL); the service is done."""
        await self.pipeline.close()

    async def players(self, game: Game) -> Seats:
        ids = [i for i in (game.first_id, game.second_id, game.creator_id) if i]
        missing = [i for i in ids if i not in self._names]
        if missing:
            async with self.sessions() as session:
                query = select(Player.id, Player.name).where(Player.id.in_(missing))
                for pid, name in (await session.execute(query)).all():
                    self._names[pid] = name
            while len(self._names) > NAMES_KEPT:
                self._names.popitem(last=False)
        names = {i: self._names[i] for i in ids if i in self._names}
        for i in names:
            self._names.move_to_end(i)

        def seat(pid: str | None, side: Side) -> Any:
            if not pid:
                return None
            found: dict[str, Any] = {"id": pid, "name": names.get(pid, "?")}
            rating = seat_rating(game, side)
            if rating is not None:
                found["rating"], found["provisional"] = rating
            return found

        return {
            "first": seat(game.first_id, Side.FIRST),
            "second": seat(game.second_id, Side.SECOND),
            "creator": {"id": game.creator_id, "name": names.get(game.creator_id, "?")},
        }

    @staticmethod
    def seat_of(game: Game, player_id: str) -> Side | None:
        return seat_of(game, player_id)

    def live(self, game: Game) -> LiveState:
        grace = None
        if game.status == GameStatus.STARTED and game.days is None:
            grace = {str(side): self.grace_ms(game, side) for side in (Side.FIRST, Side.SECOND)}
        pos = self.positions.get(game)
        return live_state(game, pos, self.now(), self.deadline(game), grace)

    async def state(self, game: Game) -> GameState:
        """Everything a client shows: the full state, as sent on (re)connect. (A field that
        can change while the moves, seats and end stay the same must be in ``LiveState`` or
        in ``state_text``'s key.)"""
        positions, movers = replay(game, positions=True)
        changes = None
        if game.rated and game.status in ENDED:
            changes = (await game_changes(self.sessions, [game])).get(game.id)
        state: GameState = {
            **self.live(game),
            "id": game.id,
            "variant": game.variant,
            "name": engine.get_game(game.variant).name,
            "rules": game.rules,
            "public": game.public,
            "rated": bool(game.rated),
            "ratings": changes_json(changes),
            "moves": game.moves.split(),
            "players": await self.players(game),
            "movers": movers,
            "positions": positions,
            "createdAt": game.created_ms,
            "startedAt": game.started_ms,
            "finishedAt": game.finished_ms,
        }
        return state

    async def state_text(self, game: Game) -> str:
        """``state(game)`` as JSON text: the live part made now, the rest kept per game while
        its moves, seats and end stay the same (the same text as ``json.dumps(state)``)."""
        key = (
            game.moves, game.status in ENDED, game.first_id, game.second_id, game.public,
            game.started_ms, game.finished_ms,
        )  # fmt: skip
        kept = self._fixed.get(game.id)
        if kept is None or kept[0] != key or not kept[2]:
            state = await self.state(game)
            fixed = {k: v for k, v in state.items() if k not in LiveState.__annotations__}
            # A rated game's end without its ratings yet: read again until they exist.
            complete = not (game.rated and game.status in ENDED and state["ratings"] is None)
            kept = self._fixed[game.id] = (key, _json(fixed), complete)
            while len(self._fixed) > STATES_KEPT:
                self._fixed.popitem(last=False)
        self._fixed.move_to_end(game.id)
        live = _json(self.live(game))
        return f"{live[:-1]},{kept[1][1:]}"

    def first_move_deadline(self, game: Game) -> int | None:
        return self.transitions.first_move_deadline(game)

    def deadline(self, game: Game) -> int | None:
        """The first-move deadline, or a correspondence game's for the side to move."""
        return self.transitions.deadline(game)

    def due_at(self, game: Game) -> int | None:
        """When the server must end this game by itself if nothing happens first."""
        return self.transitions.due_at(game)

    def grace_ms(self, game: Game, side: str) -> int:
        return self.transitions.grace_ms(game, side)

    # ---- the pipeline, and telling what happened -----------------------------------------
    async def _change(
        self, game_id: str, change: Change, before_telling: ChangeHook | None = None
    ) -> Game:
        async with self.pipeline.serial(game_id):
            changed = await self.pipeline.run(game_id, change)
            if changed.events:
                durable = any(isinstance(e, DURABLE) for e in changed.events)
                if durable:
                    await self._hooks(self.durable, changed.game, changed.events)
                if before_telling is not None:
                    await self._hooks((before_telling,), changed.game, changed.events)
                await self._tell(changed.game, changed.events)
                if durable:
                    await self._hooks(self.told, changed.game, changed.events)
        if changed.error is not None:
            raise changed.error
        return changed.game

    async def change(
        self, game_id: str, change: Change, before_telling: ChangeHook | None = None
    ) -> Game:
        """Run a change of another module's (app/rematch/service.py) through the pipeline.
        ``before_telling``: awaited once the change has committed with events, before anyone
        is told of them (a rematch offer's challenge ends first: whoever sees the offer end
        then finds its challenge ended too)."""
        return await self._change(game_id, change, before_telling)

    async def tell(self, game: Game, events: Sequence[GameEvent]) -> None:
        """Tell the events of a change a caller committed itself, holding ``pipeline.serial``
        of the game (a rematch's accept, written with the new game's insert)."""
        self.pipeline.cache.drop(game.id)  # written outside the pipeline: read it again
        await self._tell(game, events)

    @staticmethod
    async def _hooks(hooks: Sequence[ChangeHook], game: Game, events: Sequence[GameEvent]) -> None:
        for hook in hooks:
            try:
                await hook(game, events)
            except Exception:  # the change stands and is told (a durable one's outbox row
                # is consumed later by the sweep)
                log.exception("a hook of a change of game %s failed", game.id)

    async def _tell(self, game: Game, events: Sequence[GameEvent]) -> None:
        for listener in self.listeners:
            listener(game, events)
        await self.hub.publish(game_channel(game.id), await self.update(game, events))

    async def update(self, game: Game, events: Sequence[GameEvent]) -> GameUpdate:
        """The hub message of a change: the live state, and the full state unless it was a
        move (a move's message is small: the move and the live part)."""
        moved = any(isinstance(e, MovePlayed) for e in events)
        state = None if moved else await self.state(game)
        live = self.live(game) if state is None else state
        return GameUpdate(game.id, game.ply, tuple(events), live, game.moves, state)

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

    async def _insert(
        self, game: Game, events: list[GameEvent], claim: Claim | None = None
    ) -> Game | None:
        """Insert the game (None: ``claim`` said no, nothing was written) and tell its
        events."""
        try:
            async with self.sessions() as session, session.begin():
                if claim is not None and not await claim(session):
                    raise _Unclaimed  # rolls the transaction back
                session.add(game)
        except _Unclaimed:
            return None
        except IntegrityError:
            if game.first_id is None or game.first_id != game.second_id:
                raise
            # The table's CHECK: one player never holds both seats, whatever seated them.
            raise ServiceError(
                "game.same_player", "one player cannot take both seats of a game", 409
            ) from None
        return await self.tell_inserted(game.id, events)

    async def create(self, who: Identity, new: NewGame) -> Game:
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
        control = timecontrol.checked(
            initial, new.increment, byoyomi=new.byoyomi, periods=new.periods, days=new.days
        )
        game = new_game(
            secrets.token_urlsafe(6),  # 8 characters, 48 bits: public, only needs no clash
            who,
            self.now(),
            variant=new.variant,
            rules=new.rules,
            public=new.public,
            color=new.color,
            control=control,
            initial_fen=new.initial_fen,
        )
        if new.public:
            waiting = await queries.open_public_count(self.sessions, who.id)
            if waiting >= self.settings.max_open_games:
                raise too_many_open(
                    f"you already have {waiting} open games waiting", self.settings.max_open_games
                )
        await self.ensure_player(who)
        if new.rated:
            if not await at_start(self.sessions, new.variant, [who.id], self.now()):
                raise rated_needs_account("only an account can create a rated game")
            game.rated = True
        if new.rating_range is not None:
            if not new.public:
                raise ServiceError(
                    "request.invalid",
                    "a rating range is for a public game (an invite names its opponent)",
                )
            game.rating_min, game.rating_max = new.rating_range
        events: list[GameEvent] = [GameCreated(game.id, 0, who.id, new.public)]
        if new.color != "random":
            events.append(SeatTaken(game.id, 0, Side(new.color), who.id))
        inserted = await self._insert(game, events)
        assert inserted is not None  # no claim: always inserted
        return inserted

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
        rated: bool = False,
        claim: Claim | None = None,
        byoyomi_ms: int | None = None,
        periods: int | None = None,
        days: int | None = None,
    ) -> Game | None:
        """A game whose two players are known (an accepted challenge): both seated and the
        game started at once, under the given id (the challenge's). With ``claim``, the
        game is inserted in the same transaction as the claim, and only if it succeeds
        (None otherwise). The time control was checked when it was proposed."""
        await self.ensure_player(first)
        await self.ensure_player(second)
        ratings = await at_start(self.sessions, variant, (first.id, second.id), self.now())
        game, events = started_game(
            game_id,
            first,
            second,
            creator,
            self.now(),
            ratings=ratings,
            variant=variant,
            rules=rules,
            control=TimeControl(
                clock_ms, 0 if clock_ms is None else increment_ms, byoyomi_ms, periods, days
            ),
            public=public,
            initial_fen=initial_fen,
            rated=rated,
        )
        return await self._insert(game, events, claim)

    async def tell_inserted(self, game_id: str, events: Sequence[GameEvent]) -> Game:
        """Tell the events of a game a caller inserted (and committed) itself."""
        stored = await self.get(game_id)
        await self.tell_started(stored, events)
        return stored

    async def tell_started(self, game: Game, events: Sequence[GameEvent]) -> None:
        """``tell_inserted`` from the row the caller inserted and committed (``started_game``'s
        game, every column set): no read (a pairing round tells hundreds of games)."""
        async with self.pipeline.serial(game.id):
            await self._tell(game, events)

    def remember_names(self, names: Mapping[str, str]) -> None:
        """Players' names a caller has just read (a pairing round): telling their games
        reads none."""
        for player_id, name in names.items():
            self._names[player_id] = name
            self._names.move_to_end(player_id)
        while len(self._names) > NAMES_KEPT:
            self._names.popitem(last=False)

    async def still_open(self, game_ids: list[str]) -> list[str]:
        return await queries.still_open(self.sessions, game_ids)

    async def join(
        self, who: Identity, game_id: str | None = None, token: str | None = None
    ) -> Game:
        """Take the free seat: of a public game by id, or of any game by its invite token."""
        if token is not None:
            game_id = await queries.invited(self.sessions, token)
            if game_id is None:
                raise ServiceError("invite.not_found", "this invite link is not valid", 404)
        assert game_id is not None
        await self.ensure_player(who)
        by_invite = token is not None
        # Both players' ratings as the game starts (kept with it), read before the change:
        # also says whether the joiner is an account (a rated game's seat is an account's).
        game = await self.get(game_id)
        ratings = await at_start(self.sessions, game.variant, (game.creator_id, who.id), self.now())
        return await self._change(
            game_id,
            lambda g, now: self.transitions.take_seat(
                g, now, who, by_invite=by_invite, ratings=ratings
            ),
        )

    async def cancel(self, who: Identity, game_id: str) -> Game:
        return await self._change(game_id, lambda g, now: self.transitions.cancel(g, now, who))

    # ---- playing -------------------------------------------------------------------------
    async def move(self, who: Identity, game_id: str, text: str, ply: int | None = None) -> Game:
        """The move pipeline. ``ply``: the number of moves the client has seen (stale check)."""
        if not isinstance(text, str) or not text or len(text) > 16:
            raise ServiceError("move.invalid", f"not a move text: {text!r}", 400)
        return await self._change(
            game_id, lambda g, now: self.transitions.move(g, now, who, text, ply)
        )

    async def resign(self, who: Identity, game_id: str) -> Game:
        return await self._change(game_id, lambda g, now: self.transitions.resign(g, now, who))

    async def abort(self, who: Identity, game_id: str) -> Game:
        return await self._change(game_id, lambda g, now: self.transitions.abort(g, now, who))

    async def draw(self, who: Identity, game_id: str, action: str) -> Game:
        """offer (accepts a standing offer of the opponent), accept, or decline."""
        if action not in ("offer", "accept", "decline"):
            raise ServiceError("request.invalid", f"unknown draw action {action!r}")
        return await self._change(
            game_id, lambda g, now: self.transitions.draw(g, now, who, action)
        )

    async def takeback(self, who: Identity, game_id: str, action: str) -> Game:
        """Propose, accept or decline a takeback (transitions.Transitions.takeback)."""
        if action not in ("offer", "accept", "decline"):
            raise ServiceError("request.invalid", f"unknown takeback action {action!r}")
        return await self._change(
            game_id, lambda g, now: self.transitions.takeback(g, now, who, action)
        )

    async def claim(self, who: Identity, game_id: str, kind: str) -> Game:
        """Claim victory or a draw when the opponent has been gone past the grace period."""
        if kind not in ("victory", "draw"):
            raise ServiceError("request.invalid", f"one claims victory or draw, not {kind!r}")
        return await self._change(game_id, lambda g, now: self.transitions.claim(g, now, who, kind))

    # ---- seeks (app/lobby/seeks.py decides; the transitions check again) ---------------
    async def seek_away(self, game_id: str) -> Game:
        return await self._change(game_id, self.transitions.seek_away)

    async def seek_back(self, game_id: str) -> Game:
        return await self._change(game_id, self.transitions.seek_back)

    async def seek_abandoned(self, game_id: str, grace_ms: int) -> Game:
        return await self._change(
            game_id, lambda g, now: self.transitions.seek_abandoned(g, now, grace_ms)
        )

    async def expire(self, game_id: str) -> Game | None:
        """The server's own time-out check (timers call it; safe to call any time)."""
        try:
            return await self._change(game_id, self.transitions.expire_if_due)
        except ServiceError:
            return None

    # ---- lists ---------------------------------------------------------------------------
    async def lobby(self, limit: int = 100) -> dict[str, list[dict[str, Any]]]:
        return await queries.lobby(self.sessions, self.now(), limit)

    async def expire_open_games(self) -> int:
        """Withdraw games whose free seat nobody took within ``open_game_hours``."""
        cutoff = self.now() - int(self.settings.open_game_hours * 3_600_000)
        stale = await queries.unjoined_since(self.sessions, cutoff)
        for game_id in stale:
            await self._change(game_id, self.transitions.expire_unjoined)
        return len(stale)

    async def live_games(self) -> list[Game]:
        # Not through the ORM: with thousands of live games, loading them as ORM objects
        # blocked every game for tens of milliseconds at each sweep.
        rows = await self.pipeline.rows.with_status(GameStatus.STARTED)
        return [to_game(stored.row) for stored in rows]
