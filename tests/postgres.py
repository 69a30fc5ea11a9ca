"""A throwaway PostgreSQL server for the tests and the benchmarks.

The machine's server binaries are used (Debian's ``postgresql`` package, installed with apt
when missing: CI machines start with only what the project installs); a fresh cluster is
created in a temporary folder and started on a free loopback port, then removed. PostgreSQL
refuses to run as root, so as root the server runs as the ``postgres`` system user.

A cluster that need not survive a crash of the machine lives in memory (/dev/shm) when there
is room: copying a database from its template, dropping it and removing the cluster are file
operations, and on the disk's file system they cost the tests' cluster ~4 times the CPU.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import asyncpg

from tests.apt import install_once

T = TypeVar("T")

MEMORY = Path("/dev/shm")
MEMORY_ROOM = 2 * 2**30  # a cluster of the tests holds ~100 MB: room for many workers'


def memory_folder() -> Path | None:
    """/dev/shm when it is there with room to spare, else None (a container's /dev/shm is
    often 64 MB)."""
    try:
        stat = os.statvfs(MEMORY)
    except OSError:
        return None
    return MEMORY if stat.f_bavail * stat.f_frsize >= MEMORY_ROOM else None


def _bin_dir() -> Path | None:
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    if found:
        return found[-1].parent
    pg_ctl = shutil.which("pg_ctl")
    return Path(pg_ctl).parent if pg_ctl else None


def ensure_binaries() -> Path:
    """The folder of pg_ctl and initdb, installing Debian's postgresql package if needed."""
    return install_once("postgresql", _bin_dir)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


TCP_LISTEN = "0A"  # the state column of /proc/net/tcp
PORT_ATTEMPTS = 3
# PostgreSQL's words in its log when its port is taken (it then exits).
PG_PORT_IN_USE = "Address already in use"


class PortTaken(Exception):
    """A server could not bind its port: something else listens there."""


def listens(pid: int, port: int) -> bool:
    """Whether process ``pid`` holds a socket listening on this TCP port (Linux: the
    listening sockets of /proc/net/tcp and tcp6, matched by inode with the process's open
    descriptors)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(FileNotFoundError), open(table, encoding="ascii") as rows:
            next(rows)  # the header
            for row in rows:
                fields = row.split()
                local, state, inode = fields[1], fields[3], fields[9]
                if state == TCP_LISTEN and int(local.rsplit(":", 1)[1], 16) == port:
                    inodes.add(f"socket:[{inode}]")
    if not inodes:
        return False
    fds = Path(f"/proc/{pid}/fd")
    with contextlib.suppress(FileNotFoundError, ProcessLookupError):
        for fd in fds.iterdir():
            with contextlib.suppress(OSError):
                if os.readlink(fd) in inodes:
                    return True
    return False


def asyncpg_url(url: str) -> str:
    """The plain ``postgresql://`` form of a SQLAlchemy ``postgresql+asyncpg://`` URL."""
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


class AdminSession:
    """One connection kept open on an event loop in a thread of its own, so that synchronous
    code (fixtures, benchmarks) can use it whether or not its own thread runs a loop. A
    statement through it takes milliseconds; a ``createdb`` process took ~100 ms a database."""

    def __init__(self, dsn: str) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="postgres-admin", daemon=True
        )
        self._thread.start()
        self._conn = self._wait(asyncpg.connect(dsn))

    def _wait(self, work: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(work, self._loop).result(timeout=60)

    def execute(self, statement: str) -> None:
        self._wait(self._conn.execute(statement))

    def fetch(self, query: str) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in self._wait(self._conn.fetch(query))]

    def close(self) -> None:
        with contextlib.suppress(Exception):  # the server may be gone already
            self._wait(self._conn.close(timeout=5))
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()


class TempPostgres:
    """``with TempPostgres() as pg: pg.url("dbname")`` — a cluster for the block's duration."""

    def __init__(self, *, durable: bool = False) -> None:
        # durable=False turns fsync off and puts the files in memory when there is room:
        # tests need no crash safety of the database server itself (the server under test is
        # what gets killed, never PostgreSQL). The benchmarks measure a durable one on disk.
        self.durable = durable
        self.bin_dir = ensure_binaries()
        self.port = free_port()
        folder = None if durable else memory_folder()
        self.root = Path(tempfile.mkdtemp(prefix="kodama-pg-", dir=folder))
        self.data = self.root / "data"
        self._user: list[str] = []
        self._admin: AdminSession | None = None

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [*self._user, *args], capture_output=True, text=True, check=False, cwd=self.root
        )
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
        return done

    def start(self) -> TempPostgres:
        if os.geteuid() == 0:
            account = pwd.getpwnam("postgres")
            os.chown(self.root, account.pw_uid, account.pw_gid)
            self._user = ["runuser", "-u", "postgres", "--"]
        self._run(
            str(self.bin_dir / "initdb"),
            "-D", str(self.data),
            "-U", "postgres",
            "--auth=trust",
            "-E", "UTF8",
            "--no-sync",
        )  # fmt: skip
        start_on_a_free_port(self._start_server, self._repick)
        return self

    def _repick(self) -> None:
        self.port = free_port()

    def _log_text(self) -> str:
        log = self.root / "server.log"
        return log.read_text(encoding="utf-8", errors="replace") if log.exists() else ""

    def _start_server(self) -> None:
        """``pg_ctl -w start``: it waits for its own server, which exits if its port is taken."""
        options = [
            f"-p {self.port}",
            f"-k {self.root}",
            "-c listen_addresses=127.0.0.1",
            "-c max_connections=300",
        ]
        if not self.durable:
            options += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
            # Each copy of a template writes the whole database (~8 MB) to the WAL: recycled
            # after 128 MB rather than 1 GB, which would be a gigabyte of memory per worker.
            options += ["-c max_wal_size=128MB"]
            # Shared memory segments as files in the cluster's folder, not /dev/shm's
            # PostgreSQL.* files, which an immediate stop leaves behind for good.
            options += ["-c dynamic_shared_memory_type=mmap"]
        try:
            self._run(
                str(self.bin_dir / "pg_ctl"),
                "-D", str(self.data),
                "-o", " ".join(options),
                "-l", str(self.root / "server.log"),
                "-w",
                "-t", "60",
                "start",
            )  # fmt: skip
        except RuntimeError:
            if PG_PORT_IN_USE in self._log_text():
                raise PortTaken(self.port) from None
            raise

    def admin(self) -> AdminSession:
        """The session's connection to the server's ``postgres`` database (opened once)."""
        if self._admin is None:
            self._admin = AdminSession(asyncpg_url(self.url("postgres")))
        return self._admin

    def create_database(self, name: str, *, template: str | None = None) -> str:
        """A new database: empty, or a copy of ``template`` (``CREATE DATABASE … TEMPLATE``,
        a file-level copy: far cheaper than running the migrations again)."""
        copy = f' TEMPLATE "{template}"' if template is not None else ""
        self.admin().execute(f'CREATE DATABASE "{name}"{copy}')
        return self.url(name)

    def drop_database(self, name: str) -> None:
        """Drop ``name``, ending any connection still open to it."""
        self.admin().execute(f'DROP DATABASE "{name}" WITH (FORCE)')

    def seal_template(self, name: str) -> None:
        """Make ``name`` a template nobody can connect to. PostgreSQL refuses to copy a
        database while another session is connected to it, and a connection could change
        it: refusing every connection keeps each copy identical to the first."""
        self.admin().execute(
            f'ALTER DATABASE "{name}" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false'
        )

    def url(self, name: str) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        if self._admin is not None:
            self._admin.close()
            self._admin = None
        with contextlib.suppress(RuntimeError):
            self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> TempPostgres:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()


def wait_for_port(port: int, timeout: float = 30.0, pid: int | None = None) -> None:
    """Until something listens on ``port``: process ``pid`` itself, when given (the port
    accepting connections may be another process's)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pid is not None:
            if listens(pid, port):
                return
        else:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on port {port} after {timeout} s")


def start_on_a_free_port(start: Callable[[], None], repick: Callable[[], None]) -> None:
    """``start()`` a server on the port picked for it; while it raises PortTaken (the port,
    free when picked, was taken before the server bound it: another worker's server, another
    run's), ``repick()`` a port and start again, PORT_ATTEMPTS times in all."""
    for _ in range(PORT_ATTEMPTS - 1):
        try:
            start()
            return
        except PortTaken:
            repick()
    start()
