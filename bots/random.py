"""A bot that plays random legal moves: the smallest complete bot.

python -m bots.random --server http://127.0.0.1:8000 --token kdm_...
"""

from __future__ import annotations

import sys

from .players import RandomPlayer
from .runner import Settings, arguments, serve


def main(argv: list[str] | None = None) -> int:
    parser = arguments("A Kodama bot that plays random legal moves.")
    parser.add_argument("--seed", type=int, default=None, help="for reproducible games")
    args = parser.parse_args(argv)
    settings = Settings(time_budget_s=0.0, max_games=args.max_games)
    return serve(args, lambda: RandomPlayer(args.seed), settings)


if __name__ == "__main__":
    sys.exit(main())
