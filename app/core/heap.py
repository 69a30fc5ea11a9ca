"""The serving process's garbage collector, tuned for latency (``python -m app serve``).

CPython's full collections walk every tracked object: with the server's ~120,000 objects of
modules, classes and tables, each took 100-300 ms on the project's machine and came every
few thousand moves, stalling every game at once (p99 over a second at 500 moves/s). Freezing
what exists once the app is loaded moves it out of the collector's reach for good, and a
larger first threshold lets a move's short-lived objects die by reference counting before a
collection promotes them, so full collections become rare and short (~10 ms).
"""

from __future__ import annotations

import gc

import engine

# Young collections every 10,000 net allocations instead of 700; the older generations keep
# their default ratios (a collection of generation 1 every 20 of generation 0, ...).
THRESHOLDS = (10_000, 20, 10)


def settle() -> None:
    """Call once, after the app's modules are imported and before serving."""
    for game_id in engine.game_ids():
        engine.get_game(game_id)  # the rules' precomputed tables: long-lived, made now
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
