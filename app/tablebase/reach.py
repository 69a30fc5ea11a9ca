"""Every position reachable from a start, found breadth-first into a KeySet.

A level's positions are a sorted array of keys. Both cores expand it a block at a time
(compiled, kernels.py): each successor's key is put in the set, and the new ones make the
next level, written to disk while the level runs. Two threads can set bits of one word at
once and lose one (keyset.add), so a position may be found twice in a level: sorting the
level drops the repeats, and its keys are set again.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from numba import get_num_threads, njit, prange

from . import kernels
from .encoding import UNKNOWN
from .keyset import KeySet, add, add_all

Log = Callable[[str], None]
Array = np.ndarray[Any, Any]
CHUNK = 1 << 16  # positions a call: ~50 MB of room for their moves


def _quiet(_: str) -> None:
    return None


@njit(cache=True, parallel=True)
def _expand(
    level: Array, yokai: bool, words: Array, pages: Array, out: Array, found: Array, moved: Array
) -> None:
    """The keys of ``level``'s moves not yet in the set, put in it: block b's in ``out``
    from ``b * room``, ``found[b]`` of them; ``moved[b]``: its moves in all."""
    blocks = len(found)
    per = (len(level) + blocks - 1) // blocks
    room = per * kernels.MAX_MOVES
    for b in prange(blocks):
        after = np.empty(kernels.MAX_MOVES, dtype=np.int64)
        at, made = b * room, 0
        for i in range(b * per, min(len(level), (b + 1) * per)):
            code = kernels.code_of_key(level[i])
            if kernels.ended(code, yokai) != UNKNOWN:
                continue
            count = kernels.moves(code, yokai, after, 0)
            made += count
            for j in range(count):
                key = kernels.key(after[j])
                if add(words, pages, key):
                    out[at] = key
                    at += 1
        found[b] = at - b * room
        moved[b] = made


@njit(cache=True)
def _distinct(keys: Array) -> int:
    """Drop repeats from sorted ``keys`` in place; how many are left."""
    n = 0
    for i in range(len(keys)):
        if i == 0 or keys[i] != keys[i - 1]:
            keys[n] = keys[i]
            n += 1
    return n


def reachable(start: Array, ruleset: str, folder: Path, log: Log = _quiet) -> tuple[KeySet, int]:
    """Every canonical position reachable from ``start`` (canonical working codes): their
    keys, and how many moves they have in all. Each level waits in ``folder`` while the
    next is found."""
    yokai = ruleset == "yokai"
    seen = KeySet()
    level = np.unique(np.array([kernels.key(int(c)) for c in start], dtype=np.int64))
    add_all(seen.words, seen.pages, level)
    blocks = 8 * get_num_threads()
    found, moved = np.zeros(blocks, dtype=np.int64), np.zeros(blocks, dtype=np.int64)
    room = (CHUNK + blocks - 1) // blocks * kernels.MAX_MOVES
    out = np.empty(blocks * room, dtype=np.int64)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "level.bin"
    moves, depth, total = 0, 0, len(level)
    while len(level):
        with open(path, "wb") as f:
            for a in range(0, len(level), CHUNK):
                part = level[a : a + CHUNK]
                _expand(part, yokai, seen.words, seen.pages, out, found, moved)
                per = (len(part) + blocks - 1) // blocks * kernels.MAX_MOVES
                for b in range(blocks):
                    f.write(out[b * per : b * per + found[b]].tobytes())
                moves += int(moved.sum())
        del level
        level = np.fromfile(path, dtype=np.int64)
        path.unlink()
        level.sort()
        level = level[: _distinct(level)]
        add_all(seen.words, seen.pages, level)  # the bits two threads lost
        depth += 1
        total += len(level)
        log(f"  level {depth}: {len(level):,} new, {total:,} in all")
    return seen, moves
