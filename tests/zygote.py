"""Server processes for the tests, forked from one that has already imported the server.

A Kodama server spends ~1.5 s of CPU starting, nearly all of it importing FastAPI,
SQLAlchemy, pydantic and our modules; the suite starts well over a hundred of them on a
two-core machine (docs/benchmarks.md, "Where the CPU goes"). So each test worker starts one
*zygote*: a process that imports all that once, then forks a server on request. A forked
server is a real, separate process — its own pid, memory, sockets and exit status, killed
by a real ``SIGKILL`` — that runs the same ``main()`` as ``python -m app serve``, with the
environment, working directory and log file the test gave it (as gunicorn's ``--preload``
or Android's zygote do). What it does not repeat is the import.

The zygote reads one JSON request a line on its stdin and answers one JSON line on its
stdout. It reaps a server only when asked (``status``/``wait``), so a pid it gave out stays
that server's until the test has read its exit status. The test side (:class:`Forked`)
offers the part of ``subprocess.Popen`` the tests use, and signals through a pidfd, so a
signal can never reach another process that reused the pid.

When the test worker goes away (its end of the pipe closes), the zygote kills the servers
still running and exits.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import threading
import traceback
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]


# --- the zygote's side ---------------------------------------------------------------------


def _preload() -> None:
    """Import what ``python -m app serve`` imports on its way to listening."""
    import aiosqlite  # noqa: F401, PLC0415
    import asyncpg  # noqa: F401, PLC0415
    import sqlalchemy.dialects.postgresql.asyncpg  # noqa: PLC0415
    import sqlalchemy.dialects.sqlite.aiosqlite  # noqa: F401, PLC0415
    import uvicorn  # noqa: PLC0415
    import uvicorn.lifespan.on  # noqa: PLC0415
    import uvicorn.loops.auto  # noqa: PLC0415
    import uvicorn.protocols.http.auto  # noqa: PLC0415
    import uvicorn.protocols.websockets.auto  # noqa: F401, PLC0415

    import app.__main__  # noqa: PLC0415
    import app.core.heap  # noqa: PLC0415
    import app.http.protocol  # noqa: PLC0415
    import app.http.server  # noqa: PLC0415
    import app.main  # noqa: PLC0415
    import tests.crashpoints  # noqa: PLC0415
    import tests.toygame  # noqa: F401, PLC0415

    # The rules' tables made and everything so far frozen, as the server does once loaded:
    # a server's first collection then skips what it inherited, instead of walking (and so
    # copying) every page of it.
    app.core.heap.settle()


def _serve_in_child(request: dict[str, Any], channel: tuple[int, int]) -> None:
    """In the forked child: become the server the request asks for, and never return."""
    code = 1
    try:
        for fd in channel:
            os.close(fd)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = ["app", *request["argv"]]
        from app.__main__ import main  # noqa: PLC0415 - preloaded: no import happens here
        from tests.crashpoints import arm_from  # noqa: PLC0415 - preloaded too
        from tests.toygame import register_from  # noqa: PLC0415 - preloaded too

        arm_from(request["env"])  # a crash test's point, if it asks for one
        register_from(request["env"])  # the toy game, if the test plays it

        try:
            main(request["argv"])
            code = 0
        except SystemExit as exc:  # read as the interpreter reads it on its way out
            if exc.code is None or isinstance(exc.code, int):
                code = exc.code or 0
            else:
                print(exc.code, file=sys.stderr)
        # What the interpreter does on its way out (logging flushes its handlers there).
        atexit._run_exitfuncs()
    except BaseException:
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):  # a closed log must not block the exit
                stream.flush()
        os._exit(code)


def _zygote(requests: IO[str], answers: IO[str]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the test worker's to handle
    _preload()
    codes: dict[int, int] = {}
    live: set[int] = set()

    def reap(pid: int, block: bool) -> int | None:
        if pid not in codes and pid in live:
            done, status = os.waitpid(pid, 0 if block else os.WNOHANG)
            if done == pid:
                codes[pid] = os.waitstatus_to_exitcode(status)
                live.discard(pid)
        return codes.get(pid)

    channel = (requests.fileno(), answers.fileno())
    for line in requests:
        request = json.loads(line)
        op = request["op"]
        if op == "spawn":
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                _serve_in_child(request, channel)
            live.add(pid)
            answer: dict[str, Any] = {"pid": pid}
        elif op in ("status", "wait"):
            answer = {"code": reap(request["pid"], block=op == "wait")}
        else:
            answer = {"error": f"unknown op {op!r}"}
        answers.write(json.dumps(answer) + "\n")
        answers.flush()
    for pid in live:  # the test worker is gone: so are the servers it left running
        os.kill(pid, signal.SIGKILL)
    for pid in list(live):
        reap(pid, block=True)


# --- the test's side -----------------------------------------------------------------------


class Zygote:
    """One zygote for this test worker, started on first use."""

    _lock = threading.Lock()
    _process: subprocess.Popen[str] | None = None

    @classmethod
    def ask(cls, request: dict[str, Any]) -> dict[str, Any]:
        with cls._lock:
            process = cls._process
            if process is None or process.poll() is not None:
                process = cls._process = subprocess.Popen(
                    [sys.executable, "-m", "tests.zygote"],
                    cwd=ROOT,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    text=True,
                )
                atexit.register(process.stdin.close)  # type: ignore[union-attr]
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write(json.dumps(request) + "\n")
            process.stdin.flush()
            line = process.stdout.readline()
            if not line:
                raise RuntimeError(f"the test zygote exited ({process.wait()})")
            answer: dict[str, Any] = json.loads(line)
            if "error" in answer:
                raise RuntimeError(answer["error"])
            return answer


class Forked:
    """A server forked by the zygote, driven like the ``subprocess.Popen`` of
    ``python -m app serve`` it stands for: ``pid``, ``returncode``, ``poll``, ``wait``,
    ``send_signal``, ``terminate`` and ``kill``."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path, log: Path) -> None:
        self.args = argv
        self.returncode: int | None = None
        self.pid: int = Zygote.ask(
            {"op": "spawn", "argv": argv, "env": env, "cwd": str(cwd), "log": str(log)}
        )["pid"]
        # Not reaped until the zygote is asked, so this is still the server's pid.
        self._pidfd = os.pidfd_open(self.pid)

    def poll(self) -> int | None:
        if self.returncode is None:
            self._settle(Zygote.ask({"op": "status", "pid": self.pid})["code"])
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            ended, _, _ = select.select([self._pidfd], [], [], timeout)
            if not ended:
                raise subprocess.TimeoutExpired(self.args, timeout or 0)
            self._settle(Zygote.ask({"op": "wait", "pid": self.pid})["code"])
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            signal.pidfd_send_signal(self._pidfd, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def _settle(self, code: int | None) -> None:
        if code is not None:
            self.returncode = code
            os.close(self._pidfd)


if __name__ == "__main__":
    # The protocol's own descriptors, so that nothing a server prints can reach it.
    requests = os.fdopen(os.dup(0), "r")
    answers = os.fdopen(os.dup(1), "w")
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    os.close(devnull)
    _zygote(requests, answers)
