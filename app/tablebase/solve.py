"""Retrograde analysis: every position reachable from a start, each one's value and distance.

Three steps, compiled (numba) and on both cores, over stored keys (encoding.py) held as one
bit a key (keyset.py):

1. ``reach.reachable``: breadth-first from the start, level by level;
2. ``retro.leave_out_known``: every position counted by its value where the position alone
   gives it (kernels.known), and under `yokai` those taken out: the table leaves them out;
3. ``retro.retrograde``: the others' values level by level from the games' ends, the moves
   into each decided position found by undoing moves rather than stored.

Memory holds the bits (4 GiB at most), a rank every eight words, and three bytes a position
solved (value and count of moves); a level of the search waits on disk.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from app.core.time import Clock

from . import kernels
from .encoding import UNKNOWN
from .keyset import KeySet
from .reach import reachable
from .retro import BLOCKS, leave_out_known, retrograde

Log = Callable[[str], None]
Array = np.ndarray[Any, Any]


def _quiet(_: str) -> None:
    return None


@dataclass
class Solved:
    """The positions reachable from a start: those solved (``stored``, each one's value in
    ``values`` by its rank) and counts of all of them."""

    ruleset: str
    stored: KeySet
    values: Array
    positions: int  # reachable, the ones known from the position alone included
    known: dict[str, int]  # the known ones left out (yokai), by category
    symmetric: int  # positions that are their own mirror image
    moves: int
    levels: int
    seconds: dict[str, float]
    every: Array | None = field(default=None)  # all reachable keys, if asked (small problems)

    def value_of(self, code: int) -> int | None:
        """The solver's value of one canonical code (None: not reachable)."""
        if self.ruleset == "yokai" and (value := kernels.known(code, True)) != UNKNOWN:
            return value
        at = self.stored.rank_of(kernels.key(code))
        return None if at < 0 else int(self.values[at])

    def sorted(self) -> tuple[Array, Array]:
        """All reachable codes, sorted, and their values (for problems solved with
        ``every``: all in memory)."""
        if self.every is None:
            raise ValueError("solve(..., every=True) lists every position")
        codes = np.array([kernels.code_of_key(int(k)) for k in self.every], dtype=np.uint64)
        codes.sort()
        values = np.array([self.value_of(int(c)) for c in codes], dtype=np.uint16)
        return codes, values


def solve(
    start: Array, ruleset: str, folder: Path, clock: Clock, log: Log = _quiet, every: bool = False
) -> Solved:
    """Every position reachable from ``start`` (canonical working codes) and its value; a
    level of the search waits in ``folder`` (made afresh). ``clock`` times the steps;
    ``every``: keep every reachable key in memory (small problems)."""
    shutil.rmtree(folder, ignore_errors=True)
    seconds: dict[str, float] = {}
    t = clock.monotonic()
    found, moves = reachable(start, ruleset, folder, log)
    shutil.rmtree(folder, ignore_errors=True)
    seconds["reachable"] = clock.monotonic() - t
    t = clock.monotonic()
    positions = len(found)
    listed = found.keys() if every else None
    tally = np.zeros((BLOCKS, 4), dtype=np.int64)
    leave_out_known(found.words, found.pages, ruleset == "yokai", tally)
    wins, draws, losses, symmetric = (int(n) for n in tally.sum(axis=0))
    found.freeze()
    seconds["known"] = clock.monotonic() - t
    t = clock.monotonic()
    values, levels = retrograde(found, ruleset, log)
    seconds["retrograde"] = clock.monotonic() - t
    known = {"wins": wins, "draws": draws, "losses": losses}
    return Solved(
        ruleset, found, values, positions, known, symmetric, moves, levels, seconds, listed
    )
