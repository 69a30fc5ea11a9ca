"""An arena of 500 players in one app: the time of each pairing wave as games end in waves,
of a burst of games ending at once (each end asks for a wave), and of the standings read
that an arena's page makes every 2 seconds.

    .venv/bin/python bench/arena.py                     # 500 players, SQLite
    .venv/bin/python bench/arena.py --db postgres       # a temporary PostgreSQL
    .venv/bin/python bench/arena.py --url postgresql+asyncpg://…/kodama_bench

The service runs as the app runs it (app/tournaments/service.py) on the injected clock,
without its 2-second ticker, so that each wave is timed alone: 500 accounts join, the arena
starts (the first wave pairs everyone), then ``--waves`` times a random ``--ending`` share of
the games on ends (through the outbox's arena consumer, app/tournaments/results.py) and one
wave pairs their players again. Goals: a wave under 100 ms; the standings read, which every
page watching makes at most every 2 seconds (its poll), well under that.
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
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sqlalchemy import insert, select, update  # noqa: E402

from app.__main__ import migrate  # noqa: E402
from app.core.config import Settings  # noqa: E402
from app.core.time import ManualClock  # noqa: E402
from app.db.engine import make_engine, make_sessionmaker  # noqa: E402
from app.db.models import Player  # noqa: E402
from app.domain.enums import EndReason, GameStatus, Side  # noqa: E402
from app.domain.events import GameEnded  # noqa: E402
from app.domain.players import Identity  # noqa: E402
from app.games import GameService  # noqa: E402
from app.realtime.hub import LocalHub  # noqa: E402
from app.tournaments import reading, views  # noqa: E402
from app.tournaments.forms import ArenaForm  # noqa: E402
from app.tournaments.pairing import Waiting, wave  # noqa: E402
from app.tournaments.results import ArenaResults  # noqa: E402
from app.tournaments.service import Tournaments  # noqa: E402
from app.tournaments.tables import TournamentPairing, TournamentPlayer  # noqa: E402

WAVE_GOAL_MS = 100.0
POLL_SECONDS = 2.0  # static/js/pages/tournament.js reads the arena this often


def percentiles(ms: list[float]) -> str:
    ordered = sorted(ms)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"p50 {statistics.median(ordered):6.1f} ms, p99 {p99:6.1f} ms, max {ordered[-1]:6.1f} ms"


async def timed(work: Callable[[], Awaitable[Any]]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = await work()
    return (time.perf_counter() - start) * 1000, result


async def end_games(service: Tournaments, tid: str, share: float, rng: random.Random) -> list[str]:
    """End ``share`` of the arena's games on, as the outbox's consumer records each end."""
    async with service.sessions() as session:
        on = list(
            (
                await session.execute(
                    select(TournamentPairing.game_id).where(
                        TournamentPairing.tournament_id == tid,
                        TournamentPairing.status == "started",
                    )
                )
            ).scalars()
        )
    ending = rng.sample(on, max(1, round(len(on) * share))) if on else []
    results = ArenaResults()
    async with service.sessions() as session, session.begin():
        for game_id in ending:
            winner = rng.choice([Side.FIRST, Side.SECOND, None])
            status = GameStatus.DRAW if winner is None else GameStatus.RESIGN
            reason = EndReason.AGREEMENT if winner is None else EndReason.RESIGN
            ply = rng.randrange(10, 80)
            await results.apply(session, GameEnded(game_id, ply, status, winner, reason))
    return ending


async def run(url: str, players: int, waves: int, share: float, burst: int) -> None:
    engine = make_engine(url)
    sessions = make_sessionmaker(engine)
    is_postgres = not url.startswith("sqlite")
    clock = ManualClock()
    settings = Settings(database_url=url, secret_key="bench-" + secrets.token_hex(16))
    games = GameService(sessions, LocalHub(), settings, clock, is_postgres=is_postgres)
    service = Tournaments(sessions, games, clock, is_postgres=is_postgres)
    rng = random.Random(7)
    now = clock.now_ms()
    ids = [f"a{n:04d}" for n in range(players)]
    async with sessions() as session, session.begin():
        await session.execute(
            insert(Player),
            [
                {"id": i, "name": i, "username": i, "username_key": i, "created_ms": now}
                for i in ids
            ],
        )
    tour = await service.create(
        Identity(ids[0], ids[0]),
        ArenaForm(clock_limit_s=180, clock_increment_s=2, minutes=720, wait_minutes=1),
    )
    tid = tour.id
    join_ms, _ = await timed(
        lambda: asyncio.gather(*(service.join(tid, Identity(i, i), None) for i in ids))
    )
    async with sessions() as session, session.begin():  # ratings spread as a site's are
        for i in ids:
            await session.execute(
                update(TournamentPlayer)
                .where(TournamentPlayer.tournament_id == tid, TournamentPlayer.player_id == i)
                .values(rating=round(rng.gauss(1500, 300)))
            )
    backend = url.split(":", maxsplit=1)[0]
    print(f"players              {players} joined in {join_ms:.0f} ms ({backend})")

    await clock.advance_async(60_000)
    first_ms, _ = await timed(service.tick)  # starts it: the first wave pairs everyone
    on = await count_on(service, tid)
    print(f"first wave           {on} games made in {first_ms:.0f} ms (everyone at once)")

    wave_ms, made = [], []
    for _ in range(waves):
        await clock.advance_async(rng.randrange(2_000, 10_000))
        await end_games(service, tid, share, rng)
        ms, ids_made = await timed(lambda: service.pair(tid))
        wave_ms.append(ms)
        made.append(len(ids_made))
    print(
        f"waves                {waves}, {share:.0%} of the games on ending before each: "
        f"median {statistics.median(made):.0f} games made"
    )
    met = "met" if statistics.median(wave_ms) < WAVE_GOAL_MS else "NOT met"
    print(f"  a wave             {percentiles(wave_ms)} (goal < {WAVE_GOAL_MS:.0f} ms: {met})")
    print(f"  a game made        {sum(wave_ms) / max(1, sum(made)):.2f} ms")

    # A burst: ``burst`` games end at once, and each end's request asks for a wave.
    await clock.advance_async(5_000)
    ended = await end_games(service, tid, 1.0, rng)
    burst_n = min(burst, len(ended))
    burst_ms, results = await timed(
        lambda: asyncio.gather(*(service.pair(tid) for _ in range(burst_n)))
    )
    paired = sum(len(r) for r in results)
    print(
        f"burst                {burst_n} waves asked at once: {burst_ms:.0f} ms in all, "
        f"{paired} games made"
    )

    # The standings read of a watching page (GET /api/tournament/{id}), and of a player's.
    read_ms = []
    for n in range(20):

        async def read(me: str = ids[n], page: int = 1 + n % 5) -> dict[str, Any]:
            async with sessions() as session:
                found = await session.get(type(tour), tid)
                assert found is not None
                state = await reading.state(session, found)
            return views.info(found, state, clock.now_ms(), me, page=page)

        ms, _ = await timed(read)
        read_ms.append(ms)
    async with sessions() as session:
        games_so_far = len(
            (
                await session.execute(
                    select(TournamentPairing.game_id).where(TournamentPairing.tournament_id == tid)
                )
            ).all()
        )
    print(f"standings read       {games_so_far} games so far: {percentiles(read_ms)}")
    print(
        f"  read by a page     at most once every {POLL_SECONDS:.0f} s per watcher: "
        f"{statistics.median(read_ms) / (POLL_SECONDS * 10):.1f}% of one core per watcher"
    )
    await games.close()
    await engine.dispose()


async def count_on(service: Tournaments, tid: str) -> int:
    async with service.sessions() as session:
        rows = await session.execute(
            select(TournamentPairing.game_id).where(
                TournamentPairing.tournament_id == tid, TournamentPairing.status == "started"
            )
        )
        return len(rows.all())


def arithmetic(players: int, rounds: int) -> None:
    """The wave's pure function alone, everyone waiting (the first wave)."""
    rng = random.Random(3)
    ids = [f"a{n}" for n in range(players)]
    timings = []
    for _ in range(rounds):
        waiting = [
            Waiting(i, rng.choice(ids), rng.randrange(-2, 3)) for i in rng.sample(ids, players)
        ]
        start = time.perf_counter()
        wave(waiting, players)
        timings.append((time.perf_counter() - start) * 1000)
    print(f"wave arithmetic      {players} waiting: {percentiles(timings)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--waves", type=int, default=50)
    parser.add_argument("--ending", type=float, default=0.1, help="share of games on ending")
    parser.add_argument("--burst", type=int, default=50, help="waves asked at once")
    parser.add_argument("--db", default="sqlite", choices=("sqlite", "postgres"))
    parser.add_argument("--url", default=None, help="a migrated database's URL instead")
    args = parser.parse_args()
    arithmetic(args.players, 50)
    with tempfile.TemporaryDirectory(prefix="kodama-arena-") as tmp:
        pg = None
        url = args.url
        if url is None and args.db == "sqlite":
            url = f"sqlite+aiosqlite:///{tmp}/bench.sqlite"
        elif url is None:
            from tests.postgres import TempPostgres  # noqa: PLC0415 (only for this backend)

            pg = TempPostgres().start()
            url = pg.create_database("kodama_arena")
        try:
            if args.url is None:
                migrate(url)
            asyncio.run(run(url, args.players, args.waves, args.ending, args.burst))
        finally:
            if pg is not None:
                pg.stop()


if __name__ == "__main__":
    main()
