"""A solved ruleset on disk, and its lookups: one folder of numpy arrays, memory-mapped.

``keys.npy`` (uint16): the low 16 bits of each position's key (encoding.py), sorted by key;
``buckets.npy`` (uint32): where each value of the key's high bits starts in ``keys``;
``values.npy`` (uint8, or uint16 if a distance needs it): each position's value, in the same
order: 0 a draw, 2n+1 a win in n plies, 2n+2 a loss in n; ``table.json``: the build's
figures. Three or four bytes a position (two of value once a distance passes 126 plies); a
lookup is one binary search in a bucket of a few hundred keys, read through the operating
system's page cache (np.load's mmap_mode).
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .encoding import KEY_BITS, Codes, key_of, keys
from .moves import END_DRAW

LOW_BITS = 16
FORMAT = 1


def _write_npy(path: Path, array: np.ndarray[Any, Any]) -> None:
    np.save(path, array, allow_pickle=False)


def write(
    folder: Path, codes: Codes, values: np.ndarray[Any, Any], figures: dict[str, Any]
) -> None:
    """Store solved positions (working codes, solver values) in ``folder``, replacing what
    was there only once the new table is complete."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    scratch = folder.with_name(folder.name + ".new")
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir()
    stored = keys_in_chunks(codes)
    order = np.argsort(stored)
    stored = stored[order]
    high = (stored >> np.uint64(LOW_BITS)).astype(np.int64)
    buckets = np.searchsorted(high, np.arange((1 << (KEY_BITS - LOW_BITS)) + 1))
    _write_npy(scratch / "buckets.npy", buckets.astype(np.uint32))
    del high
    _write_npy(scratch / "keys.npy", (stored & np.uint64(0xFFFF)).astype(np.uint16))
    del stored
    plain = values[order]
    plain[plain == END_DRAW] = 0
    dtype = np.uint8 if int(plain.max()) < 256 else np.uint16
    _write_npy(scratch / "values.npy", plain.astype(dtype))
    (scratch / "table.json").write_text(json.dumps({"format": FORMAT, **figures}, indent=2))
    old = folder.with_name(folder.name + ".old")
    if folder.exists():
        folder.rename(old)
    scratch.rename(folder)
    shutil.rmtree(old, ignore_errors=True)


def write_figures(folder: Path, figures: dict[str, Any]) -> None:
    """Rewrite the figures of a stored table (the build adds its own cost last)."""
    (folder / "table.json").write_text(json.dumps({"format": FORMAT, **figures}, indent=2))


def keys_in_chunks(codes: Codes, chunk: int = 1 << 22) -> Codes:
    out = np.empty(len(codes), dtype=np.uint64)
    for a in range(0, len(codes), chunk):
        out[a : a + chunk] = keys(codes[a : a + chunk])
    return out


@dataclass(frozen=True)
class Value:
    """A position's value for its side to move: "win", "loss" or "draw", and the plies to
    the end with best play (None for a draw)."""

    category: str
    plies: int | None

    @classmethod
    def of(cls, stored: int) -> Value:
        if stored == 0:
            return cls("draw", None)
        n, lost = divmod(stored - 1, 2)
        return cls("loss" if lost else "win", n)


class Table:
    """One ruleset's stored table, memory-mapped (nothing is read until looked up)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.figures: dict[str, Any] = json.loads((folder / "table.json").read_text())
        if self.figures.get("format") != FORMAT:
            raise ValueError(f"{folder} holds a table of another format")
        self._keys = np.load(folder / "keys.npy", mmap_mode="r")
        self._buckets = np.load(folder / "buckets.npy", mmap_mode="r")
        self._values = np.load(folder / "values.npy", mmap_mode="r")

    def __len__(self) -> int:
        return len(self._values)

    def stored(self, code: int) -> int | None:
        """The stored value of a canonical working code; None if it is not in the table."""
        key = key_of(code)
        bucket = key >> LOW_BITS
        low, high = int(self._buckets[bucket]), int(self._buckets[bucket + 1])
        part = self._keys[low:high]
        at = int(np.searchsorted(part, key & 0xFFFF))
        if at == len(part) or int(part[at]) != key & 0xFFFF:
            return None
        return int(self._values[low + at])

    def value(self, code: int) -> Value | None:
        stored = self.stored(code)
        return None if stored is None else Value.of(stored)

    def stored_many(self, codes: Codes) -> np.ndarray[Any, np.dtype[np.int64]]:
        """``stored`` for many codes at once (-1 where a code is not in the table): one
        binary search a code, all of them a step at a time."""
        key = keys(codes)
        bucket = (key >> np.uint64(LOW_BITS)).astype(np.int64)
        low = self._buckets[bucket].astype(np.int64)
        high = self._buckets[bucket + 1].astype(np.int64)
        want = (key & np.uint64(0xFFFF)).astype(np.uint16)
        lo, hi = low.copy(), high.copy()
        while True:
            open_ = np.flatnonzero(lo < hi)
            if not len(open_):
                break
            mid = (lo[open_] + hi[open_]) // 2
            less = self._keys[mid] < want[open_]
            lo[open_] = np.where(less, mid + 1, lo[open_])
            hi[open_] = np.where(less, hi[open_], mid)
        at = np.minimum(lo, len(self) - 1)
        found = (lo < high) & (self._keys[at] == want)
        return np.where(found, self._values[at].astype(np.int64), -1)

    def sample(self, count: int, seed: int = 0) -> tuple[np.ndarray[Any, Any], Codes]:
        """``count`` stored positions at random: their indices and stored keys."""
        rng = np.random.default_rng(seed)
        index = np.sort(rng.choice(len(self), size=min(count, len(self)), replace=False))
        bucket = np.searchsorted(self._buckets, index, side="right") - 1
        key = (bucket.astype(np.uint64) << np.uint64(LOW_BITS)) | self._keys[index]
        return index, key

    def values_at(self, index: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        return np.asarray(self._values[index])
