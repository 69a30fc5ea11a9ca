"""Server memory per idle WebSocket: N sockets opened against the real server, its RSS before
and after.

For each kind of socket (``lobby``: the lobby page's; ``game``: a spectator's, spread over
live games, ``--per-game`` to a game) a fresh server is started (``python -m app serve``, on
SQLite by default), warmed up (a few hundred sockets of that kind opened and closed), its RSS
read; then N sockets are opened, each reading its messages as a browser does (presence
updates while the crowds form), left idle a few seconds, and the RSS read again:

    per socket = (RSS after - RSS before) / N

Goal: <= 50 KB a socket, 10,000 idle sockets <= 600 MB of server RSS.

    .venv/bin/python bench/idle.py                         # 10,000 of each kind
    .venv/bin/python bench/idle.py --sockets 2000 --kinds lobby
    .venv/bin/python bench/idle.py --source /tmp/before    # another checkout's server

The client and the server share the machine's 2 cores; every phase is bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

_HERE = Path(__file__).resolve().parent
ROOT = _HERE.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.server import machine, new_game, run_async  # noqa: E402
from bench.sockets import (  # noqa: E402
    Running,
    close_many,
    open_many,
    raise_open_files,
    rss_kb,
    running,
)

GOAL_KB = 50
GOAL_TOTAL_MB = 600
GOAL_SOCKETS = 10_000
WARMUP = 300
SETTLE_S = 5.0


async def _games(server: Running, count: int) -> list[str]:
    gate = asyncio.Semaphore(16)

    async def one(index: int) -> str:
        async with gate:
            return (await new_game(server.base, index))[0]

    return list(await asyncio.gather(*(one(i) for i in range(count))))


async def measure(server: Running, kind: str, sockets: int, per_game: int) -> dict[str, float]:
    if kind == "lobby":
        urls = [f"{server.ws_base}/ws/lobby"] * sockets
        warm = urls[:WARMUP]
        first = "lobby"
    else:
        games = await _games(server, max(1, -(-sockets // per_game)))
        urls = [f"{server.ws_base}/ws/game/{games[i % len(games)]}" for i in range(sockets)]
        warm = [f"{server.ws_base}/ws/game/{g}" for g in games[: WARMUP // per_game + 1]]
        first = "state"
    await close_many(await open_many(warm, first))
    await asyncio.sleep(SETTLE_S)
    before = rss_kb(server.pid)
    started = time.perf_counter()
    readers = await open_many(urls, first)
    opened_s = time.perf_counter() - started
    await asyncio.sleep(SETTLE_S)
    after = rss_kb(server.pid)
    messages = sum(sum(r.kinds.values()) for r in readers)
    await close_many(readers)
    return {
        "before_mb": before / 1024,
        "after_mb": after / 1024,
        "per_socket_kb": (after - before) * 1.024 / sockets,  # KB (1000 bytes) a socket
        "open_s": opened_s,
        "messages": messages / sockets,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=GOAL_SOCKETS)
    parser.add_argument("--kinds", default="lobby,game")
    parser.add_argument("--per-game", type=int, default=20, help="spectators a game")
    parser.add_argument("--backend", default="sqlite", choices=("sqlite", "postgres"))
    parser.add_argument("--source", type=Path, default=None, help="run this checkout's server")
    args = parser.parse_args(argv)
    limit = raise_open_files(args.sockets + 2_000)
    print(f"{machine()}; open files limit {limit}")
    print(f"server: {args.source or ROOT}, {args.backend}")
    print(
        f"{'kind':<6} {'sockets':>7} {'RSS before MB':>13} {'RSS after MB':>12} "
        f"{'KB/socket':>9} {'open s':>7} {'msgs/socket':>11}"
    )
    ok = True
    for kind in args.kinds.split(","):
        with (
            tempfile.TemporaryDirectory(prefix="kodama-idle-") as tmp,
            running(args.backend, Path(tmp), source=args.source) as server,
        ):
            got = run_async(measure(server, kind, args.sockets, args.per_game))
        print(
            f"{kind:<6} {args.sockets:>7} {got['before_mb']:>13.1f} {got['after_mb']:>12.1f} "
            f"{got['per_socket_kb']:>9.1f} {got['open_s']:>7.1f} {got['messages']:>11.1f}"
        )
        ok = ok and got["per_socket_kb"] <= GOAL_KB
        if args.sockets == GOAL_SOCKETS:
            ok = ok and got["after_mb"] <= GOAL_TOTAL_MB
    print(
        f"Goal: <= {GOAL_KB} KB a socket, {GOAL_SOCKETS:,} idle sockets <= {GOAL_TOTAL_MB} MB "
        f"of server RSS: {'met' if ok else 'NOT met'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
