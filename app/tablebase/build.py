"""``python -m app tablebase build``: solve one ruleset and store its table.

Prints, and writes to the table's ``table.json``, how many positions are reachable from the
start, how many of them are wins, draws and losses for the side to move, the start
position's value, and what the build took (seconds, peak memory).
"""

from __future__ import annotations

import resource
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import engine
from app.core.time import Clock, SystemClock

from . import store
from .encoding import from_position
from .moves import END_DRAW, UNKNOWN, mirror
from .solve import Values, solve

Log = Callable[[str], None]


def start_code(ruleset: str, start: str | None = None) -> int:
    """The working code of the start (or of the position string ``start``)."""
    game = engine.get_game("dobutsu", ruleset=ruleset)
    return from_position(game.start() if start is None else game.from_text(start))


def figures(codes: np.ndarray[Any, Any], values: Values, start: int) -> dict[str, Any]:
    """The counts a table reports, and the start position's value."""
    draws = (values == UNKNOWN) | (values == END_DRAW)
    wins = ~draws & (values % 2 == 1)
    losses = ~draws & (values % 2 == 0)
    symmetric = 0
    for a in range(0, len(codes), 1 << 22):
        part = codes[a : a + (1 << 22)]
        symmetric += int(np.count_nonzero(mirror(part) == part))
    at = int(np.searchsorted(codes, np.uint64(start)))
    value = store.Value.of(0 if draws[at] else int(values[at]))
    decided = values[~draws]
    return {
        "positions": len(codes),
        # Each entry stands for a position and its mirror image: counted apart, these many.
        "positions_mirrors_apart": 2 * len(codes) - symmetric,
        "wins": int(wins.sum()),
        "draws": int(draws.sum()),
        "losses": int(losses.sum()),
        "start": {"category": value.category, "plies": value.plies},
        "longest_plies": int((decided.max() - 1) // 2) if len(decided) else 0,
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
    solved = solve(np.array([first], dtype=np.uint64), ruleset, clock, log)
    found = figures(solved.codes, solved.values, first)
    t = clock.monotonic()
    store.write(out / ruleset, solved.codes, solved.values, {"ruleset": ruleset, **found})
    seconds = {**solved.seconds, "store": clock.monotonic() - t}
    seconds["total"] = clock.monotonic() - begun
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: KiB
    size = sum(f.stat().st_size for f in (out / ruleset).iterdir() if f.suffix == ".npy")
    build_facts = {
        "seconds": {k: round(v, 1) for k, v in seconds.items()},
        "peak_memory_bytes": peak,
        "table_bytes": size,
    }
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
        f"  {seconds['total']:.0f} s, peak memory {peak / 2**30:.2f} GiB, "
        f"table {size / 2**20:.0f} MiB in {out / ruleset}"
    )
    return found
