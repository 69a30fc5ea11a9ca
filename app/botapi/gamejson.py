"""lichess's JSON of our games, for the bot API: the ``gameFull`` and ``gameState`` lines of
a game stream, the ``game`` of a ``gameStart`` / ``gameFinish`` event, and the parts they share
(players, clocks, speeds, lichess's status ids).

Sides: the API says ``white`` for our ``first`` player and ``black`` for ``second``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

import engine
from app.db.models import GameRow, Player
from app.domain.enums import ENDED, GameStatus, Side
from app.games import clock, has_moved, initial_text
from app.games.timecontrol import DAY_MS, speed_of
from app.ratings.reading import Change, seat_rating

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
    game: GameRow, side: Side, players: Mapping[str, PlayerInfo]
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
    game: GameRow,
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


def speed_of_game(game: GameRow) -> str:
    return speed_of(game.clock_initial_ms, game.clock_increment_ms, game.clock_byoyomi_ms)


def clock_json(game: GameRow) -> dict[str, int] | None:
    """gameFull's ``clock`` (ms), with byo-yomi's period and periods when it has them."""
    if game.clock_initial_ms is None:
        return None
    data = {"initial": game.clock_initial_ms, "increment": game.clock_increment_ms or 0}
    if game.clock_byoyomi_ms is not None and game.clock_periods is not None:
        data["byoyomi"] = game.clock_byoyomi_ms
        data["periods"] = game.clock_periods
    return data


def event_game(
    game: GameRow,
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
