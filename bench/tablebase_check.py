"""Check a built Dōbutsu table (python -m app tablebase build), which the test suite cannot
build in its time: the published start value, a sample of stored positions consistent with
their moves' values, and a sample moving exactly as the engine says. Prints each check and
exits non-zero on the first that fails.

    .venv/bin/python bench/tablebase_check.py [--path DIR] [--ruleset dobutsu|yokai]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

# bench/engine.py would shadow the engine package: keep this folder off the import path,
# and the project's root on it (the checks of tests/app/tablebase are used as they are).
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import engine  # noqa: E402
from app.core.config import get_settings  # noqa: E402
from app.tablebase import store  # noqa: E402
from app.tablebase.build import start_code  # noqa: E402
from app.tablebase.encoding import codes_of_keys, to_text  # noqa: E402
from tests.app.tablebase.consistency import inconsistent  # noqa: E402
from tests.app.tablebase.test_moves import assert_agree  # noqa: E402

# Tanaka's 78 plies: under `dobutsu` less the two his counting plays after the mated side
# has no move; under `yokai`, which plays the capture out as he does, all of them.
PUBLISHED = {"dobutsu": store.Value("loss", 76), "yokai": store.Value("loss", 78)}
CHUNK = 1 << 17


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--path", type=Path, default=None, help="default: KODAMA_TABLEBASE_PATH")
    parser.add_argument("--ruleset", default="dobutsu", choices=("dobutsu", "yokai"))
    parser.add_argument("--consistent", type=int, default=1_000_000)
    parser.add_argument("--engine", type=int, default=100_000)
    args = parser.parse_args()
    folder = (args.path or get_settings().resolved_tablebase_path) / args.ruleset
    if not (folder / "table.json").exists():
        sys.exit(f"no {args.ruleset} table in {folder}: python -m app tablebase build")
    table = store.Table(folder)

    start = table.value(start_code(args.ruleset))
    print(f"start: {start}")
    if args.ruleset in PUBLISHED and start != PUBLISHED[args.ruleset]:
        sys.exit(f"the start should be {PUBLISHED[args.ruleset]}")

    began = time.perf_counter()
    _, keys = table.sample(args.consistent, seed=5)
    codes = codes_of_keys(keys)
    wrong = [c for a in range(0, len(codes), CHUNK) for c in inconsistent(
        table, codes[a : a + CHUNK], args.ruleset)]  # fmt: skip
    print(f"{len(codes):,} positions checked against their moves' values: {len(wrong)} "
          f"inconsistent ({time.perf_counter() - began:.0f} s)")  # fmt: skip
    if wrong:
        sys.exit(1)

    began = time.perf_counter()
    game = engine.get_game("dobutsu", ruleset=args.ruleset)
    _, keys = table.sample(args.engine, seed=6)
    assert_agree(args.ruleset, [game.from_text(to_text(int(c))) for c in codes_of_keys(keys)])
    print(f"{args.engine:,} positions move as the engine says "
          f"({time.perf_counter() - began:.0f} s)")  # fmt: skip


if __name__ == "__main__":
    main()
