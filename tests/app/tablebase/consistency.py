"""Whether stored values agree with each other: the definition of a value, checked from a
position to the values of the positions its moves lead to (the moves from moves.py, which
test_moves.py holds to the engine's)."""

from __future__ import annotations

from typing import Any

import numpy as np

from app.tablebase import encoding, moves
from app.tablebase.store import Table


def inconsistent(table: Table, codes: Any, ruleset: str) -> list[int]:
    """The codes among ``codes`` whose stored value disagrees with their moves' values:
    a win in n must have a move to a loss in n-1 and none to a faster loss; a loss in n
    (n > 0) only moves to wins, the slowest in n-1; a draw no move to a loss and one to a
    draw; a loss or win in 0 is a game over (or, for a loss, no legal move)."""
    values = table.stored_many(codes)
    parent, after = moves.successors(codes, ruleset)
    got = table.stored_many(after)
    n = len(codes)
    missing = np.zeros(n, dtype=bool)
    missing[values < 0] = True
    missing[parent[got < 0]] = True
    # Per position: any move to a loss (and the fastest), to a draw, to a win (the slowest).
    big = 1 << 30
    loss = (got > 0) & (got % 2 == 0)
    win = got % 2 == 1
    fastest_loss = np.full(n, big)
    np.minimum.at(fastest_loss, parent[loss], (got[loss] - 2) // 2)
    slowest_win = np.full(n, -1)
    np.maximum.at(slowest_win, parent[win], (got[win] - 1) // 2)
    any_draw = np.zeros(n, dtype=bool)
    any_draw[parent[got == 0]] = True
    degree = np.bincount(parent, minlength=n)
    wins_count = np.bincount(parent[win], minlength=n)
    ended = moves.ended(codes, ruleset)
    plies = np.where(values > 0, (values - 1) // 2, -1)
    is_win = (values > 0) & (values % 2 == 1)
    is_loss = (values > 0) & (values % 2 == 0)
    ok = np.zeros(n, dtype=bool)
    live = ended == encoding.UNKNOWN
    ok |= is_win & live & (plies >= 1) & (fastest_loss == plies - 1)
    ok |= is_loss & live & (plies >= 1) & (wins_count == degree) & (slowest_win == plies - 1)
    ok |= is_loss & (plies == 0) & ((ended == encoding.LOSS0) | (live & (degree == 0)))
    ok |= is_win & (plies == 0) & (ended == encoding.WIN0)
    ok |= (values == 0) & live & (fastest_loss == big) & any_draw
    ok |= (values == 0) & (ended == encoding.END_DRAW)
    return [int(c) for c in codes[~ok | missing]]
