"""Engine speed: median time of ``legal_moves`` and ``play``, and perft nodes per second.

Positions are sampled from seeded random playouts, then rebuilt from their text so that every
``legal_moves`` call computes its moves (a position caches them once computed; the server
calls ``legal_moves`` once per position, so the cold figure is the one that matters).

    .venv/bin/python bench/engine.py            # all games
    .venv/bin/python bench/engine.py jungle     # one game
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

# This script is named engine.py: keep its own folder off the import path, so that
# "import engine" below finds the engine package and not this file.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import engine  # noqa: E402

# Goals, in microseconds, for the median cold legal_moves.
GOALS_US = {"dobutsu": 30, "gorogoro": 100, "jungle": 60, "yote": 100, "wali": 100}
# Perft depth that takes about a second from the start position.
PERFT_DEPTH = {"dobutsu": 8, "gorogoro": 5, "jungle": 4, "yote": 4, "wali": 4}


def sample_positions(game: Any, count: int, rng: random.Random) -> list[str]:
    texts: list[str] = []
    while len(texts) < count:
        pos = game.start()
        while game.result(pos) is None and len(texts) < count:
            texts.append(game.to_text(pos))
            pos = game.play(pos, rng.choice(game.legal_moves(pos)))
    return texts


def median_us(samples: list[int]) -> float:
    return statistics.median(samples) / 1000


def perft(game: Any, pos: Any, depth: int) -> int:
    if depth == 0:
        return 1
    moves = game.legal_moves(pos)
    if depth == 1:
        return len(moves)
    return sum(perft(game, game.play(pos, m), depth - 1) for m in moves)


def bench(gid: str, count: int, seed: int) -> dict[str, float]:
    game = engine.get_game(gid)
    rng = random.Random(seed)
    texts = rng.sample(sample_positions(game, count * 5, rng), count)
    clock = time.perf_counter_ns
    legal: list[int] = []
    plays: list[int] = []
    for text in texts:
        pos = game.from_text(text)  # fresh object: nothing cached
        t0 = clock()
        moves = game.legal_moves(pos)
        t1 = clock()
        legal.append(t1 - t0)
        if moves:
            move = rng.choice(moves)
            t0 = clock()
            game.play(pos, move)
            plays.append(clock() - t0)
    depth = PERFT_DEPTH[gid]
    t0 = clock()
    nodes = perft(game, game.start(), depth)
    seconds = (clock() - t0) / 1e9
    return {
        "legal_moves_us": median_us(legal),
        "play_us": median_us(plays),
        "perft_depth": depth,
        "perft_nodes": nodes,
        "perft_nps": nodes / seconds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(engine.game_ids()))
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=20261122)
    args = parser.parse_args()
    print(
        f"{'game':<10} {'legal_moves µs':>15} {'goal µs':>8} {'play µs':>8} "
        f"{'perft':>12} {'nodes/s':>10}"
    )
    for gid in args.games:
        r = bench(gid, args.positions, args.seed)
        verdict = "ok" if r["legal_moves_us"] <= GOALS_US[gid] else "SLOW"
        print(
            f"{gid:<10} {r['legal_moves_us']:>15.1f} {GOALS_US[gid]:>5} {verdict:<2} "
            f"{r['play_us']:>8.1f} {int(r['perft_nodes']):>9}@d{int(r['perft_depth'])} "
            f"{r['perft_nps']:>10.0f}"
        )


if __name__ == "__main__":
    main()
