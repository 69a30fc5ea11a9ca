"""Server speed: N simulated games over WebSockets against a running server, per database.

For each backend (SQLite, PostgreSQL) the real server is started as a subprocess
(``python -m app serve``), N games are created and joined by invite over HTTP (two players
per game, each with its own cookie jar), both players connect their WebSocket, and the
games play random legal moves taken from ``legalMoves``. For every move the time from the
sender's send to the opponent's receipt of the matching ``move`` message is recorded. A bare
``websockets`` relay server (the same pairs and message count, messages of the same size,
no database, no rules) is measured in the same run as the floor.

Two loads, both printed:

- ``max``: a closed loop with no think time (the mover sends as soon as it receives the
  opponent's move). Moves/s is the throughput; the latency is then mostly queueing: with
  every game always having one move in flight, mean latency ~ games / (moves/s).
- ``paced``: the same games, but sends are spaced by one global limiter to an offered
  ``--rate`` (default 500 moves/s): the latency a player sees at that throughput.

    .venv/bin/python bench/server.py                                  # everything
    .venv/bin/python bench/server.py --games 50 --plies 20 --backends sqlite
    .venv/bin/python bench/server.py --backends postgres --profile /tmp/prof   # py-spy
    .venv/bin/python bench/server.py --source /tmp/before    # another checkout's server
    .venv/bin/python bench/server.py --reviews 4 --no-max    # with computer reviews running

Loopback only; every phase is bounded in count and time; the script stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Keep this script's folder off the import path (bench/engine.py would shadow the engine
# package) and put the project root on it (tests/postgres.py runs the throwaway PostgreSQL).
_HERE = Path(__file__).resolve().parent
ROOT = _HERE.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.asyncio.server import ServerConnection, serve  # noqa: E402

from bench import reviewload  # noqa: E402
from tests.postgres import TempPostgres, free_port  # noqa: E402

VARIANTS = ("dobutsu", "gorogoro", "jungle", "yote", "wali")
COOKIE = "kodama_player"
# The goal: 500 moves/s over 200 live games at p99 <= 50 ms.
GOAL_RATE = 500.0
GOAL_P99_MS = 50.0
GOAL_GAMES = 200
# A paced run "holds" its rate when it achieves this share of it (start and end edges).
RATE_TOLERANCE = 0.99
SETUP_CONCURRENCY = 16
REQUEST_TIMEOUT = 30.0
START_TIMEOUT = 60.0


# ---- measuring ----------------------------------------------------------------------------
@dataclass
class Result:
    target: str
    load: str
    games: int
    moves: int
    seconds: float
    latencies: list[float]
    errors: int = 0
    unfinished: int = 0
    client_cpu: float = 0.0  # CPU seconds of this process during the play phase
    server_cpu: float = 0.0  # ... of the server process (and PostgreSQL's processes)
    db_cpu: float = 0.0
    machine_cpu: float = 0.0  # ... of the whole machine (other processes: the rest)
    message_bytes: float = 0.0  # mean size of a move message as received
    plies: list[int] = field(default_factory=list)  # moves made, per game

    @property
    def other_cpu(self) -> float:
        """Whatever else ran on the machine meanwhile (the numbers are only clean near 0)."""
        return max(0.0, self.machine_cpu - self.client_cpu - self.server_cpu - self.db_cpu)

    @property
    def server_us_per_move(self) -> float:
        """The server process's CPU per move: steadier than moves/s on a busy machine."""
        return 1e6 * self.server_cpu / self.moves if self.moves else float("nan")

    @property
    def rate(self) -> float:
        return self.moves / self.seconds if self.seconds > 0 else 0.0

    def percentile_ms(self, q: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        index = min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))
        return ordered[index] * 1000


class Limiter:
    """One global pace for all games: the n-th send waits for t0 + n / rate (never catches
    up a lost slot in a burst: a server that falls behind shows as a lower achieved rate)."""

    def __init__(self, rate: float) -> None:
        self.interval = 1.0 / rate if rate > 0 else 0.0
        self.next_at = 0.0

    async def wait(self) -> None:
        if not self.interval:
            return
        now = time.perf_counter()
        due = max(now, self.next_at)
        self.next_at = due + self.interval
        if due > now:
            await asyncio.sleep(due - now)


# Builds what a player sends for a move: (ply before the move, the mover's side, move text).
Outgoing = Callable[[int, str, str], str]


class GameRun:
    """One game (or relay pair) being played: both players' readers share this record."""

    def __init__(self, limit: int, seed: str, outgoing: Outgoing, limiter: Limiter) -> None:
        self.limit = limit
        self.rng = random.Random(seed)
        self.outgoing = outgoing
        self.limiter = limiter
        self.sent: dict[int, tuple[float, str]] = {}  # ply after the move -> (time, sender)
        self.latencies: list[float] = []
        self.bytes = 0
        self.last_receipt = 0.0
        self.errors: list[dict[str, Any]] = []
        self.done = asyncio.Event()

    async def move(self, ws: ClientConnection, me: str, ply: int, legal: list[str]) -> None:
        await self.limiter.wait()
        move = self.rng.choice(legal)
        self.sent[ply + 1] = (time.perf_counter(), me)
        await ws.send(self.outgoing(ply, me, move))

    async def read(self, ws: ClientConnection, me: str) -> None:
        async for raw in ws:
            now = time.perf_counter()
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "error":
                self.errors.append(message)
                self.done.set()
                return
            if kind != "move":
                continue  # presence and the like
            ply = message["ply"]
            sent = self.sent.get(ply)
            over = message["status"] != "started" or not message["legalMoves"]
            if sent is not None and sent[1] != me:  # the opponent's move reached us
                self.latencies.append(now - sent[0])
                self.last_receipt = now
                self.bytes += len(raw)
                if over or ply >= self.limit:
                    self.done.set()
                    return
            if not over and ply < self.limit and message["turn"] == me:
                await self.move(ws, me, ply, message["legalMoves"])


@dataclass
class Seat:
    ws: ClientConnection
    side: str
    state: dict[str, Any]


def cpu_seconds(pids: list[int], *, reaped: bool = False) -> float:
    """User + system CPU seconds of these processes (Linux /proc); ``reaped``: also of their
    children that have exited (a pool's short-lived PostgreSQL backends)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += sum(int(f) for f in fields[11 : 15 if reaped else 13])
    return total / ticks


def busy_seconds() -> float:
    """CPU seconds the whole machine has spent busy (all CPUs, all processes) since boot."""
    with contextlib.suppress(OSError, IndexError, ValueError):
        ticks = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
        return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")  # - idle, iowait
    return 0.0


def children(parent: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(stat[1]) == parent:
                    found.append(int(entry.name))
    return found


def tree_cpu_seconds(root: int) -> float:
    """CPU seconds of a process, its live children and its exited children."""
    return cpu_seconds([root], reaped=True) + cpu_seconds(children(root))


@dataclass
class Target:
    """What the load runs against: its name, its process, and its database's CPU seconds."""

    name: str
    pid: int
    db_cpu: Callable[[], float] = float
    profile: Path | None = None  # py-spy's output for the play phase, if wanted


async def play(
    target: Target,
    load: str,
    pairs: list[tuple[Seat, Seat]],
    runs: list[GameRun],
    timeout: float,
) -> Result:
    """The play phase: every first player moves, then the readers drive the games."""
    readers = [
        asyncio.create_task(run.read(seat.ws, seat.side))
        for run, pair in zip(runs, pairs, strict=True)
        for seat in pair
    ]
    with profiling(target.pid, target.profile):
        cpu0 = time.process_time(), cpu_seconds([target.pid]), target.db_cpu(), busy_seconds()
        t0 = time.perf_counter()
        openers = [
            asyncio.create_task(run.move(first.ws, first.side, 0, first.state["legalMoves"]))
            for run, (first, _second) in zip(runs, pairs, strict=True)
        ]
        waiting = [asyncio.create_task(run.done.wait()) for run in runs]
        _done, pending = await asyncio.wait(waiting, timeout=timeout)
        # The end of the play phase: the last matching move received (not the clean-up below).
        last = max((run.last_receipt for run in runs), default=t0)
        seconds = (time.perf_counter() if pending else last) - t0
        cpu1 = time.process_time(), cpu_seconds([target.pid]), target.db_cpu(), busy_seconds()
    for task in [*readers, *openers, *pending]:
        task.cancel()
    await asyncio.gather(*readers, *openers, *pending, return_exceptions=True)
    latencies = [x for run in runs for x in run.latencies]
    errors = [e for run in runs for e in run.errors]
    for error in errors[:3]:
        print(f"  {target.name}: error from the server: {error}", file=sys.stderr)
    return Result(
        target=target.name,
        load=load,
        games=len(runs),
        moves=len(latencies),
        seconds=seconds,
        latencies=latencies,
        errors=len(errors),
        unfinished=len(pending),
        client_cpu=cpu1[0] - cpu0[0],
        server_cpu=cpu1[1] - cpu0[1],
        db_cpu=cpu1[2] - cpu0[2],
        machine_cpu=cpu1[3] - cpu0[3],
        message_bytes=sum(run.bytes for run in runs) / max(1, len(latencies)),
        plies=[len(run.latencies) for run in runs],
    )


async def bounded(items: list[Any], worker: Callable[[Any], Awaitable[Any]]) -> list[Any]:
    """worker(item) for every item, SETUP_CONCURRENCY at a time, results in order."""
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)

    async def one(item: Any) -> Any:
        async with gate:
            return await worker(item)

    return list(await asyncio.gather(*(one(item) for item in items)))


async def open_socket(url: str, cookie: str | None = None) -> ClientConnection:
    headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie else None
    return await connect(
        url, additional_headers=headers, proxy=None, open_timeout=REQUEST_TIMEOUT, max_size=2**20
    )


async def first_state(ws: ClientConnection) -> dict[str, Any]:
    """The full state the server sends first (presence messages may come before it)."""
    async with asyncio.timeout(REQUEST_TIMEOUT):
        for _ in range(20):
            message = json.loads(await ws.recv())
            if message.get("type") == "state":
                game: dict[str, Any] = message["game"]
                return game
    raise RuntimeError("no state message among the first 20")


async def close_all(pairs: list[tuple[Seat, Seat]]) -> None:
    async def close(ws: ClientConnection) -> None:
        with contextlib.suppress(Exception):
            async with asyncio.timeout(5):
                await ws.close()

    await bounded([seat.ws for pair in pairs for seat in pair], close)


# ---- the server ---------------------------------------------------------------------------
async def new_game(base: str, index: int) -> tuple[str, str, str]:
    """Create a game (creator = first player) and join it by invite: (id, cookie, cookie)."""
    cookies: list[str] = []
    body: dict[str, Any] = {
        "variant": VARIANTS[index % len(VARIANTS)],
        "rules": {},
        "clock": None,
        "color": "first",
        "public": False,
    }
    async with httpx.AsyncClient(base_url=base, trust_env=False, timeout=REQUEST_TIMEOUT) as a:
        created = await a.post("/api/games", json=body)
        created.raise_for_status()
        cookies.append(a.cookies[COOKIE])
        game_id = str(created.json()["id"])
        token = str(created.json()["inviteUrl"]).rsplit("/", 1)[1]
    async with httpx.AsyncClient(base_url=base, trust_env=False, timeout=REQUEST_TIMEOUT) as b:
        joined = await b.post(f"/api/invite/{token}")
        joined.raise_for_status()
        if joined.json()["seat"] != "second":
            raise RuntimeError(f"the invite seated its visitor as {joined.json()['seat']}")
        cookies.append(b.cookies[COOKIE])
    return game_id, cookies[0], cookies[1]


async def start_reviews(port: int, count: int, seed: int) -> list[str]:
    """``count`` games played to a finish and their reviews requested (bench/reviewload.py)."""
    if count < 1:
        return []
    base = f"http://127.0.0.1:{port}"
    made = [await new_game(base, i) for i in range(count)]
    for i, game in enumerate(made):
        await reviewload.finished_game(port, game, f"{seed}:review:{i}", open_socket, first_state)
    return await reviewload.request_reviews(port, made)


async def run_server_load(target: Target, port: int, load: str, args: argparse.Namespace) -> Result:
    base = f"http://127.0.0.1:{port}"
    made = await bounded(list(range(args.games)), lambda i: new_game(base, i))

    async def seat(item: tuple[str, str, str]) -> tuple[Seat, Seat]:
        game_id, first_cookie, second_cookie = item
        url = f"ws://127.0.0.1:{port}/ws/game/{game_id}"
        a = await open_socket(url, first_cookie)
        b = await open_socket(url, second_cookie)
        state = await first_state(a)
        await first_state(b)
        if state["status"] != "started" or state["turn"] != "first":
            raise RuntimeError(f"game {game_id} is not ready: {state['status']}")
        return Seat(a, "first", state), Seat(b, "second", state)

    pairs = await bounded(made, seat)

    def outgoing(ply: int, _me: str, move: str) -> str:
        return json.dumps({"type": "move", "move": move, "ply": ply})

    limiter = Limiter(args.rate if load != "max" else 0)
    runs = [GameRun(args.plies, f"{args.seed}:{i}", outgoing, limiter) for i in range(args.games)]
    try:
        return await play(target, load, pairs, runs, args.timeout)
    finally:
        await close_all(pairs)


def wait_for_server(port: int, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited ({proc.returncode}):\n{log.read_text()[-3000:]}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise TimeoutError(f"the server did not listen on port {port} within {START_TIMEOUT} s")


def stop_process(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)


@contextlib.contextmanager
def running_server(
    backend: str,
    workdir: Path,
    source: Path | None = None,
    *,
    settings: dict[str, str] | None = None,
    kill: bool = False,
) -> Iterator[tuple[int, Target]]:
    """``python -m app serve`` on a fresh database of this backend, stopped afterwards;
    ``source``: the app of that checkout instead of this one (a before/after comparison);
    ``settings``: more environment on top of the bench's; ``kill``: stop it with SIGKILL
    (a SIGINT would close thousands of sockets one by one once the numbers are taken)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("KODAMA_") and k not in ("DATABASE_URL", "SECRET_KEY")
    }
    data = workdir / f"data-{backend}"
    env.update(
        SECRET_KEY=secrets.token_urlsafe(32),
        KODAMA_DATA_DIR=str(data),
        # Games are all created before any is played: keep the no-first-move abort away.
        KODAMA_FIRST_MOVE_SECONDS="3600",
        # Only the server is measured: not the built-in bots' process `serve` would start.
        KODAMA_BUILTIN_BOTS="false",
        # Every simulated player comes from 127.0.0.1 and moves without thinking: the rate
        # limits (sized for people) would throttle the load itself, hundreds of games and
        # sockets from one address, a game's moves as fast as the server answers. The
        # buckets are still counted on every message, as in production: only never empty.
        KODAMA_RATELIMIT_IP_FACTOR="1000",
        KODAMA_RATELIMIT_MOVE_PER_S="1000000",
        KODAMA_RATELIMIT_MOVE_BURST="1000000",
        KODAMA_MAX_SOCKETS_PER_IP="1000000",
    )
    env.update(settings or {})
    if source is not None:  # ahead of this checkout's editable install
        env["PYTHONPATH"] = str(source.resolve())
    pg: TempPostgres | None = None
    db_cpu: Callable[[], float] = float
    if backend == "postgres":
        pg = TempPostgres(durable=True)
        pg.start()
        env["DATABASE_URL"] = pg.create_database("kodama_bench")
        postmaster = int((pg.data / "postmaster.pid").read_text().split()[0])

        def db_cpu() -> float:
            return tree_cpu_seconds(postmaster)

    port = free_port()
    log = workdir / f"server-{backend}.log"
    proc: subprocess.Popen[bytes] | None = None
    try:
        with log.open("wb") as out:
            proc = subprocess.Popen(
                [sys.executable, "-m", "app", "serve", "--host", "127.0.0.1", "--port", str(port)],
                cwd=workdir,  # no stray .env or data/ of the checkout
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        wait_for_server(port, proc, log)
        yield port, Target(backend, proc.pid, db_cpu)
    finally:
        if proc is not None and kill and proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
        elif proc is not None:
            stop_process(proc)
        if pg is not None:
            pg.stop()


@contextlib.contextmanager
def profiling(pid: int, out: Path | None) -> Iterator[None]:
    """py-spy samples the server for the block's duration (collapsed stacks: one a line)."""
    if out is None:
        yield
        return
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    out.parent.mkdir(parents=True, exist_ok=True)
    command = [spy, "record", "--pid", str(pid), "--format", "raw", "--rate", "100"]
    proc = subprocess.Popen(
        [*command, "--nonblocking", "-o", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1.0)  # let it attach
    try:
        yield
    finally:
        stop_process(proc)


# ---- the floor: a bare websockets relay ---------------------------------------------------
async def relay_server(port: int) -> None:
    """Each message goes to both sockets of its pair (the path), as a game channel does."""
    pairs: dict[str, set[ServerConnection]] = {}

    async def handler(ws: ServerConnection) -> None:
        members = pairs.setdefault(ws.request.path if ws.request else "/", set())
        members.add(ws)
        try:
            async for message in ws:
                for member in tuple(members):
                    with contextlib.suppress(Exception):
                        await member.send(message)
        finally:
            members.discard(ws)

    async with serve(handler, "127.0.0.1", port, max_size=2**20):
        await asyncio.sleep(3600)  # the parent stops it long before


async def run_relay_load(
    target: Target, port: int, load: str, args: argparse.Namespace, plies: list[int], size: int
) -> Result:
    pad = "x" * max(0, size - 120)

    def outgoing(ply: int, me: str, move: str) -> str:
        return json.dumps(
            {
                "type": "move",
                "ply": ply + 1,
                "move": move,
                "turn": "second" if me == "first" else "first",
                "status": "started",
                "legalMoves": ["a1a2", "b1b2"],
                "pad": pad,
            }
        )

    async def seat(index: int) -> tuple[Seat, Seat]:
        url = f"ws://127.0.0.1:{port}/pair/{index}"
        a = await open_socket(url)
        b = await open_socket(url)
        state = {"legalMoves": ["a1a2", "b1b2"]}
        return Seat(a, "first", state), Seat(b, "second", state)

    pairs = await bounded(list(range(args.games)), seat)
    await asyncio.sleep(0.2)  # both sockets of every pair registered by the relay
    limiter = Limiter(args.rate if load != "max" else 0)
    runs = [
        GameRun(max(1, plies[i]), f"{args.seed}:{i}", outgoing, limiter) for i in range(args.games)
    ]
    try:
        return await play(target, load, pairs, runs, args.timeout)
    finally:
        await close_all(pairs)


@contextlib.contextmanager
def running_relay(workdir: Path) -> Iterator[tuple[int, Target]]:
    port = free_port()
    log = workdir / "relay.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--relay-port", str(port)],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_for_server(port, proc, log)
        yield port, Target("floor (relay)", proc.pid)
    finally:
        stop_process(proc)


# ---- the report ---------------------------------------------------------------------------
def run_async(coro: Awaitable[Any]) -> Any:
    """uvloop when present (as uvicorn uses it), else asyncio."""
    try:
        import uvloop  # noqa: PLC0415
    except ImportError:
        return asyncio.run(coro)  # type: ignore[arg-type]
    return uvloop.run(coro)  # type: ignore[arg-type]


def machine() -> str:
    model = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return (
        f"{os.cpu_count()} CPUs ({model}), Python {platform.python_version()}, {platform.system()}"
    )


def table(results: list[Result]) -> str:
    head = (
        f"{'backend':<14} {'load':<12} {'games':>5} {'moves':>6} {'moves/s':>8} "
        f"{'p50 ms':>7} {'p99 ms':>7}  {'CPU% client/server/db/other':>27}  "
        f"{'server µs/move':>14}  {'errors':>6}"
    )
    lines = [head, "-" * len(head)]
    for r in results:
        cpu = "/".join(
            f"{100 * c / r.seconds:.0f}" if r.seconds else "-"
            for c in (r.client_cpu, r.server_cpu, r.db_cpu, r.other_cpu)
        )
        errors = f"{r.errors}" + (f" ({r.unfinished} unfinished)" if r.unfinished else "")
        lines.append(
            f"{r.target:<14} {r.load:<12} {r.games:>5} {r.moves:>6} {r.rate:>8.0f} "
            f"{r.percentile_ms(50):>7.1f} {r.percentile_ms(99):>7.1f}  {cpu:>27}  "
            f"{r.server_us_per_move:>14.0f}  {errors:>6}"
        )
    return "\n".join(lines)


def verdict(results: list[Result], rate: float) -> str:
    goal = (
        f"Goal: >= {GOAL_RATE:.0f} moves/s at p99 <= {GOAL_P99_MS:.0f} ms with {GOAL_GAMES} "
        "concurrent games on PostgreSQL, on this 2-core machine."
    )
    paced = [r for r in results if r.target == "postgres" and r.load != "max"]
    if not paced or rate < GOAL_RATE:
        return f"{goal}\n  not judged: needs a paced PostgreSQL run at --rate >= {GOAL_RATE:.0f}"
    r = paced[0]
    held = r.rate >= RATE_TOLERANCE * rate and not r.errors and not r.unfinished
    ok = held and r.games >= GOAL_GAMES and r.percentile_ms(99) <= GOAL_P99_MS
    return (
        f"{goal}\n  {'MET' if ok else 'NOT MET'}: postgres at {rate:.0f} moves/s offered "
        f"achieved {r.rate:.0f} moves/s with p99 {r.percentile_ms(99):.1f} ms "
        f"({r.games} games)"
    )


NOTES = """\
Notes:
- moves/s: moves whose opponent received them / wall time of the play phase; latency: the
  sender's send -> the opponent's receipt of that move's message (p50, p99 of every move).
- max: no think time (closed loop): each game always has one move in flight, so latency
  there is mostly queueing (mean ~ games / moves/s); it measures throughput, not the goal.
- paced: one global limiter offers --rate moves/s across the same number of games.
- The client (this process, one core at most) shares the 2 cores with the server and
  PostgreSQL: CPU% is each one's share of one core over the play phase; "other" is the
  rest of the machine (anything else running skews the numbers: keep it near 0).
- server µs/move: the server process's CPU time per move (HTTP and WebSocket included),
  the figure to compare between versions when the machine is busy.
- floor: a bare websockets relay (no HTTP app, no database, no rules) with the same pairs,
  the same number of messages per pair and messages of the same size."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games (200)")
    parser.add_argument("--plies", type=int, default=40, help="moves per game at most (40)")
    parser.add_argument("--backends", default="sqlite,postgres", help="sqlite,postgres")
    parser.add_argument("--seed", type=int, default=1, help="random moves' seed (1)")
    parser.add_argument(
        "--rate", type=float, default=GOAL_RATE, help="paced load, moves/s (500; 0: no paced run)"
    )
    parser.add_argument("--no-max", action="store_true", help="skip the closed-loop run")
    parser.add_argument("--no-floor", action="store_true", help="skip the relay floor")
    parser.add_argument(
        "--no-warmup", dest="warmup", action="store_false", help="skip the unmeasured warm-up"
    )
    parser.add_argument("--timeout", type=float, default=300.0, help="per play phase, s (300)")
    parser.add_argument("--profile", type=Path, default=None, help="py-spy output folder")
    parser.add_argument(
        "--source",
        type=Path,
        default=None,
        help="serve the app of this checkout (e.g. `git archive` of an earlier commit)",
    )
    parser.add_argument(
        "--reviews",
        type=int,
        default=0,
        help="finished games whose computer reviews run during the loads (0)",
    )
    parser.add_argument(
        "--review-workers", type=int, default=1, help="reviews run at once by the server (1)"
    )
    parser.add_argument("--relay-port", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.relay_port is not None:  # the floor's server process
        with contextlib.suppress(KeyboardInterrupt):
            run_async(relay_server(args.relay_port))
        return 0

    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    unknown = set(backends) - {"sqlite", "postgres"}
    if unknown or args.games < 1 or args.plies < 1:
        parser.error(f"backends are sqlite and postgres (not {sorted(unknown)}); games, plies >= 1")
    loads = ([] if args.no_max else ["max"]) + (
        [f"paced {args.rate:.0f}/s"] if args.rate > 0 else []
    )
    print(f"Kodama server benchmark: {machine()}, load average {os.getloadavg()[0]:.2f}")
    print(f"{args.games} games x {args.plies} plies, seed {args.seed}, loads: {', '.join(loads)}")
    results: list[Result] = []
    plies = [args.plies] * args.games
    size = 400
    with tempfile.TemporaryDirectory(prefix="kodama-bench-") as tmp:
        workdir = Path(tmp)
        for backend in backends:
            review_settings = {"KODAMA_REVIEW_WORKERS": str(args.review_workers)}
            with running_server(backend, workdir, args.source, settings=review_settings) as (
                port,
                target,
            ):
                if args.warmup:  # connections, caches: not measured
                    warm = argparse.Namespace(
                        **{**vars(args), "games": min(20, args.games), "plies": 10}
                    )
                    run_async(run_server_load(target, port, "max", warm))
                reviewed = run_async(start_reviews(port, args.reviews, args.seed))
                for load in loads:
                    if args.profile is not None:
                        target.profile = args.profile / f"{backend}-{load.split()[0]}.txt"
                    result = run_async(run_server_load(target, port, load, args))
                    results.append(result)
                    plies, size = result.plies, round(result.message_bytes)
                    print(
                        f"  {backend}, {load}: {result.moves} moves in {result.seconds:.1f} s, "
                        f"{result.message_bytes:.0f} bytes per move message"
                    )
                    if reviewed:
                        states = run_async(reviewload.review_states(port, reviewed))
                        print(f"    reviews after it: {states}")
        if not args.no_floor:
            with running_relay(workdir) as (port, target):
                for load in loads:
                    result = run_async(run_relay_load(target, port, load, args, plies, size))
                    results.append(result)
                    print(f"  floor, {load}: {result.moves} moves in {result.seconds:.1f} s")
    print()
    print(table(results))
    print()
    print(verdict(results, args.rate))
    print(NOTES)
    return 0


if __name__ == "__main__":
    sys.exit(main())
