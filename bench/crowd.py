"""Crowds: N spectators join one live game, then moves reach all of them.

The real server is started as a subprocess (``python -m app serve``, bench/server.py's
``running_server``), one game is created and joined, both players connect, then ``--spectators``
anonymous sockets join it (at most ``--concurrency`` handshakes at once). Printed:

- join: wall time from the first spectator's handshake to the last one's first state, the
  server's CPU seconds over that time (its process, and PostgreSQL's), and the messages each
  spectator received while the crowd formed (until one presence interval after the last join:
  the coalesced crowd update included) — max and mean;
- moves: ``--moves`` moves played by the two players, each timed from the mover's send to
  every spectator's receipt of it: p50, p99 and max over all spectators and moves.

Goals: 2,000 spectators in <= 10 s wall, <= 3 s server CPU, <= 5 messages each while
the crowd forms; a move then reaches all 2,000 with p99 <= 200 ms.

    .venv/bin/python bench/crowd.py                                 # PostgreSQL, 2,000
    .venv/bin/python bench/crowd.py --backend sqlite --spectators 500
    .venv/bin/python bench/crowd.py --profile /tmp/crowd.txt        # py-spy on the joins
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
ROOT = _HERE.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from websockets.asyncio.client import ClientConnection  # noqa: E402

from bench.server import (  # noqa: E402
    cpu_seconds,
    machine,
    new_game,
    open_socket,
    profiling,
    run_async,
    running_server,
)

FLUSH_S = 1.0  # the server's presence interval (KODAMA_PRESENCE_FLUSH_SECONDS, default)


@dataclass(eq=False)
class Spectator:
    ws: ClientConnection | None = None
    messages: int = 0  # received so far
    kinds: Counter[str] = field(default_factory=Counter)  # how many of each type
    joined: float = 0.0  # when its state arrived
    moves: dict[int, float] = field(default_factory=dict)  # ply -> when its move arrived
    state: asyncio.Event = field(default_factory=asyncio.Event)
    legal: list[str] = field(default_factory=list)  # the legal moves last seen

    async def read(self) -> None:
        assert self.ws is not None
        with contextlib.suppress(Exception):
            async for raw in self.ws:
                now = time.perf_counter()
                self.messages += 1
                message = json.loads(raw)
                kind = message.get("type")
                self.kinds[kind] += 1
                if kind == "state":
                    self.legal = message["game"]["legalMoves"]
                    if not self.state.is_set():
                        self.joined = now
                        self.state.set()
                elif kind == "move":
                    self.moves[message["ply"]] = now
                    self.legal = message["legalMoves"]


async def join(url: str, spectator: Spectator, gate: asyncio.Semaphore) -> asyncio.Task[None]:
    async with gate:
        spectator.ws = await open_socket(url)
        reader = asyncio.get_running_loop().create_task(spectator.read())
        await asyncio.wait_for(spectator.state.wait(), 60)
        return reader


class Player(Spectator):
    """A player's socket, read all along (its moves come back as they are played)."""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def run(port: int, pids: list[int], args: argparse.Namespace) -> dict[str, Any]:
    base = f"http://127.0.0.1:{port}"
    game_id, first_cookie, second_cookie = await new_game(base, 0)
    url = f"ws://127.0.0.1:{port}/ws/game/{game_id}"
    first, second = Player(), Player()
    for player, cookie in ((first, first_cookie), (second, second_cookie)):
        player.ws = await open_socket(url, cookie)
        asyncio.get_running_loop().create_task(player.read())
    crowd = [Spectator() for _ in range(args.spectators)]
    gate = asyncio.Semaphore(args.concurrency)
    cpu_before = cpu_seconds(pids, reaped=True)
    started = time.perf_counter()
    with profiling(pids[0], args.profile):
        readers = await asyncio.gather(*(join(url, s, gate) for s in crowd))
    joined = time.perf_counter()
    cpu_join = cpu_seconds(pids, reaped=True) - cpu_before
    await asyncio.sleep(FLUSH_S * 1.5)  # the last coalesced crowd update
    formed = [s.messages for s in crowd]
    kinds = sum((s.kinds for s in crowd), Counter[str]())
    latencies: list[float] = []
    for ply in range(args.moves):
        mover = first if ply % 2 == 0 else second
        assert mover.ws is not None
        sent = time.perf_counter()
        move = sorted(mover.legal)[0]
        await mover.ws.send(json.dumps({"type": "move", "move": move, "ply": ply}))
        async with asyncio.timeout(30):
            while not all(ply + 1 in s.moves for s in (first, second, *crowd)):
                await asyncio.sleep(0.01)
        latencies.extend(s.moves[ply + 1] - sent for s in crowd)
        await asyncio.sleep(0.2)
    for ws in (first.ws, second.ws, *(s.ws for s in crowd)):
        if ws is not None:
            with contextlib.suppress(Exception):
                await ws.close()
    for reader in readers:
        reader.cancel()
    return {
        "join_wall_s": joined - started,
        "join_cpu_s": cpu_join,
        "messages_max": max(formed),
        "messages_mean": statistics.fmean(formed),
        "kinds": ", ".join(f"{k} {n / len(crowd):.1f}" for k, n in kinds.most_common()),
        "move_p50_ms": percentile(latencies, 0.5) * 1000,
        "move_p99_ms": percentile(latencies, 0.99) * 1000,
        "move_max_ms": max(latencies) * 1000,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--backend", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument("--spectators", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=100, help="handshakes at once")
    parser.add_argument("--moves", type=int, default=6)
    parser.add_argument("--profile", type=Path, default=None, help="py-spy output (joins)")
    args = parser.parse_args(argv)
    print(f"# {machine()}; {args.spectators} spectators, {args.backend}")
    with (
        tempfile.TemporaryDirectory() as tmp,
        running_server(args.backend, Path(tmp)) as (
            port,
            target,
        ),
    ):
        pids = [target.pid]
        found = run_async(run(port, pids, args))
        db_cpu = target.db_cpu()
    print(
        f"join: {found['join_wall_s']:.2f} s wall, {found['join_cpu_s']:.2f} s server CPU"
        f" (PostgreSQL in total over the run: {db_cpu:.2f} s);"
        f" messages per spectator while forming: max {found['messages_max']},"
        f" mean {found['messages_mean']:.1f} ({found['kinds']})"
    )
    print(
        f"moves: p50 {found['move_p50_ms']:.0f} ms, p99 {found['move_p99_ms']:.0f} ms,"
        f" max {found['move_max_ms']:.0f} ms to all {args.spectators}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
