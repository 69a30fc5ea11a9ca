"""Long-lived connections against a real server process: NDJSON streams count with the
WebSockets against an address's cap (429 ``connections.too_many``), and near the process's
limit of open files (lowered here with prlimit) new ones are refused with 503
``server.busy`` while pages still load and players still move."""

from __future__ import annotations

import contextlib
import json
import os
import resource
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.app.accounts_and_streams import MATE
from tests.server import ACCOUNT_PASSWORD, Server, open_socket, running

SECRET = "limits-test-7wQpZr2mXvK9sLd4Fh8Ny3Bc"  # the server refuses a key under 32 characters
RESERVE = 40  # KODAMA_FILE_HANDLE_RESERVE
ROOM = 12  # long-lived connections the lowered limit leaves room for, past the reserve


def visitor(server: Server) -> httpx.Client:
    """A browser: its first request gets it a new identity cookie."""
    client = httpx.Client(base_url=server.base, timeout=15)
    client.get("/api/me").raise_for_status()
    return client


def started_game(server: Server) -> tuple[httpx.Client, str]:
    """Alice's client and the game she plays against Bob, started (she moves first)."""
    alice, bob = visitor(server), visitor(server)
    created = alice.post("/api/games", json={"variant": "dobutsu", "color": "first"}).json()
    token = created["inviteUrl"].rsplit("/", 1)[1]
    bob.post(f"/api/invite/{token}").raise_for_status()
    return alice, created["id"]


@contextlib.contextmanager
def streams() -> Iterator[list[httpx.Response]]:
    """Streamed answers opened with ``opened``, all closed on leaving."""
    held: list[httpx.Response] = []
    try:
        yield held
    finally:
        for response in held:
            response.close()


def opened(
    client: httpx.Client, held: list[httpx.Response], path: str, address: str | None = None
) -> httpx.Response:
    """The answer's head to a GET of ``path`` by a new visitor (no cookie), from ``address``
    (the proxy's X-Forwarded-For: the server trusts 127.0.0.1); its body left unread, the
    connection held, when it is 200."""
    headers = {} if address is None else {"X-Forwarded-For": address}
    client.cookies.clear()  # a new visitor each time
    response = client.send(client.build_request("GET", path, headers=headers), stream=True)
    if response.status_code == 200:
        held.append(response)
    else:
        response.read()
        response.close()
    return response


def socket_refusal(server: Server, path: str) -> tuple[int, str]:
    with open_socket(server, path) as ws, pytest.raises(ConnectionClosed) as cut:
        ws.recv(timeout=15)
    assert cut.value.rcvd is not None
    return cut.value.rcvd.code, cut.value.rcvd.reason


def many() -> httpx.Client:
    """A client that holds as many connections as asked."""
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=0)
    return httpx.Client(timeout=15, limits=limits)


def test_streams_count_with_the_sockets_of_their_address(tmp_path: Path):
    with (
        running(tmp_path, SECRET, KODAMA_MAX_SOCKETS_PER_IP="3") as server,
        many() as client,
        streams() as held,
    ):
        alice, game_id = started_game(server)
        credentials = {"username": "carol", "password": ACCOUNT_PASSWORD}
        visitor(server).post("/api/account/register", json=credentials).raise_for_status()
        base = server.base
        for path in (f"/api/stream/game/{game_id}", "/api/stream/event"):
            assert opened(client, held, base + path).status_code == 200
        with open_socket(server, "/ws/lobby") as lobby:
            assert json.loads(lobby.recv(timeout=15))["type"] == "lobby"
            # Two streams and a socket: the address's cap of 3, whatever the stream.
            for path in (
                f"/api/stream/game/{game_id}",
                f"/api/game/{game_id}?format=ndjson",
                "/api/stream/event",
                "/api/games/user/carol",
            ):
                refused = opened(client, held, base + path)
                assert refused.status_code == 429, (path, refused.text)
                assert refused.json()["code"] == "connections.too_many"
                assert refused.headers["retry-after"] == "1"
            code, reason = socket_refusal(server, "/ws/lobby")
            assert (code, reason) == (1013, "too many connections from this address")
            # Another address is not refused.
            other = opened(client, held, f"{base}/api/stream/game/{game_id}", "10.0.0.2")
            assert other.status_code == 200
        # A stream given back makes room again.
        held.pop(0).close()
        for _ in range(100):
            again = opened(client, held, f"{base}/api/stream/game/{game_id}")
            if again.status_code == 200:
                break  # (the server may not have seen the close yet)
        else:
            raise AssertionError("the closed stream was never given back")
        assert alice.get(f"/api/games/{game_id}").status_code == 200


def test_near_its_file_limit_the_server_refuses_new_streams_and_still_serves_players(
    tmp_path: Path,
):
    settings = {"KODAMA_MAX_SOCKETS_PER_IP": "1000", "KODAMA_FILE_HANDLE_RESERVE": str(RESERVE)}
    with running(tmp_path, SECRET, **settings) as server, many() as client, streams() as held:
        alice, game_id = started_game(server)
        newcomer = httpx.Client(base_url=server.base, timeout=15)
        # The server's soft limit lowered as an operator's ulimit would: room for ROOM more
        # connections past the reserve (this test's own connections included).
        assert server.proc is not None
        pid = server.proc.pid
        in_use = len(os.listdir(f"/proc/{pid}/fd"))
        _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.prlimit(pid, resource.RLIMIT_NOFILE, (in_use + RESERVE + ROOM, hard))
        answers = [
            opened(client, held, f"{server.base}/api/stream/game/{game_id}", f"10.0.1.{n}")
            for n in range(3 * ROOM)
        ]
        codes = [a.status_code for a in answers]
        assert 200 in codes and 503 in codes, codes
        assert set(codes) == {200, 503}, codes
        busy = answers[codes.index(503)]
        assert busy.json()["code"] == "server.busy"
        assert busy.headers["retry-after"] == "5"
        assert socket_refusal(server, "/ws/lobby") == (1013, "the server is busy; try again later")
        # Every stream opened still runs; a new visitor still loads a page; the player
        # already in a game still moves.
        assert newcomer.get("/", headers={"Accept": "text/html"}).status_code == 200
        assert newcomer.get("/api/me").status_code == 200
        assert alice.post(f"/api/board/game/{game_id}/move/{MATE[0]}").status_code == 200
        for response in held:
            first = json.loads(next(response.iter_lines()))
            assert first["id"] == game_id
        # Handles given back: streams are taken again.
        for response in held:
            response.close()
        held.clear()
        for _ in range(100):
            again = opened(client, held, f"{server.base}/api/stream/game/{game_id}", "10.0.2.1")
            if again.status_code == 200:
                break
        else:
            raise AssertionError("streams were still refused once the others closed")
        assert "Traceback" not in server.log_tail(400)
