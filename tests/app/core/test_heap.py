"""The serving process's garbage-collector settings (app/core/heap.py)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from app.core import heap


@pytest.fixture
def restored_gc() -> Iterator[None]:
    thresholds = gc.get_threshold()
    frozen = gc.get_freeze_count() > 0  # the session's heap (tests/conftest.py)
    try:
        yield
    finally:
        gc.unfreeze()
        if frozen:
            gc.freeze()
        gc.set_threshold(*thresholds)


@pytest.mark.usefixtures("restored_gc")
def test_settling_freezes_the_loaded_heap_and_makes_young_collections_rarer():
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    heap.settle()
    assert gc.get_threshold() == heap.THRESHOLDS
    assert heap.THRESHOLDS[0] > 700  # rarer than CPython's default
    frozen = gc.get_freeze_count()
    assert frozen > 10_000  # the modules and classes loaded so far
    made = [[i] for i in range(1000)]
    assert len(made) == 1000
    assert gc.get_freeze_count() == frozen  # what is made after settling stays collectable
