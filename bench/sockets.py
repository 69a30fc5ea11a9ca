"""What bench/idle.py and bench/lobby.py share: the real server (``python -m app serve``) on a
fresh database, its memory, and thousands of WebSockets opened against it.

Imported by those scripts (which put the project root on the import path first)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import resource
import secrets
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from bench.server import wait_for_server
from tests.postgres import TempPostgres, free_port

CONNECT_CONCURRENCY = 200
TIMEOUT = 60.0


def raise_open_files(wanted: int) -> int:
    """Lift this process's limit of open files towards ``wanted`` (the hard limit caps it);
    a server started afterwards inherits it. Returns the limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def rss_kb(pid: int) -> int:
    """The resident memory of a process, in KiB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


@dataclass
class Running:
    port: int
    pid: int
    postmaster: int | None  # PostgreSQL's, or None on SQLite

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


@contextlib.contextmanager
def running(
    backend: str, workdir: Path, *, source: Path | None = None, **settings: str
) -> Iterator[Running]:
    """The server on a fresh database of ``backend``, with the bench's settings (no rate
    limits or socket caps: the whole load comes from one address) and ``settings`` on top;
    ``source``: run that checkout's ``app`` instead of this one (a before/after)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("KODAMA_") and k not in ("DATABASE_URL", "SECRET_KEY", "PYTHONPATH")
    }
    workdir.mkdir(parents=True, exist_ok=True)
    env.update(
        SECRET_KEY=secrets.token_urlsafe(32),
        KODAMA_DATA_DIR=str(workdir / f"data-{backend}"),
        KODAMA_FIRST_MOVE_SECONDS="3600",
        KODAMA_BUILTIN_BOTS="false",
        KODAMA_RATELIMIT_IP_FACTOR="1000",
        KODAMA_RATELIMIT_MOVE_PER_S="1000000",
        KODAMA_RATELIMIT_MOVE_BURST="1000000",
        KODAMA_RATELIMIT_GAME_PER_S="1000000",
        KODAMA_RATELIMIT_GAME_BURST="1000000",
        KODAMA_MAX_SOCKETS_PER_IP="1000000",
        KODAMA_MAX_OPEN_GAMES="1000000",
        KODAMA_MAX_OPEN_GAMES_PER_IP="1000000",
        **settings,
    )
    if source is not None:
        env["PYTHONPATH"] = str(source)
    pg: TempPostgres | None = None
    postmaster = None
    if backend == "postgres":
        pg = TempPostgres(durable=True)
        pg.start()
        env["DATABASE_URL"] = pg.create_database("kodama_bench")
        postmaster = int((pg.data / "postmaster.pid").read_text().split()[0])
    port = free_port()
    log = workdir / f"server-{backend}.log"
    proc: subprocess.Popen[bytes] | None = None
    try:
        with log.open("wb") as out:
            proc = subprocess.Popen(
                [sys.executable, "-m", "app", "serve", "--host", "127.0.0.1", "--port", str(port)],
                cwd=source or workdir,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        wait_for_server(port, proc, log)
        yield Running(port, proc.pid, postmaster)
    finally:
        if proc is not None and proc.poll() is None:
            # A SIGINT would close thousands of sockets one by one: the numbers are taken.
            proc.kill()
            proc.wait(timeout=30)
        if pg is not None:
            pg.stop()


@dataclass(eq=False)
class Reader:
    """One open socket whose messages are read as they come (as a browser does) and
    counted, so that nothing waits in the server's buffers."""

    ws: ClientConnection
    first: dict[str, Any]
    kinds: dict[str, int] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None

    async def read(self) -> None:
        with contextlib.suppress(Exception):
            async for raw in self.ws:
                kind = str(json.loads(raw).get("type"))
                self.kinds[kind] = self.kinds.get(kind, 0) + 1


async def open_reader(url: str, first_type: str) -> Reader:
    # Offers permessage-deflate, as every browser does (the server decides whether to use it).
    ws = await connect(url, proxy=None, open_timeout=TIMEOUT, ping_interval=None)
    async with asyncio.timeout(TIMEOUT):
        while True:
            message = json.loads(await ws.recv())
            if message.get("type") == first_type:
                break
    reader = Reader(ws, message)
    reader.task = asyncio.get_running_loop().create_task(reader.read())
    return reader


async def open_many(urls: list[str], first_type: str) -> list[Reader]:
    """A socket on each URL (CONNECT_CONCURRENCY handshakes at a time), each past its first
    message of ``first_type``."""
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)

    async def one(url: str) -> Reader:
        async with gate:
            return await open_reader(url, first_type)

    return list(await asyncio.gather(*(one(url) for url in urls)))


async def close_many(readers: list[Reader]) -> None:
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)

    async def one(reader: Reader) -> None:
        async with gate:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(5):
                    await reader.ws.close()
            if reader.task is not None:
                reader.task.cancel()

    await asyncio.gather(*(one(r) for r in readers))
