"""What bench/idle.py and bench/lobby.py share: the real server (``python -m app serve``) on a
fresh database, its memory, and thousands of WebSockets opened against it.

Imported by those scripts (which put the project root on the import path first)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import resource
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from bench.server import running_server

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
    """The server of ``bench/server.py`` (a fresh database, no rate limits: the whole load
    comes from one address) with the socket benches' caps lifted too and ``settings`` on top;
    ``source``: run that checkout's ``app`` instead of this one (a before/after)."""
    workdir.mkdir(parents=True, exist_ok=True)
    caps = {
        "KODAMA_RATELIMIT_GAME_PER_S": "1000000",
        "KODAMA_RATELIMIT_GAME_BURST": "1000000",
        "KODAMA_MAX_OPEN_GAMES": "1000000",
        "KODAMA_MAX_OPEN_GAMES_PER_IP": "1000000",
    }
    with running_server(backend, workdir, source, settings={**caps, **settings}, kill=True) as (
        port,
        target,
    ):
        yield Running(port, target.pid)


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
