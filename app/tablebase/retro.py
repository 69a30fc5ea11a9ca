"""Retrograde analysis over positions kept on disk (reach.Parts), walking the moves backwards.

No move is stored: a position's moves are counted once (``left``, one byte a position: its
moves not yet known to lead to a win), and when a level decides a position, the moves into
it are found by undoing moves (unmoves.py). Level n decides the wins in n plies (a move
into a loss of level n-1) and the losses in n (a position whose last move not known to lead
to a win is counted off by a win of level n-1: every move leads to a win, the slowest in
n-1); what no level decides is a draw. In memory: each position's value (two bytes) and
count (one), a batch of moves, and one part's codes at a time; the positions a level
decides, and the moves into them, wait on disk by part.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from .derive import WIN1, known
from .encoding import U64, Codes
from .moves import LOSS0, UNKNOWN, WIN0, successors
from .reach import BATCH, Parts, unique
from .unmoves import predecessors

Values = np.ndarray[Any, np.dtype[np.uint16]]
Log = Callable[[str], None]
SPARSE = 64  # fewer queries than a part's size / SPARSE: search it through a memory map


def _quiet(_: str) -> None:
    return None


class _Spill:
    """Codes appended to files by part, read back part by part."""

    def __init__(self, parts: Parts, name: str) -> None:
        self.parts, self.name = parts, name
        self.files: dict[int, BinaryIO] = {}

    def path(self, p: int) -> Path:
        return self.parts.folder / f"{self.name}-{p}.bin"

    def add(self, codes: Codes) -> None:
        for p, mine in self.parts.split(codes):
            if p not in self.files:
                self.files[p] = open(self.path(p), "wb")  # noqa: SIM115 - closed in close()
            self.files[p].write(mine.tobytes())

    def close(self) -> None:
        for f in self.files.values():
            f.close()

    def take(self, p: int) -> Codes:
        """Part ``p``'s codes (and forget them)."""
        if p not in self.files:
            return np.zeros(0, dtype=U64)
        codes = np.fromfile(self.path(p), dtype=U64)
        self.path(p).unlink()
        return codes


def _batches_of(path: Path) -> Any:
    """A file of codes, a batch at a time."""
    with open(path, "rb") as f:
        while True:
            codes = np.frombuffer(f.read(BATCH * 8), dtype=U64)
            if not len(codes):
                return
            yield codes


def start(parts: Parts, sizes: list[int], ruleset: str, folder: Path) -> tuple[Values, Any]:
    """Each position's value where it is known from the position alone (derive.py: a game
    over; under `yokai`, a lion to take) or from its moves' positions alone, UNKNOWN
    elsewhere; each position's count of moves to positions not so known to be wins.

    A position's move to a known loss (a game its move ends) makes it a win in 1; a
    position whose every move leads to a known win is a loss in 1 or 2. The positions so
    decided are written by level (``seed-lost-<n>.bin``, ``seed-won-<n>.bin``) for the
    level loop to walk back from; the moves into the known positions themselves need no
    walking back: they were counted here."""
    total = sum(sizes)
    values = np.zeros(total, dtype=np.uint16)
    left = np.zeros(total, dtype=np.uint8)  # at most 36 moves and 36 drops
    seeds: dict[tuple[str, int], BinaryIO] = {}

    def seed(kind: str, level: int, codes: Codes) -> None:
        if len(codes):
            if (kind, level) not in seeds:
                seeds[kind, level] = open(folder / f"seed-{kind}-{level}.bin", "wb")  # noqa: SIM115
            seeds[kind, level].write(codes.tobytes())

    at = 0
    try:
        for p in range(parts.count):
            codes = parts.load(p)
            for a in range(0, len(codes), BATCH):
                batch = codes[a : a + BATCH]
                size = len(batch)
                here = known(batch, ruleset)
                parent, after = successors(batch, ruleset, grouped=False)
                after_known = known(after, ruleset)
                wins = (after_known == WIN0) | (after_known == WIN1)
                degree = np.bincount(parent, minlength=size)
                left_here = degree - np.bincount(parent[wins], minlength=size)
                slowest = np.zeros(size, dtype=np.intp)  # the slowest known win, in plies
                slowest[parent[after_known == WIN1]] = 1
                to_loss = np.zeros(size, dtype=bool)
                to_loss[parent[after_known == LOSS0]] = True
                open_ = here == UNKNOWN
                here[open_ & (degree == 0)] = LOSS0  # no legal move
                lost0 = open_ & (degree == 0)
                won1 = open_ & to_loss
                lost_known = open_ & ~to_loss & (degree > 0) & (left_here == 0)
                here[won1] = WIN1
                here[lost_known] = 2 * (slowest[lost_known] + 1) + 2
                values[at + a : at + a + size] = here
                left[at + a : at + a + size] = left_here
                seed("lost", 0, batch[lost0])
                seed("won", 1, batch[won1])
                for plies in (1, 2):
                    seed("lost", plies, batch[lost_known & (slowest == plies - 1)])
            at += len(codes)
    finally:
        for f in seeds.values():
            f.close()
    return values, left


def _take_seeds(folder: Path, level: int, lost: BinaryIO, won: BinaryIO) -> None:
    """Append the positions the start decided at ``level`` to the level's files."""
    for kind, out in (("lost", lost), ("won", won)):
        path = folder / f"seed-{kind}-{level}.bin"
        if path.exists():
            out.write(path.read_bytes())
            path.unlink()


def _found(codes: Codes, queries: Codes) -> np.ndarray[Any, np.dtype[np.intp]]:
    """Where each query that is among ``codes`` (sorted) stands in it."""
    at = np.searchsorted(codes, queries)
    inside = at < len(codes)
    at, queries = at[inside], queries[inside]
    hit: np.ndarray[Any, np.dtype[np.intp]] = at[codes[at] == queries]
    return hit


def retrograde(
    parts: Parts, sizes: list[int], ruleset: str, log: Log = _quiet
) -> tuple[Values, int]:
    """Each position's value (moves.py's encoding; UNKNOWN left is a draw), in the order of
    the parts, and how many levels it took."""
    folder = parts.folder
    values, left = start(parts, sizes, ruleset, folder)
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    with open(folder / "lost.bin", "wb") as lost, open(folder / "won.bin", "wb") as won:
        _take_seeds(folder, 0, lost, won)
    n = 1
    while (
        (folder / "lost.bin").stat().st_size
        or (folder / "won.bin").stat().st_size
        or any(folder.glob("seed-*.bin"))
    ):
        # The moves into the positions the last level decided, by the part they come from.
        wins, counts = _Spill(parts, "win"), _Spill(parts, "count")
        try:
            for batch in _batches_of(folder / "lost.bin"):
                wins.add(unique(predecessors(batch, ruleset)[1]))
            for batch in _batches_of(folder / "won.bin"):
                counts.add(predecessors(batch, ruleset)[1])
        finally:
            wins.close()
            counts.close()
        new_won = new_lost = 0
        with open(folder / "lost.bin", "wb") as lost, open(folder / "won.bin", "wb") as won:
            for p in range(parts.count):
                into_loss, into_win = wins.take(p), counts.take(p)
                queries = len(into_loss) + len(into_win)
                if not queries:
                    continue
                codes = parts.load(p, mmap=queries * SPARSE < sizes[p])
                base = offsets[p]
                # Wins in n: a move into a loss in n-1.
                local = np.unique(_found(codes, into_loss))  # once, however many moves
                local = local[values[base + local] == UNKNOWN]
                values[base + local] = 2 * n + 1
                won.write(np.asarray(codes[local]).tobytes())
                new_won += len(local)
                # Losses in n: the last move not known to win counted off.
                hit = np.sort(_found(codes, into_win))
                if len(hit):
                    heads, times = np.unique(hit, return_counts=True)
                    left[base + heads] -= times.astype(np.uint8)
                    done = heads[(left[base + heads] == 0) & (values[base + heads] == UNKNOWN)]
                    values[base + done] = 2 * n + 2
                    lost.write(np.asarray(codes[done]).tobytes())
                    new_lost += len(done)
                del codes
            _take_seeds(folder, n, lost, won)
        log(f"  level {n}: {new_won:,} wins, {new_lost:,} losses")
        n += 1
    (folder / "lost.bin").unlink()
    (folder / "won.bin").unlink()
    return values, n - 1
