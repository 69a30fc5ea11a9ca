"""Every position reachable from a start, found breadth-first with the positions on disk.

The positions are split into parts by a hash of their code; each part's positions seen so
far are one sorted file. A level's moves are generated a batch at a time, and each batch's
successors appended to their part's file of candidates; then each part in turn reads its
candidates and its seen positions, keeps the new ones and writes both back. Memory holds a
batch's moves and one part at a time, whatever the number of positions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from .encoding import U64, Codes
from .moves import successors

Log = Callable[[str], None]
BATCH = 1 << 18  # positions a batch of moves: ~5M successors, ~150 MB of temporaries
MIX = U64(0x9E3779B97F4A7C15)  # Fibonacci hashing: the high bits of code * MIX


def _quiet(_: str) -> None:
    return None


def unique(codes: Codes) -> Codes:
    """Sorted and without repeats (np.unique, but with numpy's fast sort)."""
    codes = np.sort(codes)
    keep = np.ones(len(codes), dtype=bool)
    np.not_equal(codes[1:], codes[:-1], out=keep[1:])
    result: Codes = codes[keep]
    return result


def member(sorted_codes: Codes, codes: Codes) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """Which of ``codes`` are in ``sorted_codes``."""
    if not len(sorted_codes):
        return np.zeros(len(codes), dtype=bool)
    at = np.searchsorted(sorted_codes, codes)
    at[at == len(sorted_codes)] = 0
    found: np.ndarray[Any, np.dtype[np.bool_]] = sorted_codes[at] == codes
    return found


class Parts:
    """Positions split into ``2**bits`` parts by a hash of their code, each part a sorted
    array of codes in ``folder``: ``part-<p>.npy``."""

    def __init__(self, folder: Path, bits: int) -> None:
        self.folder, self.bits, self.count = folder, bits, 1 << bits
        folder.mkdir(parents=True, exist_ok=True)

    def of(self, codes: Codes) -> np.ndarray[Any, np.dtype[np.intp]]:
        """The part of each code."""
        if not self.bits:
            return np.zeros(len(codes), dtype=np.intp)
        part: np.ndarray[Any, np.dtype[np.intp]] = ((codes * MIX) >> U64(64 - self.bits)).astype(
            np.intp
        )
        return part

    def path(self, p: int, name: str = "part") -> Path:
        return self.folder / f"{name}-{p}.npy"

    def load(self, p: int, name: str = "part", mmap: bool = False) -> Codes:
        path = self.path(p, name)
        if not path.exists():
            return np.zeros(0, dtype=U64)
        codes: Codes = np.load(path, mmap_mode="r" if mmap else None)
        return codes

    def save(self, p: int, codes: np.ndarray[Any, Any], name: str = "part") -> None:
        np.save(self.path(p, name), codes, allow_pickle=False)

    def split(self, codes: Codes) -> Iterator[tuple[int, Codes]]:
        """``codes`` by part (each part's in the order given)."""
        part = self.of(codes)
        order = np.argsort(part, kind="stable")
        bounds = np.searchsorted(part[order], np.arange(self.count + 1))
        for p in range(self.count):
            if bounds[p] < bounds[p + 1]:
                yield p, codes[order[bounds[p] : bounds[p + 1]]]


def reachable(start: Codes, ruleset: str, parts: Parts, log: Log = _quiet) -> tuple[list[int], int]:
    """Write every canonical position reachable from ``start`` into ``parts`` (each part
    sorted); how many positions each part holds, and how many moves they have in all."""
    sizes = [0] * parts.count
    for p in range(parts.count):
        parts.save(p, np.zeros(0, dtype=U64))
        parts.save(p, np.zeros(0, dtype=U64), "new")
    for p, codes in parts.split(unique(start)):
        parts.save(p, codes)
        parts.save(p, codes, "new")
        sizes[p] = len(codes)
    level, moves, fresh = 0, 0, len(start)
    while fresh:
        found = [open(parts.folder / f"found-{p}.bin", "wb") for p in range(parts.count)]  # noqa: SIM115
        try:
            for q in range(parts.count):
                frontier = parts.load(q, "new")
                for a in range(0, len(frontier), BATCH):
                    _, after = successors(frontier[a : a + BATCH], ruleset, grouped=False)
                    moves += len(after)
                    for p, codes in parts.split(unique(after)):
                        found[p].write(codes.tobytes())
        finally:
            for f in found:
                f.close()
        fresh = 0
        for p in range(parts.count):
            where = parts.folder / f"found-{p}.bin"
            candidates = unique(np.fromfile(where, dtype=U64))
            where.unlink()
            seen = parts.load(p)
            new = candidates[~member(seen, candidates)]
            del candidates
            parts.save(p, new, "new")
            # Both sorted: a stable sort (timsort) merges the two runs in linear time.
            parts.save(p, np.sort(np.concatenate([seen, new]), kind="stable"))
            sizes[p] += len(new)
            fresh += len(new)
        level += 1
        log(f"  level {level}: {fresh:,} new, {sum(sizes):,} in all")
    for p in range(parts.count):
        parts.path(p, "new").unlink()
    return sizes, moves
