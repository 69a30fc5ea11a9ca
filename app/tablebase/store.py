"""A solved ruleset on disk, and its lookups: one folder of numpy arrays, memory-mapped.

``keys.npy`` (uint16): the low 16 bits of each position's key (encoding.py), sorted by key;
``buckets.npy`` (uint32): where each value of the key's high bits starts in ``keys``;
``values.npy``: each position's value, in the same order (0 a draw, 2n+1 a win in n plies,
2n+2 a loss in n), written as its index in ``palette.npy`` (uint16, the distinct values in
order): one byte a position while a table has at most 256 distinct values (under both
rulesets it has fewer than 180: a win's distance is odd and a loss's even), else the values
themselves, two bytes; ``table.json``: the build's figures. Three bytes a position; a
lookup is one binary search in a bucket of a few hundred keys, read through the operating
system's page cache (np.load's mmap_mode). A table whose figures say ``derived`` (the
`yokai` one) leaves out the positions whose value the position alone gives (derive.py),
and its lookups compute those.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .derive import derived, derived_one
from .encoding import END_DRAW, UNKNOWN, Codes, key_of, keys

LOW_BITS = 16
FORMAT = 2  # 1: values.npy holds the values themselves, without a palette
PALETTE_LIMIT = 256


def _write_npy(path: Path, array: np.ndarray[Any, Any]) -> None:
    np.save(path, array, allow_pickle=False)


def write(
    folder: Path,
    low_keys: np.ndarray[Any, Any],
    per_bucket: np.ndarray[Any, Any],
    values: np.ndarray[Any, Any],
    figures: dict[str, Any],
) -> None:
    """Store solved positions in ``folder``: the low 16 bits of their keys (sorted by key),
    how many keys each value of the high bits has, and their values (the solver's, in the
    same order); the old table is replaced only once the new one is complete."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    scratch = folder.with_name(folder.name + ".new")
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir()
    _write_npy(scratch / "keys.npy", low_keys.astype(np.uint16, copy=False))
    written, palette = encode(values)
    _write_npy(scratch / "values.npy", written)
    if palette is not None:
        _write_npy(scratch / "palette.npy", palette)
    buckets = np.concatenate([[0], np.cumsum(per_bucket)])
    _write_npy(scratch / "buckets.npy", buckets.astype(np.uint32))
    (scratch / "table.json").write_text(json.dumps({"format": FORMAT, **figures}, indent=2))
    old = folder.with_name(folder.name + ".old")
    if folder.exists():
        folder.rename(old)
    scratch.rename(folder)
    shutil.rmtree(old, ignore_errors=True)


def encode(
    values: np.ndarray[Any, Any],
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any] | None]:
    """Values as written: their indices in a palette of the distinct values (one byte each)
    and the palette, or (more than PALETTE_LIMIT distinct values) themselves and None."""
    present = np.flatnonzero(np.bincount(values, minlength=1 << 16))
    if len(present) > PALETTE_LIMIT:
        return values.astype(np.uint16, copy=False), None
    index = np.zeros(1 << 16, dtype=np.uint8)
    index[present] = np.arange(len(present), dtype=np.uint8)
    return index[values], present.astype(np.uint16)


def write_figures(folder: Path, figures: dict[str, Any]) -> None:
    """Rewrite the figures of a stored table (the build adds its own cost last)."""
    (folder / "table.json").write_text(json.dumps({"format": FORMAT, **figures}, indent=2))


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
        if self.figures.get("format") not in (1, FORMAT):
            raise ValueError(f"{folder} holds a table of another format")
        self._keys = np.load(folder / "keys.npy", mmap_mode="r")
        self._buckets = np.load(folder / "buckets.npy", mmap_mode="r")
        self._values = np.load(folder / "values.npy", mmap_mode="r")
        palette = folder / "palette.npy"
        self._palette = np.load(palette).astype(np.int64) if palette.exists() else None
        # A table that leaves out the values known from the position alone (derive.py).
        self._derives = bool(self.figures.get("derived"))
        self.ruleset = str(self.figures.get("ruleset", "dobutsu"))

    def __len__(self) -> int:
        """How many positions the table stores."""
        return len(self._values)

    def stored(self, code: int) -> int | None:
        """The value of a canonical working code (stored, or known from the position where
        the table leaves it out); None if it is not in the table."""
        if self._derives:
            known = derived_one(code, self.ruleset)
            if known != UNKNOWN:
                return 0 if known == END_DRAW else known
        key = key_of(code)
        bucket = key >> LOW_BITS
        low, high = int(self._buckets[bucket]), int(self._buckets[bucket + 1])
        part = self._keys[low:high]
        at = int(np.searchsorted(part, key & 0xFFFF))
        if at == len(part) or int(part[at]) != key & 0xFFFF:
            return None
        return int(self._read(self._values[low + at]))

    def value(self, code: int) -> Value | None:
        stored = self.stored(code)
        return None if stored is None else Value.of(stored)

    def stored_many(self, codes: Codes) -> np.ndarray[Any, np.dtype[np.int64]]:
        """``stored`` for many codes at once (-1 where a code is not in the table): one
        binary search a code, all of them a step at a time."""
        values = np.full(len(codes), -1, dtype=np.int64)
        if len(self):
            values = self._search(codes)
        if self._derives:
            known = derived(codes, self.ruleset).astype(np.int64)
            values = np.where(known != UNKNOWN, known, values)
            values[known == END_DRAW] = 0
        return values

    def _search(self, codes: Codes) -> np.ndarray[Any, np.dtype[np.int64]]:
        """The stored values of ``codes`` (-1 where not stored)."""
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
        hit = (lo < high) & (self._keys[at] == want)
        found: np.ndarray[Any, np.dtype[np.int64]] = np.where(hit, self._read(self._values[at]), -1)
        return found

    def sample(self, count: int, seed: int = 0) -> tuple[np.ndarray[Any, Any], Codes]:
        """``count`` stored positions at random: their indices and stored keys."""
        rng = np.random.default_rng(seed)
        index = np.sort(rng.choice(len(self), size=min(count, len(self)), replace=False))
        bucket = np.searchsorted(self._buckets, index, side="right") - 1
        key = (bucket.astype(np.uint64) << np.uint64(LOW_BITS)) | self._keys[index]
        return index, key

    def values_at(self, index: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        return np.asarray(self._read(self._values[index]))

    def _read(self, written: Any) -> Any:
        """Values as the solver writes them, from values.npy's (through the palette)."""
        if self._palette is None:
            return np.asarray(written).astype(np.int64)
        return self._palette[written]
