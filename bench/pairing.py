"""Quick pairing: the time of one pairing round with many players waiting across the pools,
and how the rating window widens with the time waited.

    .venv/bin/python bench/pairing.py                 # 2,000 players, 15 pools
    .venv/bin/python bench/pairing.py --players 5000

The round here is the arithmetic (app/matchmaking/pairing.py) over every pool; the goal of
issue #12 is ≤ 50 ms for 2,000 waiting players.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from app.matchmaking.pairing import Seeker, allowed_gap, pair

GOAL_MS = 50.0


def crowd(players: int, pools: int, rng: random.Random, now_ms: int) -> dict[int, list[Seeker]]:
    by_pool: dict[int, list[Seeker]] = {p: [] for p in range(pools)}
    for n in range(players):
        by_pool[rng.randrange(pools)].append(
            Seeker(
                entry_id=f"e{n}",
                player_id=f"p{n}",
                rating=rng.gauss(1500, 300),
                joined_ms=now_ms - rng.randrange(0, 30_000),
                rated=rng.random() < 0.8,
                rating_range=(1300, 1700) if rng.random() < 0.1 else None,
            )
        )
    return by_pool


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--pools", type=int, default=15)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    rng = random.Random(12)
    now = 10**12
    timings, paired = [], []
    for _ in range(args.rounds):
        pools = crowd(args.players, args.pools, rng, now)
        start = time.perf_counter()
        pairs = [p for seekers in pools.values() for p in pair(seekers, now)]
        timings.append((time.perf_counter() - start) * 1000)
        paired.append(2 * len(pairs))
    median = statistics.median(timings)
    print(f"players waiting      {args.players} in {args.pools} pools")
    print(
        f"one round            median {median:.1f} ms, max {max(timings):.1f} ms "
        f"(goal ≤ {GOAL_MS:.0f} ms: {'met' if median <= GOAL_MS else 'NOT met'})"
    )
    print(f"paired per round     median {statistics.median(paired):.0f} players")
    print("rating window        waited → widest difference allowed")
    for seconds in (0, 5, 10, 20, 30, 40, 59, 60):
        gap = allowed_gap(seconds * 1000)
        shown = "anyone" if gap == float("inf") else f"{gap:.0f}"
        print(f"{'':21}{seconds:>3} s → {shown}")


if __name__ == "__main__":
    main()
