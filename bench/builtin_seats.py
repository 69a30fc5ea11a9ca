"""How many games each built-in level can play at once: the CPU a move costs, measured.

Each level plays a few games of every game against a random mover, on the engine alone, and
each of its moves is timed: the time it searched (wall) and the CPU it got. The built-in
opponents run in one Python process, whose searches share one core (the GIL); a game's share
of that core is the time a move searches over the time a move cycle takes (the level's move
plus the person's, ``--think`` seconds). The search time counts, not the CPU: a search runs
to its deadline or its depth, and on a busy machine gets less CPU in the same time, so the
CPU would size the seats by how busy the machine was. The seats printed are the games at
once whose searches, together, ask for at most SHARES[level] of the core
(app/builtin/seats.py SEATS, docs/benchmarks.md).

    .venv/bin/python bench/builtin_seats.py
    .venv/bin/python bench/builtin_seats.py --games 2 --moves 8 --think 8
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

# bench/ holds a script named engine.py: keep this folder off the import path so that
# "import engine" finds the engine package.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import engine  # noqa: E402
from bots.players import LEVELS, make_player  # noqa: E402

# Each level's share of the bots' one core when all its seats are taken (they add up to 1):
# most to hard, whose every move searches for seconds and which people come to play.
SHARES = {"random": 0.05, "easy": 0.05, "medium": 0.2, "hard": 0.7}
# However cheap its moves, a level's games at once stay bounded: each is a stream and a task.
MAX_SEATS = 64


def move_costs(level: str, game_id: str, games: int, moves: int) -> list[tuple[float, float]]:
    """(seconds, CPU seconds) of each of ``level``'s moves, in ``games`` games of ``moves``
    moves each (fewer if a game ends) against a random mover, the level playing either side."""
    costs: list[tuple[float, float]] = []
    budget = LEVELS[level].time_budget_s
    for n in range(games):
        game: engine.Game[Any] = engine.get_game(game_id)
        player = make_player(level, seed=n)
        rng = random.Random(n)
        position = game.start()
        level_side = "first" if n % 2 == 0 else "second"
        made = 0
        while made < moves and game.result(position) is None:
            legal = game.legal_moves(position)
            if game.side_to_move(position) == level_side:
                started, cpu = time.perf_counter(), time.process_time()
                move = player.choose(game, position, budget)
                costs.append((time.perf_counter() - started, time.process_time() - cpu))
                made += 1
            else:
                move = rng.choice(legal)
            position = game.play(position, move)
    return costs


def seats(cost_s: float, think_s: float, share: float) -> int:
    if cost_s <= 0:
        return MAX_SEATS
    duty = cost_s / (cost_s + think_s)
    return max(1, min(MAX_SEATS, int(share / duty)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games per level and game")
    parser.add_argument("--moves", type=int, default=6, help="the level's moves per game")
    parser.add_argument("--think", type=float, default=8.0, help="a person's seconds a move")
    parser.add_argument("levels", nargs="*", default=list(LEVELS))
    args = parser.parse_args(argv)
    print(
        f"{'level':8} {'moves':>5} {'s/move':>7} {'p90':>6} {'cpu s':>6} {'share':>6} {'seats':>5}"
    )
    for level in args.levels:
        costs: list[tuple[float, float]] = []
        for game_id in engine.game_ids():
            costs += move_costs(level, game_id, args.games, args.moves)
        wall = [w for w, _ in costs]
        mean = statistics.fmean(wall)
        p90 = sorted(wall)[int(0.9 * (len(wall) - 1))]
        cpu = statistics.fmean(c for _, c in costs)
        share = SHARES[level]
        print(
            f"{level:8} {len(costs):5d} {mean:7.3f} {p90:6.3f} {cpu:6.3f} {share:6.2f}"
            f" {seats(mean, args.think, share):5d}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
