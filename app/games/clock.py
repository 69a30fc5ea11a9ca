"""Clocks, computed on the server from the stored state (pure functions): Fischer, byo-yomi
(app/games/timecontrol.py) and correspondence deadlines.

A side's remaining main time (and byo-yomi periods) is stored as of ``turn_started_ms``; the
side to move's time runs from then. Clocks start once both sides have made their first move
(before that, the first-move deadline applies instead), so nobody loses time while the
opponent is arriving. A correspondence game has no clock: the side to move must move within
its days of ``turn_started_ms``, from the start of the game.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.db.models import GameRow
from app.domain.enums import GameStatus, Side
from app.games.timecontrol import DAY_MS


def side_to_move(game: GameRow) -> Side:
    # Every position string has the side to move as its second field ('f' or 's').
    return Side.FIRST if game.fen.split(" ", 2)[1] == "f" else Side.SECOND


def running(game: GameRow) -> bool:
    return game.status == GameStatus.STARTED and game.clock_initial_ms is not None and game.ply >= 2


@dataclass(frozen=True, slots=True)
class Spent:
    """A side's clock after some time on it: main time left, byo-yomi periods left (None: not
    byo-yomi; 0: flagged) and, once the main time is out, the time left in its current period
    (None: main time left, or not byo-yomi)."""

    main: int
    periods: int | None
    period: int | None


def spend(main: int, periods: int | None, byoyomi: int | None, elapsed: int) -> Spent:
    """``elapsed`` ms charged to a clock with ``main`` ms and ``periods`` periods left."""
    if elapsed < main or byoyomi is None or periods is None:
        return Spent(max(0, main - elapsed), periods, None)
    over = elapsed - main
    left = periods - over // byoyomi  # each whole period run over is used up
    if left <= 0:
        return Spent(0, 0, 0)
    return Spent(0, left, byoyomi - over % byoyomi)


def _stored(game: GameRow, side: str) -> tuple[int | None, int | None]:
    if side == Side.FIRST:
        return game.first_ms, game.first_periods
    return game.second_ms, game.second_periods


def now_of(game: GameRow, side: str, now_ms: int) -> Spent | None:
    """``side``'s clock at ``now_ms``; None without a clock."""
    main, periods = _stored(game, side)
    if game.clock_initial_ms is None or main is None:
        return None
    elapsed = 0
    if running(game) and game.turn_started_ms is not None and side_to_move(game) == side:
        elapsed = now_ms - game.turn_started_ms
    return spend(main, periods, game.clock_byoyomi_ms, elapsed)


def remaining(game: GameRow, now_ms: int) -> dict[str, int] | None:
    """Both sides' remaining main time at ``now_ms`` (never below zero); None without a
    clock."""
    first, second = now_of(game, Side.FIRST, now_ms), now_of(game, Side.SECOND, now_ms)
    if first is None or second is None:
        return None
    return {"first": first.main, "second": second.main}


def total_left(game: GameRow, side: str, now_ms: int) -> int | None:
    """All the time ``side`` may still use, main time and periods: its clock's, or until its
    correspondence deadline (the whole days when it is not its turn). None: no limit."""
    if game.days is not None:
        due = deadline_at(game)
        if due is None or side_to_move(game) != side:
            return game.days * DAY_MS
        return max(0, due - now_ms)
    spent = now_of(game, side, now_ms)
    if spent is None:
        return None
    if spent.periods is None or game.clock_byoyomi_ms is None:
        return spent.main
    if spent.period is None:
        return spent.main + spent.periods * game.clock_byoyomi_ms
    return spent.period + (spent.periods - 1) * game.clock_byoyomi_ms


def flag_at(game: GameRow) -> int | None:
    """When the side to move runs out of time (main time and every period), if its clock
    is running."""
    if not running(game) or game.turn_started_ms is None:
        return None
    main, periods = _stored(game, side_to_move(game))
    if main is None:
        return None
    extra = (periods or 0) * (game.clock_byoyomi_ms or 0)
    return game.turn_started_ms + main + extra


def deadline_at(game: GameRow) -> int | None:
    """A correspondence game's deadline for the side to move (None: not one, or not
    being played)."""
    if game.days is None or game.status != GameStatus.STARTED or game.turn_started_ms is None:
        return None
    return game.turn_started_ms + game.days * DAY_MS


def charge(game: GameRow, side: str, now_ms: int) -> None:
    """Charge the mover the time since its turn began, add the increment; a byo-yomi period
    the move was made within is not used up. Without a running clock, nothing changes. The
    caller has checked the flag has not fallen."""
    main, periods = _stored(game, side)
    if main is None or not running(game) or game.turn_started_ms is None:
        return
    spent = spend(main, periods, game.clock_byoyomi_ms, now_ms - game.turn_started_ms)
    after = spent.main + (game.clock_increment_ms or 0)
    set_side(game, side, after, spent.periods)


def set_side(game: GameRow, side: str, main: int, periods: int | None) -> None:
    if side == Side.FIRST:
        game.first_ms, game.first_periods = main, periods
    else:
        game.second_ms, game.second_periods = main, periods


def stop(game: GameRow, now_ms: int) -> None:
    """Store both clocks as they stand at ``now_ms`` (the game ends)."""
    if not running(game) or game.turn_started_ms is None:
        return
    for side in (Side.FIRST, Side.SECOND):
        spent = now_of(game, side, now_ms)
        if spent is not None:
            set_side(game, side, spent.main, spent.periods)
