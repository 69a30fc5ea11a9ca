"""Game sockets' ping while clients hammer the analysis board: the real server, a few game
sockets each sending ``ping`` every 50 ms and timing its ``pong``, first alone, then while
``--clients`` visitors (4) each send ``POST /api/analysis/moves`` with a 1,000-move Gorogoro
line (8 KB in, ~4 MB out) as fast as they are answered: with the server's limits as they
are, then with the visitors' rate limit lifted (only the workers' queue bounds them). It
prints the pings' p50/p99/max and the analysis answers by status.

    .venv/bin/python bench/analysis_load.py
    .venv/bin/python bench/analysis_load.py --source /tmp/before   # another checkout's server
    .venv/bin/python bench/analysis_load.py --seconds 20 --sockets 10

The client and the server share the machine's 2 cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
ROOT = _HERE.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

import engine  # noqa: E402
from bench.server import machine, new_game, run_async  # noqa: E402
from bench.sockets import running  # noqa: E402

PING_EVERY_S = 0.05
PLIES = 1000
# The pings come faster than a page's: the socket's own rate limit must not answer them.
PINGS = {"KODAMA_RATELIMIT_SOCKET_PER_S": "1000000", "KODAMA_RATELIMIT_SOCKET_BURST": "1000000"}
UNLIMITED = {
    "KODAMA_RATELIMIT_ANALYSIS_PER_S": "1000000",
    "KODAMA_RATELIMIT_ANALYSIS_BURST": "1000000",
}


def long_line(plies: int = PLIES, seed: int = 1) -> list[str]:
    """A Gorogoro line of ``plies`` random moves, none of which ends the game."""
    game = engine.get_game("gorogoro")
    rng = random.Random(seed)
    pos = game.start()
    moves: list[str] = []
    while len(moves) < plies:
        options = game.legal_moves(pos)
        rng.shuffle(options)
        for text in options:
            after = game.play(pos, text)
            if game.result(after) is None:
                pos = after
                moves.append(text)
                break
        else:
            raise RuntimeError(f"no move goes on after {len(moves)} plies: try another seed")
    return moves


async def pinger(url: str, seconds: float, rtts: list[float]) -> None:
    async with connect(url, proxy=None, ping_interval=None, max_size=None) as ws:
        while json.loads(await ws.recv()).get("type") != "state":
            pass
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            sent = time.perf_counter()
            await ws.send('{"type":"ping"}')
            while (reply := json.loads(await ws.recv())).get("type") != "pong":
                if reply.get("type") == "error":
                    raise RuntimeError(f"a ping was refused: {reply}")
            rtts.append((time.perf_counter() - sent) * 1000)
            await asyncio.sleep(PING_EVERY_S)


async def hammer(base: str, body: bytes, stop: asyncio.Event, statuses: Counter[int]) -> None:
    async with httpx.AsyncClient(base_url=base, trust_env=False, timeout=120) as client:
        await client.get("/")  # a visitor with its own identity
        while not stop.is_set():
            answer = await client.post(
                "/api/analysis/moves", content=body, headers={"content-type": "application/json"}
            )
            statuses[answer.status_code] += 1
            if answer.status_code in (429, 503):
                await asyncio.sleep(0.05)  # what a client does that reads the refusal


async def phase(base: str, game: str, args: argparse.Namespace, clients: int) -> dict[str, Any]:
    url = base.replace("http", "ws", 1) + f"/ws/game/{game}"
    body = json.dumps({"variant": "gorogoro", "moves": long_line()}).encode()
    rtts: list[float] = []
    statuses: Counter[int] = Counter()
    stop = asyncio.Event()
    hammers = [asyncio.create_task(hammer(base, body, stop, statuses)) for _ in range(clients)]
    await asyncio.sleep(1.0 if clients else 0)  # the load running before the pings start
    await asyncio.gather(*(pinger(url, args.seconds, rtts) for _ in range(args.sockets)))
    stop.set()
    await asyncio.gather(*hammers)
    rtts.sort()
    return {
        "p50": statistics.median(rtts),
        "p99": rtts[min(len(rtts) - 1, int(len(rtts) * 0.99))],
        "max": rtts[-1],
        "pings": len(rtts),
        "answers": dict(sorted(statuses.items())),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=4, help="visitors hammering analysis")
    parser.add_argument("--sockets", type=int, default=5, help="game sockets pinging")
    parser.add_argument("--seconds", type=float, default=10.0, help="of pings, per phase")
    parser.add_argument("--backend", default="sqlite", choices=("sqlite", "postgres"))
    parser.add_argument("--source", type=Path, default=None, help="run this checkout's server")
    args = parser.parse_args(argv)
    print(f"{machine()}; server: {args.source or ROOT}, {args.backend}")
    print(f"{'load':<28} {'pings':>6} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7}  analysis answers")
    phases: list[tuple[str, dict[str, str], int]] = [("idle", {}, 0)]
    phases.append(("analysis, limits on", {}, args.clients))
    phases.append(("analysis, no visitor limit", UNLIMITED, args.clients))
    for name, settings, clients in phases:
        with (
            tempfile.TemporaryDirectory(prefix="kodama-analysis-") as tmp,
            running(args.backend, Path(tmp), source=args.source, **PINGS, **settings) as server,
        ):

            async def measure(base: str = server.base, clients: int = clients) -> dict[str, Any]:
                game = (await new_game(base, 0))[0]
                return await phase(base, game, args, clients)

            got = run_async(measure())
        answers = ", ".join(f"{n}× {status}" for status, n in got["answers"].items()) or "-"
        print(
            f"{name:<28} {got['pings']:>6} {got['p50']:>7.1f} {got['p99']:>7.1f} "
            f"{got['max']:>7.1f}  {answers}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
