"""Retrograde analysis over a KeySet of positions, walking the moves backwards.

No move is stored. Each stored position has a value (two bytes, by its rank in the set) and
a count (one byte: its moves not yet known to lead to a win). One pass over the positions
counts their moves and looks one ply ahead at the positions whose value the position alone
gives (kernels.known: a game over; under `yokai`, a lion to take, a win in 1): a move to
such a loss makes a win in 1, moves only to such wins a loss in 1 or 2. Then level n walks
back from the positions level n-1 decided, by undoing moves (kernels.unmoves): a move into
a loss makes a win in n; a move into a win counts its position down, and a position counted
to zero is a loss in n (every move leads to a win, the slowest in n-1). What no level
decides is a draw: neither side can force an end. The moves are undone on both cores; the
values are set on one, in order, so a position is decided once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import get_num_threads, njit, prange

from . import kernels
from .encoding import END_DRAW, LOSS0, UNKNOWN, WIN0, WIN1
from .keyset import PAGE_KEYS, KeySet, page_members, rank

Log = Callable[[str], None]
Array = np.ndarray[Any, Any]
CHUNK = 1 << 12  # positions a call: ~70 MB of room for the moves into them
BLOCKS = 256  # a pass over the set: this many runs of pages, shared by the cores


def _quiet(_: str) -> None:
    return None


@njit(cache=True, parallel=True)
def leave_out_known(words: Array, pages: Array, yokai: bool, tally: Array) -> None:
    """Count every position by its value where the position alone gives it (columns: wins,
    draws, losses, positions that are their own mirror image), and, under `yokai`, take
    those out of the set: their values need no solving, and the table leaves them out."""
    blocks = len(tally)
    per = (len(pages) + blocks - 1) // blocks
    for b in prange(blocks):
        keys = np.empty(PAGE_KEYS, dtype=np.int64)
        for page in range(b * per, min(len(pages), (b + 1) * per)):
            for j in range(page_members(words, pages, page, keys)):
                code = kernels.code_of_key(keys[j])
                tally[b, 3] += kernels.mirror(code) == code
                if not yokai:
                    continue
                value = kernels.known(code, True)
                if value == UNKNOWN:
                    continue
                words[keys[j] >> 6] &= ~(np.int64(1) << (keys[j] & 63))  # this block's page
                if value == END_DRAW:
                    tally[b, 1] += 1
                else:
                    tally[b, 0 if value % 2 else 2] += 1


@njit(cache=True, parallel=True)
def _start(
    words: Array, pages: Array, ranks: Array, yokai: bool, values: Array, left: Array
) -> None:
    """Each stored position's value where it or its moves' positions alone give it, and its
    count of moves to positions not so known to be wins."""
    blocks = BLOCKS
    per = (len(pages) + blocks - 1) // blocks
    for b in prange(blocks):
        after = np.empty(kernels.MAX_MOVES, dtype=np.int64)
        keys = np.empty(PAGE_KEYS, dtype=np.int64)
        for page in range(b * per, min(len(pages), (b + 1) * per)):
            for k in range(page_members(words, pages, page, keys)):
                key = keys[k]
                i = rank(words, ranks, key)
                code = kernels.code_of_key(key)
                here = kernels.known(code, yokai)
                if here != UNKNOWN:  # a game over (stored under `dobutsu`)
                    values[i] = here
                    continue
                count = kernels.moves(code, yokai, after, 0)
                wins, slowest, to_loss = 0, 0, False
                for j in range(count):
                    then = kernels.known(after[j], yokai)
                    if then in (WIN0, WIN1):
                        wins += 1
                        slowest = max(slowest, (then - 1) // 2)
                    elif then == LOSS0:
                        to_loss = True
                left[i] = count - wins
                if count == 0:
                    values[i] = LOSS0  # no legal move
                elif to_loss:
                    values[i] = WIN1
                elif wins == count:
                    values[i] = 2 * (slowest + 1) + 2


@njit(cache=True)
def _seeds(
    words: Array, pages: Array, ranks: Array, yokai: bool, values: Array, out: Array
) -> Array:
    """The keys of the positions the start pass decided, to walk back from, by the level
    that decided them: column 0 lost in 0, 1 won in 1, 2 lost in 1, 3 lost in 2 (from
    row 0 down; ``out`` with no rows: only count). How many of each."""
    counts = np.zeros(4, dtype=np.int64)
    keys = np.empty(PAGE_KEYS, dtype=np.int64)
    for page in range(len(pages)):
        for k in range(page_members(words, pages, page, keys)):
            key = keys[k]
            value = values[rank(words, ranks, key)]
            if value == LOSS0:
                if kernels.ended(kernels.code_of_key(key), yokai) != UNKNOWN:
                    continue  # a game over: the start pass counted the moves into it
                column = 0
            elif value == WIN1:
                column = 1
            elif value in (4, 6):
                column = value // 2
            else:
                continue
            if len(out):
                out[counts[column], column] = key
            counts[column] += 1
    return counts


@njit(cache=True, parallel=True)
def _undo(
    level: Array, yokai: bool, words: Array, ranks: Array, keys: Array, at: Array, found: Array
) -> None:
    """The stored positions with a move into each of ``level``'s (keys): block b's keys and
    ranks in ``keys`` and ``at`` from ``b * room``, ``found[b]`` of them."""
    blocks = len(found)
    per = (len(level) + blocks - 1) // blocks
    room = per * kernels.MAX_UNMOVES
    for b in prange(blocks):
        before = np.empty(kernels.MAX_UNMOVES, dtype=np.int64)
        n = b * room
        for i in range(b * per, min(len(level), (b + 1) * per)):
            count = kernels.unmoves(kernels.code_of_key(level[i]), yokai, before, 0)
            for j in range(count):
                key = kernels.key(before[j])
                r = rank(words, ranks, key)
                if r >= 0:  # reachable, and not known from the position alone
                    keys[n], at[n] = key, r
                    n += 1
        found[b] = n - b * room


@njit(cache=True)
def _decide(
    keys: Array,
    at: Array,
    found: Array,
    room: int,
    into_loss: bool,
    value: int,
    values: Array,
    left: Array,
    decided: Array,
) -> int:
    """Apply the moves ``_undo`` found: into a loss, a win (``value``) for the position
    moving; into a win, one move fewer left, and a loss (``value``) at none. The keys of the
    positions decided go to ``decided``; how many."""
    n = 0
    for b in range(len(found)):
        for j in range(b * room, b * room + found[b]):
            i = at[j]
            if into_loss:
                if values[i] == UNKNOWN:
                    values[i] = value
                    decided[n] = keys[j]
                    n += 1
            else:
                left[i] -= 1
                if left[i] == 0 and values[i] == UNKNOWN:
                    values[i] = value
                    decided[n] = keys[j]
                    n += 1
    return n


def retrograde(stored: KeySet, ruleset: str, log: Log = _quiet) -> tuple[Array, int]:
    """Each stored position's value by its rank (encoding.py's values; UNKNOWN left is a draw),
    and how many levels it took. ``stored`` must be frozen."""
    yokai = ruleset == "yokai"
    words, pages, ranks = stored.words, stored.pages, stored.ranks
    values = np.zeros(stored.size, dtype=np.uint16)
    left = np.zeros(stored.size, dtype=np.uint8)  # at most 66 moves
    _start(words, pages, ranks, yokai, values, left)
    counts = _seeds(words, pages, ranks, yokai, values, np.zeros((0, 4), dtype=np.int64))
    seeds = np.zeros((int(counts.max(initial=0)), 4), dtype=np.int64)
    _seeds(words, pages, ranks, yokai, values, seeds)
    by_level = {  # (lost, won) decided at that level by the start pass
        0: (seeds[: counts[0], 0], seeds[:0, 1]),
        1: (seeds[: counts[2], 2], seeds[: counts[1], 1]),
        2: (seeds[: counts[3], 3], seeds[:0, 1]),
    }
    lost, won = by_level[0]
    blocks = 8 * get_num_threads()
    room = (CHUNK + blocks - 1) // blocks * kernels.MAX_UNMOVES
    keys = np.empty(blocks * room, dtype=np.int64)
    at = np.empty(blocks * room, dtype=np.int64)
    found = np.zeros(blocks, dtype=np.int64)
    n = 1
    while True:
        decided: dict[bool, list[Array]] = {True: [], False: []}
        for level, into_loss in ((lost, True), (won, False)):
            value = 2 * n + 1 if into_loss else 2 * n + 2
            for a in range(0, len(level), CHUNK):
                part = level[a : a + CHUNK]
                _undo(part, yokai, words, ranks, keys, at, found)
                per = (len(part) + blocks - 1) // blocks * kernels.MAX_UNMOVES
                out = np.empty(int(found.sum()), dtype=np.int64)
                got = _decide(keys, at, found, per, into_loss, value, values, left, out)
                decided[into_loss].append(out[:got])
        seeded_lost, seeded_won = by_level.get(n, (seeds[:0, 0], seeds[:0, 0]))
        won = np.concatenate([*decided[True], seeded_won])
        lost = np.concatenate([*decided[False], seeded_lost])
        log(f"  level {n}: {len(won):,} wins, {len(lost):,} losses")
        if not len(won) and not len(lost) and n >= max(by_level):
            return values, n - 1
        n += 1
