"""What every alpha-beta search of the bots shares: its score scale, its table's flags, its
pruning settings, its clock and what it reports (players.py's search, the analysis search
of multipv.py and jungle's own search, junglesearch.py).
"""

from __future__ import annotations

from dataclasses import dataclass

MATE = 1_000_000  # a win at the root; a win n plies away scores MATE - n
MATE_BOUND = MATE - 10_000  # scores beyond this are wins or losses, not evaluations
INFINITY = MATE + 1
EXACT, LOWER, UPPER = 0, 1, 2
TABLE_LIMIT = 300_000  # transposition-table entries kept before the table is emptied
CHECK_EVERY = 31  # nodes between two looks at the clock (a mask: 2**n - 1)
# Late move reductions: from this depth, moves after the first few (captures, checks and
# other tactical moves excepted) are searched one ply shallower unless they turn out good.
REDUCE_FROM_DEPTH = 3
REDUCE_AFTER_MOVES = 3
# Null-move pruning: from this depth, a side well ahead that could pass and still stay above
# beta at this many plies less is cut off without searching its moves.
NULL_FROM_DEPTH = 3
NULL_REDUCTION = 2
# A draw counts this much below zero for the searching side: it avoids repeating positions
# unless every other move looks worse than that.
CONTEMPT = 30


class _OutOfTime(Exception):
    """Unwinds the search when the budget is spent."""


@dataclass
class SearchInfo:
    """What the last search did, for logs, tests and the bench."""

    move: str = ""
    score: int | None = None  # None: nothing was searched (one legal move, or no time)
    depth: int = 0
    nodes: int = 0
    seconds: float = 0.0


def mate_shift(score: int, plies: int) -> int:
    """A win's or loss's score ``plies`` further from the root. The table keeps them as
    distances from the stored position (shifted by +ply going in, -ply coming out)."""
    if score >= MATE_BOUND:
        return score + plies
    if score <= -MATE_BOUND:
        return score - plies
    return score


def table_score(
    entry: tuple[int, int, int, object], depth: int, alpha: int, beta: int, ply: int
) -> int | None:
    """The stored score when a transposition-table entry decides the node: searched at least
    as deep, and exact or a bound already outside the window; else None."""
    e_depth, e_score, e_flag, _ = entry
    if e_depth < depth:
        return None
    score = mate_shift(e_score, -ply)
    if (
        e_flag == EXACT
        or (e_flag == LOWER and score >= beta)
        or (e_flag == UPPER and score <= alpha)
    ):
        return score
    return None
