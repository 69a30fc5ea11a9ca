"""Search speed: the hard level's nodes per second and the depth it reaches at a time per move.

For every game it plays seeded random openings (8 to 19 plies), lets the searching player
choose a move in each within the budget, and prints the nodes searched a second (quiescence
nodes included) and the depths reached. Jungle is measured twice: on its own board (what the
levels play) and with the generic search over the engine (``native=False``).

    .venv/bin/python bench/search.py                     # every game, 0.15 s a move
    .venv/bin/python bench/search.py jungle --budget 2   # the hard level's own budget
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import engine  # noqa: E402
from bots.players import AlphaBetaPlayer  # noqa: E402


def openings(game: engine.Game[Any], count: int, seed: int) -> list[Any]:
    found = []
    for i in range(count):
        rng, pos = random.Random(seed + i), game.start()
        for _ in range(8 + i):
            pos = game.play(pos, rng.choice(game.legal_moves(pos)))
            if game.result(pos) is not None:
                break
        if game.result(pos) is None:
            found.append(pos)
    return found


def measure(game: engine.Game[Any], positions: list[Any], budget: float, native: bool) -> str:
    nodes, seconds, depths = 0, 0.0, []
    for pos in positions:
        player = AlphaBetaPlayer(seed=1, native=native)
        player.choose(game, pos, budget)
        nodes += player.info.nodes
        seconds += player.info.seconds
        depths.append(player.info.depth)
    return (
        f"{nodes / seconds:>10,.0f} {statistics.median(depths):>6} "
        f"{min(depths):>3}–{max(depths):<3}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", default=list(engine.game_ids()))
    parser.add_argument("--budget", type=float, default=0.15, help="seconds a move")
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{args.positions} openings a game, {args.budget} s a move")
    print(f"{'game':<18} {'nodes/s':>10} {'depth':>6} {'range':>7}")
    for gid in args.games:
        game = engine.get_game(gid)
        positions = openings(game, args.positions, args.seed)
        print(f"{gid:<18} {measure(game, positions, args.budget, True)}")
        if gid == "jungle":
            print(f"{'jungle (generic)':<18} {measure(game, positions, args.budget, False)}")


if __name__ == "__main__":
    main()
