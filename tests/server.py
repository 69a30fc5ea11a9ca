"""A real Kodama server process for the tests that need one (restarts, browsers).

The process is forked from the test worker's zygote (tests/zygote.py), which has already
imported the server: the same ``main()`` as ``python -m app serve``, without ~1.5 s of
imports each time."""

from __future__ import annotations

import atexit
import contextlib
import functools
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
from websockets.sync.client import ClientConnection, connect

from app.http.identity import COOKIE
from tests.postgres import PortTaken, free_port, start_on_a_free_port, wait_for_port
from tests.templates import SQLITE_FILE, SqliteTemplate
from tests.zygote import Forked

ROOT = Path(__file__).resolve().parents[1]
CHEAP_HASHING = {
    "KODAMA_ARGON2_TIME_COST": "1",
    "KODAMA_ARGON2_MEMORY_KIB": "8",
    "KODAMA_ARGON2_PARALLELISM": "1",
}

NO_NEW_ACCOUNT_PACE = {"KODAMA_CHAT_NEW_ACCOUNT_HOURS": "0", "KODAMA_CHAT_NEW_ACCOUNT_GAMES": "0"}

# uvicorn's words when its port is taken (it logs them and the server exits).
PORT_IN_USE = "address already in use"


class Server:
    def __init__(self, env: dict[str, str], tmp_path: Path) -> None:
        # The built-in bots stay off unless a test asks for them (KODAMA_BUILTIN_BOTS=true).
        # Passwords are hashed at argon2's least cost, as the in-process tests do
        # (tests/app/accounts_and_streams.py cheap_hashing): the default costs ~0.2 s of CPU a
        # hash or check, and the servers of one run of tests/app logged 71 registrations, 36
        # log-ins and 54 tokens made with a password.
        # A new account's slower chat pace (app/chat/safety.py) is off too, as in the
        # in-process tests (tests/app/conftest.py make_settings): every test's accounts are new.
        self.env = {"KODAMA_BUILTIN_BOTS": "false", **CHEAP_HASHING, **NO_NEW_ACCOUNT_PACE, **env}
        self.port = free_port()
        self.log = tmp_path / "server.log"
        self.proc: Forked | None = None

    def start(self) -> None:
        start_on_a_free_port(self._start_once, self._repick)

    def _repick(self) -> None:
        self.port = free_port()

    def _start_once(self) -> None:
        self.proc = Forked(["serve", "--port", str(self.port)], self.env, ROOT, self.log)
        self._wait_until_listening(timeout=120)

    def _wait_until_listening(self, timeout: float) -> None:
        """Until this server process listens on its port (not merely until the port accepts
        connections: another process may be listening there); a process that exited, or is
        still not listening after ``timeout`` (a very busy machine), fails the test with the
        end of its log, and one that could not bind raises PortTaken."""
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                if PORT_IN_USE in self.log_tail():
                    raise PortTaken(self.port)
                raise RuntimeError(
                    f"the server exited ({self.proc.returncode}) before listening:\n"
                    + self.log_tail()
                )
            with contextlib.suppress(TimeoutError):
                wait_for_port(self.port, timeout=0.5, pid=self.proc.pid)
                return
        raise TimeoutError(f"the server is not listening after {timeout} s:\n{self.log_tail()}")

    def log_tail(self, lines: int = 40) -> str:
        text = self.log.read_text(encoding="utf-8", errors="replace")
        return "\n".join(text.splitlines()[-lines:])

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()  # a test must not hang on a server that will not stop
                self.proc.wait(timeout=10)
                raise

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@functools.cache
def migrated_sqlite() -> SqliteTemplate:
    """This process's SQLite database at the head revision, made on first use: a server
    started on a copy has nothing to migrate (~0.15 s of CPU less than from an empty
    folder, where 46 of the 81 servers of a run of tests/app started)."""
    folder = Path(tempfile.mkdtemp(prefix="kodama-server-sqlite-"))
    atexit.register(shutil.rmtree, folder, True)
    return SqliteTemplate.make(folder)


@contextlib.contextmanager
def running(
    data: Path, secret: str, database_url: str | None = None, **settings: str
) -> Iterator[Server]:
    """A started server on ``data`` (SQLite there, unless ``database_url``), with these
    environment settings (``KODAMA_…``); stopped on leaving. Its SQLite database starts as
    a copy of one already migrated, unless ``data`` has one already."""
    if database_url is None and not (data / SQLITE_FILE).exists():
        migrated_sqlite().copy_to(data)
    with first_start(data, secret, database_url, **settings) as server:
        yield server


@contextlib.contextmanager
def first_start(
    data: Path, secret: str, database_url: str | None = None, **settings: str
) -> Iterator[Server]:
    """As ``running``, on ``data`` as it is: an empty folder is a first start from nothing,
    as on a fresh machine (the server makes and migrates its SQLite database)."""
    env = {**os.environ, "SECRET_KEY": secret, "KODAMA_DATA_DIR": str(data), **settings}
    env.pop("DATABASE_URL", None)
    if database_url is not None:
        env["DATABASE_URL"] = database_url
    srv = Server(env, data)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


ACCOUNT_PASSWORD = "a long enough password"


def account_token(server: Server, username: str, scopes: str) -> str:
    """Register an account on this server and mint a token with these (comma-separated)
    scopes, as a person does over HTTP; the token."""
    with httpx.Client(base_url=server.base, timeout=30) as web:
        credentials = {"username": username, "password": ACCOUNT_PASSWORD}
        web.post("/api/account/register", json=credentials).raise_for_status()
        made = web.post("/api/token", data={**credentials, "scopes": scopes})
        made.raise_for_status()
        token: str = made.json()["token"]
        return token


def open_socket(server: Server, path: str, client: httpx.Client | None = None) -> ClientConnection:
    """A WebSocket to ``path`` on this server, as ``client``'s visitor (its identity cookie)
    or as a new one."""
    headers = {} if client is None else {"Cookie": f"{COOKIE}={client.cookies[COOKIE]}"}
    # Opened now, for a test that holds it without a with block (websockets 17 warns on a
    # connection used so unless it was entered; entering it works with every version).
    url = f"ws://127.0.0.1:{server.port}{path}"
    opened: ClientConnection = connect(url, additional_headers=headers).__enter__()
    return opened
