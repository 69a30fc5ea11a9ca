"""Values known from the position alone, which the `yokai` table does not store.

Under `yokai` a game is over once a lion is taken or stands safe on its last rank, and a side
that can take the other's lion wins in one ply: nothing is faster. These positions are most
of the ruleset's reachable ones (declining to take a lion is legal, so the games that follow
are many), and their values need no table. Under `dobutsu` a lion can never be taken and the
table stores every position. The solver's compiled ``kernels.known`` gives the same values;
this is its plain-Python twin, for the server, which compiles nothing.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .encoding import (
    ATTACKED_BY_THEM,
    ATTACKED_BY_US,
    END_DRAW,
    FILES,
    LOSS0,
    SQUARES,
    THEIRS,
    UNKNOWN,
    WIN0,
    WIN1,
    Codes,
    L,
)

DERIVED = {"yokai"}  # the rulesets whose tables leave these positions out


def derived(codes: Codes, ruleset: str) -> np.ndarray[Any, np.dtype[np.uint16]]:
    """``derived_one`` of each code (a table's lookups: a few codes at a time)."""
    return np.array([derived_one(int(c), ruleset) for c in codes], dtype=np.uint16)


def _attacked(board: list[int], target: int, table: np.ndarray[Any, Any]) -> bool:
    base = target * 192
    return any(table[base + sq * 16 + p] for sq, p in enumerate(board) if p)


def derived_one(code: int, ruleset: str) -> int:
    """The value of a working code that the position alone gives (a game over, a lion to
    take), where the ruleset's table leaves such positions out (DERIVED); else UNKNOWN."""
    if ruleset not in DERIVED:
        return UNKNOWN
    board = [(code >> (4 * sq)) & 15 for sq in range(SQUARES)]
    if L not in board:
        return LOSS0  # our lion was taken
    ours, theirs = board.index(L), board.index(L | THEIRS)
    their_safe = theirs < FILES and not _attacked(board, theirs, ATTACKED_BY_US)
    our_safe = ours >= SQUARES - FILES and not _attacked(board, ours, ATTACKED_BY_THEM)
    if our_safe and their_safe:
        return END_DRAW
    if their_safe:
        return LOSS0
    if our_safe:
        return WIN0
    return WIN1 if _attacked(board, theirs, ATTACKED_BY_US) else UNKNOWN
