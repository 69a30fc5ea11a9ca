"""Quick pairing: the time of one pairing round with many players waiting across the pools,
and how the rating window widens with the time waited.

    .venv/bin/python bench/pairing.py                 # 2,000 players, 15 pools, PostgreSQL
    .venv/bin/python bench/pairing.py --db sqlite --players 5000

Two measures: the arithmetic alone (app/matchmaking/pairing.py) over every pool, and the
database round (app/matchmaking/rounds.py ``pair_all``: one transaction takes every pool's
advisory lock, reads the entries, pairs them, marks the pairs and inserts their started
games), then telling those games' events once committed. The database round is measured
twice: nobody pairable yet (everyone just arrived, far apart: the usual second) and most
pairable at once (the worst round). Goal: ≤ 50 ms for 2,000
waiting players.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sqlalchemy import delete, insert, update  # noqa: E402

from app.__main__ import migrate  # noqa: E402
from app.core.config import Settings  # noqa: E402
from app.core.time import ManualClock  # noqa: E402
from app.db.engine import make_engine, make_sessionmaker  # noqa: E402
from app.db.models import Game, Player, PoolEntry  # noqa: E402
from app.games import GameService  # noqa: E402
from app.matchmaking.pairing import Seeker, allowed_gap, pair  # noqa: E402
from app.matchmaking.pools import all_pools  # noqa: E402
from app.matchmaking.service import PoolService  # noqa: E402
from app.realtime.hub import LocalHub  # noqa: E402

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


async def db_rounds(
    url: str, players: int, rounds: int, *, pairable: bool = True
) -> tuple[list[float], list[float], int]:
    """Timings of the database round over every pool, and of telling. ``pairable``: ratings
    and arrival times as in ``crowd`` (most can be paired at once: the worst round); else
    everyone just arrived, 150 rating points from the next (a quiet round: nobody yet)."""
    engine = make_engine(url)
    sessions = make_sessionmaker(engine)
    is_postgres = not url.startswith("sqlite")
    clock = ManualClock()
    settings = Settings(database_url=url, secret_key="bench-" + secrets.token_hex(16))
    games = GameService(sessions, LocalHub(), settings, clock, is_postgres=is_postgres)
    service = PoolService(sessions, games, LocalHub(), clock, is_postgres=is_postgres)
    rng = random.Random(12)
    now = clock.now_ms()
    async with sessions() as session, session.begin():
        await session.execute(
            insert(Player),
            [  # accounts: a rated game is played between two accounts
                {
                    "id": f"p{n}",
                    "name": f"p{n}",
                    "username": f"p{n}",
                    "username_key": f"p{n}",
                    "created_ms": now,
                }
                for n in range(players)
            ],
        )
        await session.execute(
            insert(PoolEntry),
            [
                {
                    "id": f"e{n}", "pool": rng.choice(all_pools()).id,
                    "player_id": f"p{n}", "rated": rng.random() < 0.8,
                    "rating": rng.gauss(1500, 300) if pairable else 150.0 * n,
                    "range_low": None, "range_high": None,
                    "joined_ms": now - rng.randrange(0, 30_000) if pairable else now,
                    "seen_ms": now,
                    "instance": "bench", "game_id": None,
                }
                for n in range(players)
            ],
        )  # fmt: skip
    paired_times, tell_times, made_count = [], [], 0
    for _ in range(rounds):
        start = time.perf_counter()
        made = await service.pairing.pair_all()
        paired_times.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        await service.tell(made)
        tell_times.append((time.perf_counter() - start) * 1000)
        made_count = len(made)
        async with sessions() as session, session.begin():  # everyone waits again
            await session.execute(update(PoolEntry).values(game_id=None))
            await session.execute(delete(Game))
    await games.close()
    await engine.dispose()
    return paired_times, tell_times, made_count


def database_round(backend: str, players: int, rounds: int, pairable: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="kodama-pairing-") as tmp:
        if backend == "sqlite":
            url = f"sqlite+aiosqlite:///{tmp}/bench.sqlite"
            pg = None
        else:
            from tests.postgres import TempPostgres  # noqa: PLC0415 (only for this backend)

            pg = TempPostgres().start()
            url = pg.create_database("kodama_pairing")
        try:
            migrate(url)
            paired, told, made = asyncio.run(db_rounds(url, players, rounds, pairable=pairable))
        finally:
            if pg is not None:
                pg.stop()
    total = [p + t for p, t in zip(paired, told, strict=True)]
    median = statistics.median(paired)
    kind = "most pairable at once" if pairable else "none pairable yet"
    print(f"database round       {backend}, {players} waiting ({kind}): {made} games made")
    print(
        f"  pair (one transaction, every pool)           median {median:.1f} ms, "
        f"max {max(paired):.1f} ms (goal ≤ {GOAL_MS:.0f} ms: "
        f"{'met' if median <= GOAL_MS else 'NOT met'})"
    )
    print(
        f"  tell the games' events after commit         median {statistics.median(told):.1f} ms"
        f" ({statistics.median(told) / max(1, made):.2f} ms a game)"
    )
    print(f"  both                                        median {statistics.median(total):.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--pools", type=int, default=15)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--db", default="postgres", choices=("postgres", "sqlite", "none"))
    parser.add_argument("--db-rounds", type=int, default=5)
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
        f"arithmetic round     median {median:.1f} ms, max {max(timings):.1f} ms "
        f"(goal ≤ {GOAL_MS:.0f} ms: {'met' if median <= GOAL_MS else 'NOT met'})"
    )
    print(f"paired per round     median {statistics.median(paired):.0f} players")
    if args.db != "none":
        for pairable in (False, True):
            database_round(args.db, args.players, args.db_rounds, pairable)
    print("rating window        waited → widest difference allowed")
    for seconds in (0, 5, 10, 20, 30, 40, 59, 60):
        gap = allowed_gap(seconds * 1000)
        shown = "anyone" if gap == float("inf") else f"{gap:.0f}"
        print(f"{'':21}{seconds:>3} s → {shown}")


if __name__ == "__main__":
    main()
