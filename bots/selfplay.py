"""Self-play games for tuning the evaluations (bots/tune.py reads them).

The searching player plays itself to a fixed depth from random short openings; each game is
one JSON line: the game, its opening and moves, and how it ended. Positions are rebuilt from
the moves when tuning, so the games outlive any change to what the evaluations look at.

    .venv/bin/python -m bots.selfplay wali --games 2000 --depth 3 --out /tmp/tune/wali.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import engine

from .players import AlphaBetaPlayer

# A game still on after this many plies is recorded unfinished (a draw for tuning).
MAX_PLIES = 300
# Openings: this many random plies, chosen per game between the two figures.
OPENING_PLIES = (2, 8)
# The search's deadline is only a safeguard: the depth ends each search.
MOVE_SECONDS = 30.0


def self_play(game_id: str, seed: int, depth: int, tuned: bool = False) -> dict[str, Any]:
    """One game of the depth-limited searcher against itself, from a random opening."""
    game = engine.get_game(game_id)
    rng = random.Random(seed)
    players = [
        AlphaBetaPlayer(max_depth=depth, seed=seed * 2 + side, tuned=tuned) for side in (0, 1)
    ]
    pos = game.start()
    opening: list[str] = []
    for _ in range(rng.randint(*OPENING_PLIES)):
        if game.result(pos) is not None:
            break
        move = rng.choice(game.legal_moves(pos))
        opening.append(move)
        pos = game.play(pos, move)
    moves: list[str] = []
    while game.result(pos) is None and len(opening) + len(moves) < MAX_PLIES:
        move = players[pos.side].choose(game, pos, MOVE_SECONDS)
        moves.append(move)
        pos = game.play(pos, move)
    result = game.result(pos)
    winner = None if result is None or result.winner is None else result.winner.value
    return {
        "game": game_id,
        "seed": seed,
        "depth": depth,
        "opening": opening,
        "moves": moves,
        "winner": winner,
        "reason": None if result is None else result.reason.value,
    }


def _one(args: tuple[str, int, int, bool]) -> dict[str, Any]:
    return self_play(*args)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--tuned", action="store_true", help="play with the tuned evaluation")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    tasks = [
        (args.game, seed, args.depth, args.tuned)
        for seed in range(args.first_seed, args.first_seed + args.games)
    ]
    with args.out.open("a") as out, ProcessPoolExecutor(args.jobs) as pool:
        for done, record in enumerate(pool.map(_one, tasks, chunksize=4), start=1):
            out.write(json.dumps(record) + "\n")
            if done % 100 == 0:
                out.flush()
                print(f"{args.game}: {done}/{args.games}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
