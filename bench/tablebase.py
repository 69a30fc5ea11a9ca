"""Tablebase lookups on a built table: the median cost of one position's value (the stored
key computed from the engine's position, one binary search in the memory-mapped table) and
of a whole API answer (the engine's legal moves, each successor looked up), over positions
of random games; the first lookups of a fresh process read the table's pages from the page
cache, as a server just started does.

    .venv/bin/python bench/tablebase.py [--path data/tablebase] [--ruleset dobutsu]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

# bench/engine.py would shadow the engine package: keep this folder off the import path.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import engine  # noqa: E402
from app.core.config import get_settings  # noqa: E402
from app.tablebase.encoding import from_position  # noqa: E402
from app.tablebase.lookup import Tablebases  # noqa: E402

GOAL_US = 100  # one position's value


def positions(ruleset: str, count: int) -> list[str]:
    game = engine.get_game("dobutsu", ruleset=ruleset)
    rng = random.Random(7)
    found: list[str] = []
    while len(found) < count:
        pos = game.start()
        for _ in range(rng.randrange(1, 60)):
            moves = game.legal_moves(pos)
            if not moves:
                break
            pos = game.play(pos, rng.choice(moves))
        found.append(" ".join(game.to_text(pos).split(" ")[:3]))
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--path", type=Path, default=None)
    parser.add_argument("--ruleset", default="dobutsu")
    parser.add_argument("--count", type=int, default=2000)
    args = parser.parse_args()
    tables = Tablebases(args.path or get_settings().resolved_tablebase_path)
    table = tables.table(args.ruleset)
    if table is None:
        raise SystemExit("no table: python -m app tablebase build first")
    game = engine.get_game("dobutsu", ruleset=args.ruleset)
    texts = positions(args.ruleset, args.count)
    codes = [from_position(game.from_text(t)) for t in texts]
    value_us, answer_us = [], []
    for code in codes:
        t = time.perf_counter()
        table.value(code)
        value_us.append((time.perf_counter() - t) * 1e6)
    for text in texts:
        t = time.perf_counter()
        tables.probe(text, args.ruleset)
        answer_us.append((time.perf_counter() - t) * 1e6)
    print(f"{args.ruleset}: {len(table):,} positions in {table.folder}")
    print(
        f"  one value: median {statistics.median(value_us):.1f} µs, "
        f"p99 {statistics.quantiles(value_us, n=100)[98]:.1f} µs (goal {GOAL_US} µs)"
    )
    p99 = statistics.quantiles(answer_us, n=100)[98]
    print(
        f"  an API answer (the engine's moves, each looked up): median "
        f"{statistics.median(answer_us):.0f} µs, p99 {p99:.0f} µs"
    )


if __name__ == "__main__":
    main()
