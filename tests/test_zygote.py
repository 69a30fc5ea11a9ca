"""The test servers forked by tests/zygote.py are real processes, as ``python -m app serve``
started from scratch would be: their own pid, the environment the test gave them, the exit
status the process really had."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import httpx
import pytest

from tests.server import first_start, running

SECRET = "zygote-test-SECRET-7QmX2rV9kLp4Wn8Ts3Zd"


def test_a_forked_server_serves_with_its_own_environment_and_stops_cleanly(tmp_path: Path):
    data = tmp_path / "a"
    data.mkdir()
    with first_start(data, SECRET) as server:  # from nothing, as on a new machine
        assert server.proc is not None and server.proc.pid != os.getpid()
        assert httpx.get(f"{server.base}/api/lobby", timeout=30).status_code == 200
        # The database is where this server's environment says, not the zygote's.
        assert (data / "kodama.sqlite3").exists()
    # uvicorn shuts down gracefully on SIGTERM, then raises it again: as from python -m app.
    assert server.proc.returncode == -signal.SIGTERM
    assert "Application shutdown complete" in server.log_tail()


def test_a_killed_server_reports_the_signal_as_popen_does(tmp_path: Path):
    with running(tmp_path, SECRET) as server:
        server.kill()
        assert server.proc is not None
        assert server.proc.returncode == -signal.SIGKILL
        assert server.proc.poll() == -signal.SIGKILL


def test_waiting_on_a_running_server_times_out(tmp_path: Path):
    with running(tmp_path, SECRET) as server:
        assert server.proc is not None
        with pytest.raises(subprocess.TimeoutExpired):
            server.proc.wait(timeout=0.01)
        assert server.proc.poll() is None
