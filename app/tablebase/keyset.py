"""A set of stored keys (encoding.py) held as one bit a key, and each member's rank.

The key space has ~3.2 * 10**10 keys: 4 GiB of bits, mapped by the operating system only
where a page holds a member (an anonymous map without reserve: a small problem's set costs a
few pages, the full game's about all of them). Membership is one word read; after
``freeze``, a member's rank among the members (its index in the solver's arrays, and in the
stored table, whose keys are sorted) is a count kept every eight words plus at most eight
popcounts.
"""

from __future__ import annotations

import mmap
from collections.abc import Callable
from typing import Any, cast

import numpy as np
from llvmlite import ir
from numba import njit
from numba.core import types
from numba.extending import intrinsic

from .encoding import KEY_BITS, KEY_LIMIT

WORDS = (KEY_LIMIT + 63) // 64
PAGE_SHIFT = 9  # 512 words, 4 KiB: the memory the operating system maps at a time
GROUP_SHIFT = 3  # a rank is kept before every 8 words
Array = np.ndarray[Any, Any]


@intrinsic
def _popcount(typingctx: Any, x: Any) -> Any:
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@intrinsic
def _lowest_bit(typingctx: Any, x: Any) -> Any:
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.int64(types.int64), codegen


# For compiled code only: the number of bits set in a 64-bit word (the processor's popcnt),
# and the index of the lowest bit set in a non-zero one.
popcount = cast(Callable[[int], int], _popcount)
lowest_bit = cast(Callable[[int], int], _lowest_bit)


def _zeros(count: int, dtype: Any) -> Array:
    """``count`` zeros of ``dtype``, mapped page by page as they are written."""
    size = max(1, count * np.dtype(dtype).itemsize)
    flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | getattr(mmap, "MAP_NORESERVE", 0)
    return np.frombuffer(mmap.mmap(-1, size, flags=flags), dtype=dtype)[:count]


@njit(cache=True, inline="always")
def add(words: Array, pages: Array, key: int) -> bool:
    """Put ``key`` in the set; whether it was new. Not atomic: two threads setting bits of
    one word at once can lose one of them (reach.py sets a level's keys again after it)."""
    at, bit = key >> 6, np.int64(1) << (key & 63)
    word = words[at]
    if word & bit:
        return False
    words[at] = word | bit
    pages[at >> PAGE_SHIFT] = 1
    return True


@njit(cache=True)
def add_all(words: Array, pages: Array, keys: Array) -> None:
    for key in keys:
        add(words, pages, key)


@njit(cache=True, inline="always")
def rank(words: Array, ranks: Array, key: int) -> int:
    """The rank of ``key`` among the members; -1 if it is not one."""
    at, low = key >> 6, key & 63
    word = words[at]
    if not (word >> low) & 1:
        return -1
    found = int(ranks[at >> GROUP_SHIFT])
    for w in range(at & ~7, at):
        found += popcount(words[w])
    return found + popcount(word & ((np.int64(1) << low) - 1))


PAGE_KEYS = 64 << PAGE_SHIFT  # the keys a page of words can hold


# Compiled passes over the members take them a page at a time into a buffer: written as a
# compiled generator, the passes calling it failed to load from numba's cache in the next
# process (numba 0.68: a KeyError for the generator), and without the cache every build and
# test process would compile them again.
@njit(cache=True)
def page_members(words: Array, pages: Array, page: int, out: Array) -> int:
    """Put the members on ``page`` in ``out`` (room for PAGE_KEYS), in order; how many."""
    if not pages[page]:
        return 0
    n = 0
    for w in range(page << PAGE_SHIFT, min((page + 1) << PAGE_SHIFT, len(words))):
        word = words[w]
        while word:
            out[n] = (w << 6) | lowest_bit(word)
            n += 1
            word &= word - 1
    return n


@njit(cache=True)
def _freeze(words: Array, pages: Array, ranks: Array) -> int:
    total = 0
    for page in range(len(pages)):
        if pages[page]:
            for w in range(page << PAGE_SHIFT, min((page + 1) << PAGE_SHIFT, len(words))):
                if not w & 7:
                    ranks[w >> GROUP_SHIFT] = total
                total += popcount(words[w])
    return total


@njit(cache=True)
def _members(words: Array, pages: Array, out: Array) -> int:
    n = 0
    for page in range(len(pages)):
        n += page_members(words, pages, page, out[n:])
    return n


@njit(cache=True)
def _low_and_buckets(words: Array, pages: Array, low: Array, per_bucket: Array) -> None:
    n = 0
    keys = np.empty(PAGE_KEYS, dtype=np.int64)
    for page in range(len(pages)):
        for j in range(page_members(words, pages, page, keys)):
            low[n] = keys[j] & 0xFFFF
            per_bucket[keys[j] >> 16] += 1
            n += 1


@njit(cache=True)
def _count(words: Array, pages: Array) -> int:
    total = 0
    for page in range(len(pages)):
        if pages[page]:
            for w in range(page << PAGE_SHIFT, min((page + 1) << PAGE_SHIFT, len(words))):
                total += popcount(words[w])
    return total


class KeySet:
    """Keys below encoding.KEY_LIMIT; ``words`` the bits, ``pages`` which pages of them
    hold any, ``ranks`` (after ``freeze``) the members before each group of eight words."""

    def __init__(self) -> None:
        self.words = _zeros(WORDS, np.int64)
        self.pages = np.zeros((WORDS >> PAGE_SHIFT) + 1, dtype=np.uint8)
        self.ranks = _zeros((WORDS >> GROUP_SHIFT) + 1, np.uint32)
        self.size = 0

    def __len__(self) -> int:
        return int(_count(self.words, self.pages))

    def freeze(self) -> int:
        """Count the ranks (the set no longer changes); how many members it has."""
        self.size = int(_freeze(self.words, self.pages, self.ranks))
        if self.size >= 1 << 32:
            raise ValueError("too many keys for 32-bit ranks")
        return self.size

    def rank_of(self, key: int) -> int:
        """The rank of ``key`` among the members (-1: not one); after ``freeze``."""
        return int(rank(self.words, self.ranks, key))

    def stored_keys(self) -> tuple[Array, Array]:
        """The low 16 bits of every member's key, in order, and how many members each value
        of the high bits has (the stored table's ``keys`` and bucket sizes)."""
        low = np.empty(self.size, dtype=np.uint16)
        per_bucket = np.zeros(1 << (KEY_BITS - 16), dtype=np.int64)
        _low_and_buckets(self.words, self.pages, low, per_bucket)
        return low, per_bucket

    def keys(self) -> Array:
        """Every member, in order (for small sets: all of them in memory)."""
        out = np.empty(len(self), dtype=np.int64)
        return out[: _members(self.words, self.pages, out)]
