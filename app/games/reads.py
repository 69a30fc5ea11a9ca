"""Reading games: one game as stored, its players' names and seats, the state a client shows
(and its JSON text, kept per game for a crowd), its deadlines, and the lists of many games.
Nothing here changes a game."""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

import engine
from app.db.gamerows import to_game
from app.db.models import GameRow, Player
from app.domain.enums import ENDED, GameStatus
from app.games import queries
from app.games.endings import seat_of
from app.games.pipeline import Pipeline
from app.games.rules import Positions, replay
from app.games.state import GameState, LiveState, Seats, live_state
from app.games.transitions import Transitions
from app.ratings.reading import changes_json, game_changes, seat_rating
from engine import Side

NAMES_KEPT = 50_000
STATES_KEPT = 2_000


def _json(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


class GameReads:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        pipeline: Pipeline,
        transitions: Transitions,
        positions: Positions,
        clock_ms: Callable[[], int],
    ) -> None:
        self.sessions = sessions
        self.pipeline = pipeline
        self.transitions = transitions
        self.positions = positions
        self.now = clock_ms
        # Players' names never change: kept (the most recent) so that a socket opening on
        # a game costs no query for them. And the part of a game's full state that only
        # changes with its moves, seats or end, as JSON text: a crowd joining one game shares
        # it (docs/benchmarks.md, "Crowds").
        self._names: OrderedDict[str, str] = OrderedDict()
        self._fixed: OrderedDict[str, tuple[tuple[Any, ...], str, bool]] = OrderedDict()
        self._reads: dict[str, asyncio.Future[GameRow]] = {}  # get_shared's reads to start
        self._reading: set[asyncio.Task[None]] = set()

    # ---- one game ------------------------------------------------------------------------
    async def get(self, game_id: str) -> GameRow:
        """The game as stored now (never only from the cache)."""
        return await self.pipeline.get(game_id)

    async def get_shared(self, game_id: str) -> GameRow:
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

    async def _read_shared(self, game_id: str, pending: asyncio.Future[GameRow]) -> None:
        del self._reads[game_id]  # callers from now on need a read that starts later
        try:
            pending.set_result(await self.get(game_id))
        except asyncio.CancelledError:
            pending.cancel()
            raise
        except Exception as exc:
            pending.set_exception(exc)
            pending.exception()  # retrieved: nobody may be waiting any more

    # ---- players -------------------------------------------------------------------------
    async def players(self, game: GameRow) -> Seats:
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

    def remember_names(self, names: Mapping[str, str]) -> None:
        """Players' names a caller has just read (a pairing round): telling their games
        reads none."""
        for player_id, name in names.items():
            self._names[player_id] = name
            self._names.move_to_end(player_id)
        while len(self._names) > NAMES_KEPT:
            self._names.popitem(last=False)

    @staticmethod
    def seat_of(game: GameRow, player_id: str) -> Side | None:
        return seat_of(game, player_id)

    # ---- the state a client shows --------------------------------------------------------
    def live(self, game: GameRow) -> LiveState:
        grace = None
        if game.status == GameStatus.STARTED and game.days is None:
            grace = {str(side): self.grace_ms(game, side) for side in (Side.FIRST, Side.SECOND)}
        pos = self.positions.get(game)
        return live_state(game, pos, self.now(), self.deadline(game), grace)

    async def state(self, game: GameRow) -> GameState:
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

    async def state_text(self, game: GameRow) -> str:
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

    # ---- deadlines -----------------------------------------------------------------------
    def first_move_deadline(self, game: GameRow) -> int | None:
        return self.transitions.first_move_deadline(game)

    def deadline(self, game: GameRow) -> int | None:
        """The first-move deadline, or a correspondence game's for the side to move."""
        return self.transitions.deadline(game)

    def due_at(self, game: GameRow) -> int | None:
        """When the server must end this game by itself if nothing happens first."""
        return self.transitions.due_at(game)

    def grace_ms(self, game: GameRow, side: str) -> int:
        return self.transitions.grace_ms(game, side)

    # ---- many games ----------------------------------------------------------------------
    async def lobby(self, limit: int = 100) -> dict[str, list[dict[str, Any]]]:
        return await queries.lobby(self.sessions, self.now(), limit)

    async def still_open(self, game_ids: list[str]) -> list[str]:
        return await queries.still_open(self.sessions, game_ids)

    async def live_games(self) -> list[GameRow]:
        # Not through the ORM: with thousands of live games, loading them as ORM objects
        # blocked every game for tens of milliseconds at each sweep.
        rows = await self.pipeline.rows.with_status(GameStatus.STARTED)
        return [to_game(stored.row) for stored in rows]
