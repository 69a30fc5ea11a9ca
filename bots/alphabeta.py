"""A bot that searches: iterative-deepening alpha-beta at one of the built-in levels.

python -m bots.alphabeta --server http://127.0.0.1:8000 --token kdm_... --level medium
"""

from __future__ import annotations

import sys

from .players import LEVELS, make_player
from .runner import Settings, arguments, serve


def main(argv: list[str] | None = None) -> int:
    parser = arguments("A Kodama bot that searches with alpha-beta.")
    levels = [name for name in LEVELS if name != "random"]
    parser.add_argument("--level", choices=levels, default="medium")
    parser.add_argument(
        "--budget", type=float, default=None, help="seconds a move (default: the level's)"
    )
    args = parser.parse_args(argv)
    level = LEVELS[args.level]
    budget = level.time_budget_s if args.budget is None else args.budget
    settings = Settings(time_budget_s=budget, max_games=args.max_games)
    return serve(args, lambda: make_player(args.level), settings)


if __name__ == "__main__":
    sys.exit(main())
