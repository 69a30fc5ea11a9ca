"""Retrograde analysis: every position reachable from a start, each one's value and distance.

Two steps, in numpy over working codes (encoding.py) kept on disk in parts (reach.Parts):

1. ``reach.reachable``: breadth-first from the start, level by level, each part's positions
   one sorted file;
2. ``retro.retrograde``: the values level by level from the games' ends, the moves into
   each decided position found by undoing moves (unmoves.py) rather than stored.

Memory holds three bytes a position (value and count of moves) and batches; the codes stay
on disk.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from app.core.time import Clock

from .encoding import U64, Codes
from .reach import Parts, reachable
from .retro import Values, retrograde

Log = Callable[[str], None]
PART_BITS = 6  # 64 parts: a part of the largest table is a few hundred MB of codes


def _quiet(_: str) -> None:
    return None


@dataclass
class Solved:
    """Every reachable position (in ``parts``, ``sizes[p]`` in part p) and its value
    (``values``, part after part, each part in the order of its codes)."""

    parts: Parts
    sizes: list[int]
    values: Values
    moves: int
    levels: int
    seconds: dict[str, float]

    def chunks(self) -> Iterator[tuple[Codes, Values]]:
        """Each part's codes and their values."""
        at = 0
        for p, size in enumerate(self.sizes):
            yield self.parts.load(p), self.values[at : at + size]
            at += size

    def sorted(self) -> tuple[Codes, Values]:
        """All codes, sorted, and their values (for small problems: all in memory)."""
        codes = np.concatenate([c for c, _ in self.chunks()])
        order = np.argsort(codes)
        return codes[order], self.values[order]

    def value_of(self, code: int) -> int | None:
        """The solver's value of one canonical code (None: not reachable)."""
        p = int(self.parts.of(np.array([code], dtype=U64))[0])
        codes = self.parts.load(p)
        at = int(np.searchsorted(codes, U64(code)))
        if at == len(codes) or int(codes[at]) != code:
            return None
        return int(self.values[sum(self.sizes[:p]) + at])


def solve(
    start: Codes,
    ruleset: str,
    folder: Path,
    clock: Clock,
    log: Log = _quiet,
    bits: int = PART_BITS,
) -> Solved:
    """Every position reachable from ``start`` and its value, the codes in ``folder`` (made
    afresh); ``clock`` times the steps."""
    shutil.rmtree(folder, ignore_errors=True)
    parts = Parts(folder, bits)
    seconds: dict[str, float] = {}
    t = clock.monotonic()
    sizes, moves = reachable(start, ruleset, parts, log)
    seconds["reachable"] = clock.monotonic() - t
    t = clock.monotonic()
    values, levels = retrograde(parts, sizes, ruleset, log)
    seconds["retrograde"] = clock.monotonic() - t
    return Solved(parts, sizes, values, moves, levels, seconds)
