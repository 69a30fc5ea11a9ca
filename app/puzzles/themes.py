"""What a puzzle is about (its themes) and what it is first rated, from its solution alone.

Themes use lichess's keys where the idea is the same: the length (``oneMove``, ``short``,
``long``, ``veryLong``: one, two, three, four or more of the solver's moves) and
``promotion``, and how the game ends: ``mate`` (the opponent's lion attacked with no move
left: under the default ruleset a lion is never captured); Dōbutsu's own: the other ends
(``try``, ``noMoves``, and under ``yokai`` ``lionCapture``) and ``drop`` (the solver drops a
piece from the hand).
"""

from __future__ import annotations

from typing import Any

from engine.core import RuleReason

LION, CHICK, HEN = 1, 4, 5  # the engine's piece codes (engine/games/dobutsu.py)
ENDINGS = {
    RuleReason.CHECKMATE: "mate",
    RuleReason.CAPTURE: "lionCapture",
    RuleReason.TRY: "try",
    RuleReason.NO_MOVES: "noMoves",
}
RATING_FLOOR, RATING_CEILING = 600.0, 2600.0


def length_theme(solver_moves: int) -> str:
    if solver_moves == 1:
        return "oneMove"
    return {2: "short", 3: "long"}.get(solver_moves, "veryLong")


def _promotes(game: Any, pos: Any, move: str) -> bool:
    if "*" in move:
        return False
    before = abs(pos.board[game._square(move[:2], move)])
    after = abs(game.play(pos, move).board[game._square(move[2:4], move)])
    return bool(before == CHICK and after == HEN)


def themes_of(game: Any, pos: Any, solution: list[str]) -> list[str]:
    """The themes of ``solution`` from ``pos`` (the solver to move), in a fixed order."""
    themes = [length_theme((len(solution) + 1) // 2)]
    end = pos
    drop = promotion = False
    for i, move in enumerate(solution):
        if i % 2 == 0:
            drop = drop or "*" in move
            promotion = promotion or _promotes(game, end, move)
        end = game.play(end, move)
    result = game.result(end)
    if result is not None and result.reason in ENDINGS:
        themes.append(ENDINGS[result.reason])
    if drop:
        themes.append("drop")
    if promotion:
        themes.append("promotion")
    return themes


def initial_rating(game: Any, pos: Any, solution: list[str]) -> float:
    """A first estimate, before anyone has tried it: 100 points a ply of solution above
    800, 15 more for each of the solver's legal moves at the start above 10 (more to look
    at, harder to see), and 50 more for a drop in the line (the hand is easily forgotten).
    Players' attempts then move it (Glicko-2, app/puzzles/rating.py)."""
    rating = 800.0 + 100.0 * (len(solution) - 1)
    rating += 15.0 * (len(game.legal_moves(pos)) - 10)
    if any("*" in move for move in solution[::2]):
        rating += 50.0
    return round(min(RATING_CEILING, max(RATING_FLOOR, rating)))
