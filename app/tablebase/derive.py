"""Values known from the position alone, which the `yokai` table does not store.

Under `yokai` a game is over once a lion is taken or stands safe on its last rank (the value
``moves.ended`` gives), and a side that can take the other's lion wins in one ply: nothing
is faster. These positions are most of the ruleset's reachable ones (declining to take a
lion is legal, so the games that follow are many), and their values need no table. Under
`dobutsu` a lion can never be taken and the table stores every position.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .encoding import ATTACKED_BY_THEM, ATTACKED_BY_US, FILES, SQUARES, THEIRS, Codes, L
from .moves import END_DRAW, LOSS0, UNKNOWN, WIN0, _attackers, _lion, ended, nibbles

WIN1 = 3  # the solver's value of a win in one ply
DERIVED = {"yokai"}  # the rulesets whose tables leave these positions out


def known(codes: Codes, ruleset: str) -> np.ndarray[Any, np.dtype[np.uint16]]:
    """The solver's value of each position whose value the position alone gives, under any
    ruleset: a game over (``moves.ended``) or, under `yokai`, a lion to take (a win in 1);
    UNKNOWN elsewhere."""
    values = ended(codes, ruleset)
    if ruleset == "yokai":
        nib = nibbles(codes)
        theirs, _ = _lion(nib, L | THEIRS)
        takes, _ = _attackers(nib, theirs, ATTACKED_BY_US)
        values[(values == UNKNOWN) & (takes > 0)] = WIN1
    return values


def derived(codes: Codes, ruleset: str) -> np.ndarray[Any, np.dtype[np.uint16]]:
    """``known`` where the ruleset's table leaves those positions out (DERIVED), else
    UNKNOWN everywhere (vectorised ``derived_one``)."""
    if ruleset not in DERIVED:
        return np.zeros(len(codes), dtype=np.uint16)
    return known(codes, ruleset)


def _attacked(board: list[int], target: int, table: np.ndarray[Any, Any]) -> bool:
    base = target * 192
    return any(table[base + sq * 16 + p] for sq, p in enumerate(board) if p)


def derived_one(code: int, ruleset: str) -> int:
    """``derived`` of one working code, in plain Python (for lookups)."""
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
