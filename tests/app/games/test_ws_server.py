"""The sockets through a real server process (uvicorn and its WebSocket layer): clients that
leave while a reply is pending, and the closes the WebSocket layer makes by itself."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from app.http.identity import COOKIE
from tests.server import Server, running

LIMIT = 4096  # Settings.max_message_bytes: a larger message gets request.too_large
FRAME_LIMIT = 4 * LIMIT  # uvicorn's ws_max_size (app/__main__.py): a larger one closes


@pytest.fixture(params=["sqlite", "postgres"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    url = request.getfixturevalue("postgres_url") if request.param == "postgres" else None
    # The tests below send a player's pings and resyncs by the dozen in a second: far past
    # the "socket" rate limit (test_limits.py), which would answer them in their stead.
    with running(
        tmp_path,
        "ws-server-test-emuze3TRA4t4VfCrY2ukAUld5W65gUFV",
        url,
        KODAMA_RATELIMIT_SOCKET_BURST="1000",
    ) as srv:
        yield srv


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """For the closes made by uvicorn's WebSocket layer, before any of the app's code (or
    its database) is involved: one server for them all."""
    with running(
        tmp_path_factory.mktemp("ws-layer"), "ws-layer-test-ZbdwSyiB6kbeWm-TLfHMe4X459LH6IOb"
    ) as srv:
        yield srv


def _player(server: Server) -> httpx.Client:
    client = httpx.Client(base_url=server.base, timeout=10)
    client.get("/api/me").raise_for_status()  # the first visit gives the identity cookie
    return client


def _started_game(server: Server) -> tuple[httpx.Client, str]:
    alice, bob = _player(server), _player(server)
    created = alice.post("/api/games", json={"variant": "dobutsu", "color": "first"})
    created.raise_for_status()
    game_id: str = created.json()["id"]
    bob.post(f"/api/games/{game_id}/join").raise_for_status()
    return alice, game_id


def _socket(server: Server, path: str, client: httpx.Client | None = None) -> ClientConnection:
    headers = {} if client is None else {"Cookie": f"{COOKIE}={client.cookies[COOKIE]}"}
    return connect(f"ws://127.0.0.1:{server.port}{path}", additional_headers=headers)


def _next(ws: ClientConnection, kind: str) -> dict[str, Any]:
    for _ in range(20):
        message: dict[str, Any] = json.loads(ws.recv(timeout=15))
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind!r} message")


def _leave(ws: ClientConnection, abruptly: bool) -> None:
    """Close at once: with the closing handshake, or by dropping the TCP connection."""
    if abruptly:
        ws.close_socket()
    else:
        ws.close()


def _closed_with(ws: ClientConnection) -> int | None:
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(20):
            ws.recv(timeout=15)
    assert closed.value.rcvd is not None, "the server sent no close frame"
    return closed.value.rcvd.code


def _stopped_without_traceback(server: Server, game_id: str, alice: httpx.Client) -> str:
    """Stop the server (which waits for every handler) and read its log: no traceback."""
    with _socket(server, f"/ws/game/{game_id}", alice) as ws:  # the server still answers
        ws.send('{"type": "ping"}')
        assert _next(ws, "pong")["ply"] == 0
    server.stop()
    log = server.log.read_text()
    assert "Exception in ASGI application" not in log
    assert "Traceback" not in log
    return log


def test_sockets_left_while_a_reply_is_pending_leave_no_traceback(server: Server):
    alice, game_id = _started_game(server)
    needing_a_reply = [
        {"type": "ping"},
        {"type": "resync"},
        {"type": "move", "move": "a1a1", "ply": 0},  # refused: an error reply
        {"type": "nonsense"},
    ]
    for attempt in range(40):
        abruptly = attempt % 2 == 1
        message = json.dumps(needing_a_reply[attempt % len(needing_a_reply)])
        for path in (f"/ws/game/{game_id}", "/ws/lobby"):
            with _socket(server, path, alice) as ws:
                ws.send(message)
                _leave(ws, abruptly)
        with _socket(server, "/ws/game/no-such-game", alice) as ws:
            _leave(ws, abruptly)  # its error and 4404 close pending
    log = _stopped_without_traceback(server, game_id, alice)
    assert log.count('"WebSocket /ws/game/no-such-game" [accepted]') == 40


def test_streams_dropped_at_once_leave_no_traceback(server: Server):
    alice, game_id = _started_game(server)
    for _ in range(40):
        for path in (f"/api/stream/game/{game_id}", "/api/stream/event"):
            with alice.stream("GET", path):
                pass  # closed before its first line is read: its reads are under way
    log = _stopped_without_traceback(server, game_id, alice)
    assert log.count(f"GET /api/stream/game/{game_id} HTTP/1.1") == 40
    assert log.count("GET /api/stream/event HTTP/1.1") == 40


def test_a_message_up_to_the_frame_limit_is_refused_with_an_error_and_the_socket_stays(
    shared_server: Server,
):
    alice, game_id = _started_game(shared_server)
    with _socket(shared_server, f"/ws/game/{game_id}", alice) as ws:
        _next(ws, "state")
        for size in (LIMIT + 1, FRAME_LIMIT):
            ws.send("x" * size)
            assert _next(ws, "error")["code"] == "request.too_large"
        ws.send('{"type": "ping"}')
        assert _next(ws, "pong")["ply"] == 0


@pytest.mark.parametrize("size", [FRAME_LIMIT + 1, 17 * 1024])
def test_a_message_over_the_frame_limit_closes_the_socket_with_1009(
    shared_server: Server, size: int
):
    alice, game_id = _started_game(shared_server)
    with _socket(shared_server, f"/ws/game/{game_id}", alice) as ws:
        _next(ws, "state")
        ws.send("x" * size)
        assert _closed_with(ws) == 1009  # message too big


def test_invalid_utf8_in_a_text_frame_closes_the_socket_with_1007(shared_server: Server):
    alice, game_id = _started_game(shared_server)
    with _socket(shared_server, f"/ws/game/{game_id}", alice) as ws:
        _next(ws, "state")
        ws.send(b'{"type": "ping", "x": "\xff\xfe"}', text=True)  # a text frame, not UTF-8
        assert _closed_with(ws) == 1007  # invalid frame payload data


def test_the_lobby_socket_closes_alike(shared_server: Server):
    with _socket(shared_server, "/ws/lobby") as ws:
        _next(ws, "lobby")
        ws.send(b"\xc3\x28", text=True)
        assert _closed_with(ws) == 1007
    with _socket(shared_server, "/ws/lobby") as ws:
        _next(ws, "lobby")
        ws.send("x" * (FRAME_LIMIT + 1))
        assert _closed_with(ws) == 1009


def test_frames_are_not_compressed_unless_configured(shared_server: Server, tmp_path: Path) -> None:
    """permessage-deflate costs a zlib pass per message per socket: declined by default
    (docs/protocol.md), the handshake still succeeding; KODAMA_WS_COMPRESSION=true accepts it."""
    with _socket(shared_server, "/ws/lobby") as ws:  # the client offers it
        assert ws.response is not None
        assert ws.response.headers.get("Sec-WebSocket-Extensions") is None
        _next(ws, "lobby")
    secret = "ws-deflate-test-Qm3vB8kLr2XyP0aTn7cE5dHsW9uJfG4i"
    with (
        running(tmp_path, secret, KODAMA_WS_COMPRESSION="true") as srv,
        _socket(srv, "/ws/lobby") as ws,
    ):
        assert ws.response is not None
        assert "permessage-deflate" in ws.response.headers["Sec-WebSocket-Extensions"]
        _next(ws, "lobby")
