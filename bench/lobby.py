"""The cost of open lobby sockets while the lobby changes: ``/api/me`` latency and a
create-join-play of 4 moves, without and with N lobby sockets open.

The real server is started (``python -m app serve``, PostgreSQL by default); the lobby is
filled first (``--open`` public games waiting, ``--live`` public games being played: about a
21 KB lobby). Then, twice (no lobby socket; ``--sockets`` lobby sockets that read
what they are sent, as browsers do), while another client creates and cancels public games at
``--churn`` changes a second:

- ``/api/me`` is asked ``--requests`` times one after another: p50 and p99 latency;
- a game is created, joined by invite, both players connect and play 4 moves: its time;
- what each lobby socket received meanwhile: messages and bytes a second.

Goal: with 1,000 lobby sockets open, ``/api/me`` latency <= 2x its latency without
them; the create-join-play stays fast.

    .venv/bin/python bench/lobby.py
    .venv/bin/python bench/lobby.py --backend sqlite --sockets 500
    .venv/bin/python bench/lobby.py --source /tmp/before     # another checkout's server
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
ROOT = _HERE.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from bench.server import (  # noqa: E402
    VARIANTS,
    first_state,
    machine,
    new_game,
    open_socket,
    run_async,
)
from bench.sockets import (  # noqa: E402
    Reader,
    Running,
    close_many,
    open_many,
    raise_open_files,
    running,
)

GOAL_RATIO = 2.0


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


async def fill(server: Running, open_games: int, live_games: int) -> None:
    async with httpx.AsyncClient(base_url=server.base, trust_env=False, timeout=30) as client:
        for i in range(open_games):
            body = {
                "variant": VARIANTS[i % len(VARIANTS)],
                "color": "random",
                "clock": {"minutes": 5, "increment": 3},
            }
            (await client.post("/api/games", json=body)).raise_for_status()
    gate = asyncio.Semaphore(16)

    async def live(index: int) -> None:
        body = {"variant": VARIANTS[index % len(VARIANTS)], "color": "first", "clock": None}
        async with (
            gate,
            httpx.AsyncClient(base_url=server.base, trust_env=False, timeout=30) as a,
            httpx.AsyncClient(base_url=server.base, trust_env=False, timeout=30) as b,
        ):
            created = await a.post("/api/games", json=body)
            created.raise_for_status()
            (await b.post(f"/api/games/{created.json()['id']}/join")).raise_for_status()

    await asyncio.gather(*(live(i) for i in range(live_games)))


async def churn(server: Running, rate: float, stop: asyncio.Event) -> int:
    """Create and cancel public games, ``rate`` lobby changes a second, until ``stop``."""
    changes = 0
    async with httpx.AsyncClient(base_url=server.base, trust_env=False, timeout=30) as client:
        while not stop.is_set():
            created = await client.post("/api/games", json={"variant": "yote"})
            created.raise_for_status()
            await asyncio.sleep(1 / rate)
            await client.post(f"/api/games/{created.json()['id']}/cancel")
            changes += 2
            await asyncio.sleep(1 / rate)
    return changes


async def me_latencies(server: Running, count: int) -> list[float]:
    async with httpx.AsyncClient(base_url=server.base, trust_env=False, timeout=30) as client:
        (await client.get("/api/me")).raise_for_status()  # the cookie
        latencies = []
        for _ in range(count):
            started = time.perf_counter()
            (await client.get("/api/me")).raise_for_status()
            latencies.append(time.perf_counter() - started)
    return latencies


async def create_join_play(server: Running, moves: int = 4) -> float:
    started = time.perf_counter()
    game_id, first, second = await new_game(server.base, 0)
    url = f"{server.ws_base}/ws/game/{game_id}"
    sockets = {"first": await open_socket(url, first), "second": await open_socket(url, second)}
    try:
        state = await first_state(sockets["first"])
        await first_state(sockets["second"])
        turn, legal = state["turn"], state["legalMoves"]
        for ply in range(moves):
            mover = sockets[turn]
            await mover.send(json.dumps({"type": "move", "move": legal[0], "ply": ply}))
            while True:  # the move as the mover's socket receives it
                message = json.loads(await mover.recv())
                if message.get("type") == "move" and message["ply"] == ply + 1:
                    break
                if message.get("type") == "error":
                    raise RuntimeError(f"move refused: {message}")
            turn, legal = message["turn"], message["legalMoves"]
    finally:
        for ws in sockets.values():
            with contextlib.suppress(Exception):
                await ws.close()
    return time.perf_counter() - started


async def phase(server: Running, sockets: int, args: argparse.Namespace) -> dict[str, Any]:
    readers: list[Reader] = []
    if sockets:
        readers = await open_many([f"{server.ws_base}/ws/lobby"] * sockets, "lobby")
    first_bytes = len(json.dumps(readers[0].first)) if readers else 0
    stop = asyncio.Event()
    churning = asyncio.get_running_loop().create_task(churn(server, args.churn, stop))
    await asyncio.sleep(1.0)  # the churn under way
    started = time.perf_counter()
    latencies = await me_latencies(server, args.requests)
    play_s = await create_join_play(server)
    seconds = time.perf_counter() - started
    stop.set()
    changes = await churning
    received = sum(sum(r.kinds.values()) for r in readers)
    await close_many(readers)
    return {
        "sockets": sockets,
        "p50": 1000 * _percentile(latencies, 50),
        "p99": 1000 * _percentile(latencies, 99),
        "play_s": play_s,
        "changes": changes,
        "msgs_per_s": received / max(1, sockets) / seconds,
        "first_kb": first_bytes / 1000,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=1000)
    parser.add_argument("--backend", default="postgres", choices=("sqlite", "postgres"))
    parser.add_argument("--open", type=int, default=100, help="open public games first")
    parser.add_argument("--live", type=int, default=100, help="live public games first")
    parser.add_argument("--churn", type=float, default=10.0, help="lobby changes a second")
    parser.add_argument("--requests", type=int, default=300, help="/api/me requests")
    parser.add_argument("--source", type=Path, default=None, help="run this checkout's server")
    args = parser.parse_args(argv)
    raise_open_files(args.sockets + 2_000)
    print(f"{machine()}; server: {args.source or ROOT}, {args.backend}")
    with (
        tempfile.TemporaryDirectory(prefix="kodama-lobby-") as tmp,
        running(args.backend, Path(tmp), source=args.source) as server,
    ):
        run_async(fill(server, args.open, args.live))
        results = [run_async(phase(server, n, args)) for n in (0, args.sockets)]
    print(
        f"{'lobby sockets':>13} {'/api/me p50 ms':>14} {'p99 ms':>7} {'create-join-4-moves s':>21}"
        f" {'lobby changes':>13} {'msgs/socket/s':>13} {'first msg KB':>12}"
    )
    for r in results:
        print(
            f"{r['sockets']:>13} {r['p50']:>14.1f} {r['p99']:>7.1f} {r['play_s']:>21.2f}"
            f" {r['changes']:>13} {r['msgs_per_s']:>13.2f} {r['first_kb']:>12.1f}"
        )
    ratio = results[1]["p50"] / results[0]["p50"]
    ok = ratio <= GOAL_RATIO
    print(
        f"/api/me p50 with {args.sockets} lobby sockets = {ratio:.2f}x without them. Goal: <= "
        f"{GOAL_RATIO:.0f}x: {'met' if ok else 'NOT met'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
