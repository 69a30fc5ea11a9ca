"""A solved ruleset on disk, and its lookups: one folder of numpy arrays, memory-mapped.

``keys.npy`` (uint16): the low 16 bits of each position's key (encoding.py), sorted by key;
``buckets.npy`` (uint32): where each value of the key's high bits starts in ``keys``;
``values.npy`` (uint8, or uint16 if a distance needs it): each position's value, in the same
order: 0 a draw, 2n+1 a win in n plies, 2n+2 a loss in n; ``table.json``: the build's
figures. Three or four bytes a position (two of value once a distance passes 126 plies); a
lookup is one binary search in a bucket of a few hundred keys, read through the operating
system's page cache (np.load's mmap_mode). A table whose figures say ``derived`` (the
`yokai` one) leaves out the positions whose value the position alone gives (derive.py),
and its lookups compute those.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from .derive import derived, derived_one
from .encoding import KEY_BITS, Codes, key_of, keys
from .moves import END_DRAW, UNKNOWN

LOW_BITS = 16
FORMAT = 1


def _write_npy(path: Path, array: np.ndarray[Any, Any]) -> None:
    np.save(path, array, allow_pickle=False)


RANGE_BITS = 5  # the keys are sorted a 32nd of the key space at a time
Chunks = Iterable[tuple[Codes, np.ndarray[Any, Any]]]


def _npy(path: Path, dtype: Any, length: int) -> BinaryIO:
    """A .npy file of ``length`` items, opened for its data to be appended."""
    f = open(path, "wb")  # noqa: SIM115 - the caller closes it
    header = {"descr": np.lib.format.dtype_to_descr(np.dtype(dtype)), "fortran_order": False}
    np.lib.format.write_array_header_1_0(f, {**header, "shape": (length,)})
    return f


def write(folder: Path, chunks: Chunks, figures: dict[str, Any]) -> None:
    """Store solved positions (working codes, solver values; ``chunks`` of them, in any
    order) in ``folder``, replacing what was there only once the new table is complete.
    The keys are sorted by range of the key space on disk: memory holds one range."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    scratch = folder.with_name(folder.name + ".new")
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir()
    shift = np.uint64(KEY_BITS - RANGE_BITS)
    ranges = range(1 << RANGE_BITS)
    count, top = 0, 0
    key_files = [open(scratch / f"keys-{r}.bin", "wb") for r in ranges]  # noqa: SIM115
    value_files = [open(scratch / f"values-{r}.bin", "wb") for r in ranges]  # noqa: SIM115
    try:
        for codes, values in chunks:
            for a in range(0, len(codes), 1 << 22):
                stored = keys(codes[a : a + (1 << 22)])
                plain = values[a : a + (1 << 22)].astype(np.uint16)
                plain[plain == END_DRAW] = 0
                where = (stored >> shift).astype(np.intp)
                order = np.argsort(where, kind="stable")
                bounds = np.searchsorted(where[order], np.arange(len(ranges) + 1))
                for r in ranges:
                    part = order[bounds[r] : bounds[r + 1]]
                    key_files[r].write(stored[part].tobytes())
                    value_files[r].write(plain[part].tobytes())
                count += len(stored)
                top = max(top, int(plain.max(initial=0)))
    finally:
        for f in (*key_files, *value_files):
            f.close()
    dtype = np.uint8 if top < 256 else np.uint16
    per_bucket = np.zeros(1 << (KEY_BITS - LOW_BITS), dtype=np.int64)
    with (
        _npy(scratch / "keys.npy", np.uint16, count) as low,
        _npy(scratch / "values.npy", dtype, count) as out,
    ):
        for r in ranges:
            stored = np.fromfile(scratch / f"keys-{r}.bin", dtype=np.uint64)
            plain = np.fromfile(scratch / f"values-{r}.bin", dtype=np.uint16)
            (scratch / f"keys-{r}.bin").unlink()
            (scratch / f"values-{r}.bin").unlink()
            order = np.argsort(stored)
            stored, plain = stored[order], plain[order]
            del order
            low.write((stored & np.uint64(0xFFFF)).astype(np.uint16).tobytes())
            out.write(plain.astype(dtype).tobytes())
            per_bucket += np.bincount(
                (stored >> np.uint64(LOW_BITS)).astype(np.intp), minlength=len(per_bucket)
            )
    buckets = np.concatenate([[0], np.cumsum(per_bucket)])
    _write_npy(scratch / "buckets.npy", buckets.astype(np.uint32))
    (scratch / "table.json").write_text(json.dumps({"format": FORMAT, **figures}, indent=2))
    old = folder.with_name(folder.name + ".old")
    if folder.exists():
        folder.rename(old)
    scratch.rename(folder)
    shutil.rmtree(old, ignore_errors=True)


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
        if self.figures.get("format") != FORMAT:
            raise ValueError(f"{folder} holds a table of another format")
        self._keys = np.load(folder / "keys.npy", mmap_mode="r")
        self._buckets = np.load(folder / "buckets.npy", mmap_mode="r")
        self._values = np.load(folder / "values.npy", mmap_mode="r")
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
        return int(self._values[low + at])

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
        found: np.ndarray[Any, np.dtype[np.int64]] = np.where(
            hit, self._values[at].astype(np.int64), -1
        )
        return found

    def sample(self, count: int, seed: int = 0) -> tuple[np.ndarray[Any, Any], Codes]:
        """``count`` stored positions at random: their indices and stored keys."""
        rng = np.random.default_rng(seed)
        index = np.sort(rng.choice(len(self), size=min(count, len(self)), replace=False))
        bucket = np.searchsorted(self._buckets, index, side="right") - 1
        key = (bucket.astype(np.uint64) << np.uint64(LOW_BITS)) | self._keys[index]
        return index, key

    def values_at(self, index: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        return np.asarray(self._values[index])
