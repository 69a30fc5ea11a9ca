"""A test server's port is picked free, but something may listen there before the server
binds it (another worker's server, another run's): the test must then get a server of its
own on another port, never talk to the stranger (most likely seen: a test whose requests
went to another run's server until that one stopped, then "Connection refused"). The same
holds for nginx and for the PostgreSQL clusters."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests import nginx as proxies
from tests import postgres as clusters
from tests import server as servers
from tests.nginx import Nginx
from tests.postgres import TempPostgres, free_port, listens
from tests.server import running

SECRET = "ports-test-SECRET-4hVq9Rm2XwL7tNc8Kd3Zp"


@pytest.fixture
def squatter() -> Iterator[socket.socket]:
    """A listener that is not a Kodama server: it accepts connections and never answers."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        yield s


def test_a_server_whose_port_was_taken_meanwhile_starts_on_another(
    squatter: socket.socket, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    taken = squatter.getsockname()[1]
    picks = iter([taken])
    # The first port picked is the squatter's, as if it had taken it right after the pick.
    monkeypatch.setattr(servers, "free_port", lambda: next(picks, None) or free_port())
    with running(tmp_path, SECRET) as server:
        assert server.port != taken
        assert server.proc is not None and listens(server.proc.pid, server.port)
        assert httpx.get(f"{server.base}/api/lobby", timeout=30).status_code == 200
        assert not listens(server.proc.pid, taken)


def test_listens_tells_the_listening_process_apart(squatter: socket.socket, tmp_path: Path):
    taken = squatter.getsockname()[1]
    with running(tmp_path, SECRET) as server:
        assert server.proc is not None
        assert listens(server.proc.pid, server.port)
        assert not listens(server.proc.pid, taken)  # a listener, but not this process's
    assert not listens(server.proc.pid, server.port)  # stopped: nothing listens there


def test_nginx_whose_port_was_taken_meanwhile_starts_on_another(
    squatter: socket.socket, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    taken = squatter.getsockname()[1]
    picks = iter([taken])
    monkeypatch.setattr(proxies, "free_port", lambda: next(picks, None) or free_port())
    (tmp_path / "app").mkdir()
    with running(tmp_path / "app", SECRET) as server:
        proxy = Nginx([server.port], tmp_path / "nginx")
        proxy.start()
        try:
            assert proxy.port != taken
            assert proxy.proc is not None and listens(proxy.proc.pid, proxy.port)
            assert httpx.get(f"{proxy.base}/api/lobby", timeout=30).status_code == 200
        finally:
            proxy.stop()


def test_a_postgresql_cluster_whose_port_was_taken_meanwhile_starts_on_another(
    squatter: socket.socket, monkeypatch: pytest.MonkeyPatch
):
    taken = squatter.getsockname()[1]
    picks = iter([taken])
    monkeypatch.setattr(clusters, "free_port", lambda: next(picks, None) or free_port())
    pg = TempPostgres()
    pg.start()
    try:
        assert pg.port != taken
        assert pg.admin().fetch("SELECT 1") == [(1,)]
    finally:
        pg.stop()
