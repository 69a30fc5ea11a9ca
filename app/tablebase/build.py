"""``python -m app tablebase build``: solve one ruleset and store its table.

Prints, and writes to the table's ``table.json``, how many positions are reachable from the
start, how many of them are wins, draws and losses for the side to move, the start
position's value, and what the build took (seconds, peak memory).
"""

from __future__ import annotations

import resource
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import engine
from app.core.time import Clock, SystemClock

from . import store
from .derive import DERIVED
from .encoding import END_DRAW, UNKNOWN, from_position
from .solve import Solved, solve

Log = Callable[[str], None]


def start_code(ruleset: str, start: str | None = None) -> int:
    """The working code of the start (or of the position string ``start``)."""
    game = engine.get_game("dobutsu", ruleset=ruleset)
    return from_position(game.start() if start is None else game.from_text(start))


def figures(solved: Solved, start: int) -> dict[str, Any]:
    """The counts a table reports, and the start position's value."""
    values = solved.values
    wins = draws = longest = 0
    for a in range(0, len(values), 1 << 24):  # a slice at a time: no array as long as values
        part = values[a : a + (1 << 24)]
        draws += int(np.count_nonzero(part == UNKNOWN))
        wins += int(np.count_nonzero(part % 2 == 1))
        longest = max(longest, int(part.max(initial=1)))
    at = solved.value_of(start)
    if at is None:
        raise ValueError("the start is not among the positions")
    value = store.Value.of(0 if at in (UNKNOWN, END_DRAW) else at)
    wins += solved.known["wins"]
    draws += solved.known["draws"]
    return {
        "positions": solved.positions,
        # Each entry stands for a position and its mirror image: counted apart, these many.
        "positions_mirrors_apart": 2 * solved.positions - solved.symmetric,
        "wins": wins,
        "draws": draws,
        "losses": solved.positions - wins - draws,
        "moves": solved.moves,
        "start": {"category": value.category, "plies": value.plies},
        "longest_plies": (longest - 1) // 2,
    }


def _start_words(value: dict[str, Any]) -> str:
    """The start's value in words: first is to move there."""
    if value["category"] == "draw":
        return "a draw with best play"
    winner = "first" if value["category"] == "win" else "second"
    return (
        f"a {value['category']} in {value['plies']} plies for the side to move (first): "
        f"the {winner} player wins in {value['plies']} plies"
    )


def build(
    ruleset: str,
    out: Path,
    log: Log = print,
    clock: Clock | None = None,
    start: str | None = None,
) -> dict[str, Any]:
    """Solve ``ruleset`` and store its table in ``out/<ruleset>``; the figures. ``start``:
    another position to start from (the tests' smaller problems)."""
    clock = clock or SystemClock()
    begun = clock.monotonic()
    log(f"tablebase {ruleset}: positions reachable from the start")
    first = start_code(ruleset, start)
    # A level of the search waits on disk beside the table while it is built.
    work = out / f".{ruleset}.work"
    try:
        solved = solve(np.array([first], dtype=np.uint64), ruleset, work, clock, log)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    found = figures(solved, first)
    t = clock.monotonic()
    found["derived"] = ruleset in DERIVED
    low_keys, per_bucket = solved.stored.stored_keys()
    store.write(out / ruleset, low_keys, per_bucket, solved.values, {"ruleset": ruleset, **found})
    del low_keys
    seconds = {**solved.seconds, "store": clock.monotonic() - t}
    seconds["total"] = clock.monotonic() - begun
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: KiB
    size = sum(f.stat().st_size for f in (out / ruleset).iterdir() if f.suffix == ".npy")
    build_facts = {
        "seconds": {k: round(v, 1) for k, v in seconds.items()},
        "peak_memory_bytes": peak,
        "table_bytes": size,
    }
    found["stored_positions"] = len(store.Table(out / ruleset))
    found["levels"] = solved.levels
    found = {"ruleset": ruleset, **found, "build": build_facts}
    store.write_figures(out / ruleset, found)
    start_value = found["start"]
    log(f"ruleset {ruleset}: {found['positions']:,} positions reachable")
    log(
        f"  wins {found['wins']:,}, draws {found['draws']:,}, losses {found['losses']:,} "
        "for the side to move"
    )
    log(f"  start position: {_start_words(start_value)}")
    log(
        f"  {found['stored_positions']:,} positions stored"
        + (" (the others' values are known from the position alone)" if found["derived"] else "")
    )
    log(
        f"  {seconds['total']:.0f} s, peak memory {peak / 2**30:.2f} GiB, "
        f"table {size / 2**20:.0f} MiB in {out / ruleset}"
    )
    return found
