"""Retrograde analysis: every position reachable from a start, each one's value and distance.

Three steps, all in numpy over working codes (encoding.py), the moves from moves.py:

1. ``reachable``: breadth-first from the start, level by level; the positions seen so far
   are one sorted array, each level's new ones merged in.
2. ``edges``: each position's successors as indices into that sorted array (CSR: offsets
   and one uint32 array of successors), by binary search.
3. ``retrograde``: the edges turned round (``predecessors``), then level by level from the
   games' ends: level n decides the wins in n plies (a move to a loss in n-1) and the losses
   in n (every move to a win, the slowest in n-1); what no level decides is a draw. Each
   move is looked at once.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from app.core.time import Clock

from .encoding import Codes
from .moves import LOSS0, UNKNOWN, WIN0, ended, successors

Values = np.ndarray[Any, np.dtype[np.uint16]]
Log = Callable[[str], None]

CHUNK = 1 << 18  # positions a batch: ~5M successors, ~150 MB of temporaries


def _quiet(_: str) -> None:
    return None


def _batches(n: int, size: int = CHUNK) -> list[tuple[int, int]]:
    return [(i, min(n, i + size)) for i in range(0, n, size)]


def unique(codes: Codes) -> Codes:
    """Sorted and without repeats (np.unique, but with numpy's fast sort)."""
    codes = np.sort(codes)
    keep = np.ones(len(codes), dtype=bool)
    np.not_equal(codes[1:], codes[:-1], out=keep[1:])
    result: Codes = codes[keep]
    return result


def _member(sorted_codes: Codes, codes: Codes) -> np.ndarray[Any, np.dtype[np.bool_]]:
    at = np.searchsorted(sorted_codes, codes)
    at[at == len(sorted_codes)] = 0
    found: np.ndarray[Any, np.dtype[np.bool_]] = sorted_codes[at] == codes
    return found


def reachable(start: Codes, ruleset: str, log: Log = _quiet) -> tuple[Codes, int]:
    """Every canonical position reachable from ``start`` (sorted, unique), and how many
    moves they have in all."""
    seen = unique(start)
    frontier = seen
    level = 0
    moves = 0
    while len(frontier):
        found: list[Codes] = []
        for a, b in _batches(len(frontier)):
            _, after = successors(frontier[a:b], ruleset, grouped=False)
            moves += len(after)
            after = unique(after)
            found.append(after[~_member(seen, after)])
        frontier = unique(np.concatenate(found)) if found else frontier[:0]
        # Both sorted: a stable sort (timsort) merges the two runs in linear time.
        seen = np.sort(np.concatenate([seen, frontier]), kind="stable")
        level += 1
        log(f"  level {level}: {len(frontier):,} new, {len(seen):,} in all")
    return seen, moves


@dataclass
class Graph:
    """Each position's moves: ``degree[i]`` of them, to the positions ``succ[...]`` (all
    positions' moves in order, position by position)."""

    degree: np.ndarray[Any, np.dtype[np.uint8]]
    succ: np.ndarray[Any, np.dtype[np.uint32]]


def edges(codes: Codes, ruleset: str, moves: int, log: Log = _quiet) -> Graph:
    """The move graph over ``codes`` (sorted; every successor must be among them), whose
    positions have ``moves`` moves in all."""
    degree = np.zeros(len(codes), dtype=np.uint8)  # at most 7 pieces x 8 steps + drops
    succ = np.empty(moves, dtype=np.uint32)
    at = 0
    for a, b in _batches(len(codes)):
        parent, after = successors(codes[a:b], ruleset)
        degree[a:b] = np.bincount(parent, minlength=b - a)
        # Sorted queries make the binary searches walk memory in order.
        order = np.argsort(after)
        found = np.empty(len(after), dtype=np.int64)
        found[order] = np.searchsorted(codes, after[order])
        if len(found) and (found.max() >= len(codes) or np.any(codes[found] != after)):
            raise ValueError("a successor is missing from the positions")
        if at + len(found) > moves:
            raise ValueError("more moves than counted")
        succ[at : at + len(found)] = found
        at += len(found)
        if (b // CHUNK) % 64 == 0:
            log(f"  edges: {b:,} of {len(codes):,} positions")
    if at != moves:
        raise ValueError("fewer moves than counted")
    return Graph(degree, succ)


@dataclass
class Reverse:
    """Each position's predecessors: ``pred[starts[i]:starts[i + 1]]``, once a move."""

    starts: np.ndarray[Any, np.dtype[np.int64]]
    pred: np.ndarray[Any, np.dtype[np.uint32]]

    def of(self, positions: np.ndarray[Any, Any]) -> np.ndarray[Any, np.dtype[np.uint32]]:
        """The predecessors of ``positions``, once a move (repeats included)."""
        first = self.starts[positions]
        count = self.starts[positions + 1] - first
        total = int(count.sum())
        ahead = np.zeros(len(count), dtype=np.int64)
        np.cumsum(count[:-1], out=ahead[1:])
        index = np.repeat(first - ahead, count) + np.arange(total)
        found: np.ndarray[Any, np.dtype[np.uint32]] = self.pred[index]
        return found


def _sizes(starts: np.ndarray[Any, Any], total: int) -> np.ndarray[Any, np.dtype[np.int64]]:
    """The lengths of the runs that begin at ``starts`` (sorted) in ``total`` items."""
    sizes: np.ndarray[Any, np.dtype[np.int64]] = np.diff(np.append(starts, total))
    return sizes


def predecessors(graph: Graph, log: Log = _quiet) -> Reverse:
    """The graph's edges turned round (a counting sort by successor). Empties ``graph``."""
    succ, degree = graph.succ, graph.degree
    n = len(degree)
    cursor = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(succ, minlength=n), out=cursor[1:])
    pred = np.empty(len(succ), dtype=np.uint32)
    at = 0
    for a, b in _batches(n, 1 << 21):
        count = int(degree[a:b].sum(dtype=np.int64))
        targets = succ[at : at + count]
        sources = np.repeat(np.arange(a, b, dtype=np.uint32), degree[a:b])
        order = np.argsort(targets, kind="stable")
        targets, sources = targets[order], sources[order]
        # The k-th move of this batch into a target goes k places after its cursor.
        new_group = np.ones(len(targets), dtype=bool)
        np.not_equal(targets[1:], targets[:-1], out=new_group[1:])
        group_start = np.flatnonzero(new_group)
        sizes = _sizes(group_start, len(targets))
        rank = np.arange(len(targets)) - np.repeat(group_start, sizes)
        pred[cursor[targets] + rank] = sources
        cursor[targets[group_start]] += sizes
        at += count
    graph.succ = np.zeros(0, dtype=np.uint32)
    del succ
    # Each cursor now stands at the end of its position's predecessors: shift them back.
    cursor[1:] = cursor[:-1].copy()
    cursor[0] = 0
    log(f"  predecessors: {len(pred):,} moves turned round")
    return Reverse(cursor, pred)


def retrograde(values: Values, graph: Graph, log: Log = _quiet) -> None:
    """Each position's value, in ``values`` (moves.py's encoding), which holds on entry what
    ``ended`` says of each; UNKNOWN left at the end is a draw.

    Level n decides the wins in n (a move to a loss in n-1: the predecessors of the losses
    of level n-1) and the losses in n (every move to a win: a position whose count of moves
    not yet known to win reaches zero as the wins of level n-1 are counted off). Empties
    ``graph``."""
    left = graph.degree.copy()  # moves not yet known to lead to a win
    values[(values == UNKNOWN) & (left == 0)] = LOSS0  # no legal move
    reverse = predecessors(graph, log)
    lost = np.flatnonzero(values == LOSS0)
    won = np.flatnonzero(values == WIN0)
    n = 1
    while len(lost) or len(won):
        new_won: list[np.ndarray[Any, Any]] = []
        for a, b in _batches(len(lost), 1 << 21):
            found = reverse.of(lost[a:b])
            found = found[values[found] == UNKNOWN]
            values[found] = 2 * n + 1
            new_won.append(found)
        new_lost: list[np.ndarray[Any, Any]] = []
        for a, b in _batches(len(won), 1 << 21):
            found = np.sort(reverse.of(won[a:b]))
            if not len(found):
                continue
            group = np.ones(len(found), dtype=bool)
            np.not_equal(found[1:], found[:-1], out=group[1:])
            starts = np.flatnonzero(group)
            heads = found[starts]
            left[heads] -= _sizes(starts, len(found)).astype(np.uint8)
            done = heads[(left[heads] == 0) & (values[heads] == UNKNOWN)]
            values[done] = 2 * n + 2
            new_lost.append(done)
        won = unique_positions(new_won)
        lost = unique_positions(new_lost)
        log(f"  level {n}: {len(won):,} wins, {len(lost):,} losses")
        n += 1


def unique_positions(parts: list[np.ndarray[Any, Any]]) -> np.ndarray[Any, np.dtype[np.int64]]:
    if not parts:
        return np.zeros(0, dtype=np.int64)
    return unique(np.concatenate(parts).astype(np.uint64)).astype(np.int64)


@dataclass
class Solved:
    codes: Codes
    values: Values
    seconds: dict[str, float]


def solve(start: Codes, ruleset: str, clock: Clock, log: Log = _quiet) -> Solved:
    """Every position reachable from ``start`` and its value (``clock`` times the steps)."""
    seconds: dict[str, float] = {}
    t = clock.monotonic()
    codes, moves = reachable(start, ruleset, log)
    seconds["reachable"] = clock.monotonic() - t
    t = clock.monotonic()
    graph = edges(codes, ruleset, moves, log)
    seconds["edges"] = clock.monotonic() - t
    t = clock.monotonic()
    values = np.zeros(len(codes), dtype=np.uint16)
    for a, b in _batches(len(codes)):
        values[a:b] = ended(codes[a:b], ruleset)
    # The codes wait on disk while the moves, turned round, take their place in memory.
    with tempfile.TemporaryFile() as parked:
        np.save(parked, codes)
        del codes
        retrograde(values, graph, log)
        parked.seek(0)
        codes = np.load(parked)
    seconds["retrograde"] = clock.monotonic() - t
    return Solved(codes, values, seconds)
