"""Fischer clocks, computed on the server from the stored state (pure functions).

A side's remaining time is stored as of ``turn_started_ms``; the side to move's time runs
from then. Clocks start once both sides have made their first move (before that, the
first-move deadline applies instead), so nobody loses time while the opponent is arriving.
"""

from __future__ import annotations

from ..domain.enums import GameStatus, Side
from ..models import Game


def side_to_move(game: Game) -> Side:
    # Every position string has the side to move as its second field ('f' or 's').
    return Side.FIRST if game.fen.split(" ", 2)[1] == "f" else Side.SECOND


def running(game: Game) -> bool:
    return game.status == GameStatus.STARTED and game.clock_initial_ms is not None and game.ply >= 2


def remaining(game: Game, now_ms: int) -> dict[str, int] | None:
    """Both sides' remaining time at ``now_ms`` (never below zero); None without a clock."""
    if game.clock_initial_ms is None or game.first_ms is None or game.second_ms is None:
        return None
    times = {"first": game.first_ms, "second": game.second_ms}
    if running(game) and game.turn_started_ms is not None:
        side = side_to_move(game)
        times[side] = max(0, times[side] - (now_ms - game.turn_started_ms))
    return times


def flag_at(game: Game) -> int | None:
    """When the side to move runs out of time, if its clock is running."""
    if not running(game) or game.turn_started_ms is None:
        return None
    left = game.first_ms if side_to_move(game) == Side.FIRST else game.second_ms
    return None if left is None else game.turn_started_ms + left


def charge(game: Game, side: str, now_ms: int) -> int | None:
    """The mover's time after its move: time since its turn began charged, increment added.

    None without a clock. The caller has checked the flag has not fallen."""
    before = game.first_ms if side == Side.FIRST else game.second_ms
    if before is None or not running(game) or game.turn_started_ms is None:
        return before
    return max(0, before - (now_ms - game.turn_started_ms)) + (game.clock_increment_ms or 0)
