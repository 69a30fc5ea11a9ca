"""Oversized and slow requests against a real server process (``python -m app serve``):
100 MB bodies with the server's memory measured, oversized heads and too many headers, and
clients trickling their headers (slowloris) while a normal client is served.

Raw sockets, so that the test controls every byte and when it is sent.
"""

from __future__ import annotations

import contextlib
import json
import select
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server import Server, running

SECRET = "limits-Yq3Jd8sWm1Zr6Tb0Xn4Kc7Pv2Lh5Fg9A"
HUGE = 100 * 1024 * 1024
HEAD_TIMEOUT = 3.0  # KODAMA_HEADER_TIMEOUT_SECONDS of the server under test
BODY_TIMEOUT = 3.0  # KODAMA_BODY_TIMEOUT_SECONDS
MB = 1024  # kB


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data = tmp_path_factory.mktemp("limits")
    with running(
        data,
        SECRET,
        KODAMA_HEADER_TIMEOUT_SECONDS=str(HEAD_TIMEOUT),
        KODAMA_BODY_TIMEOUT_SECONDS=str(BODY_TIMEOUT),
        KODAMA_KEEPALIVE_SECONDS="0.5",
    ) as srv:
        yield srv


# ---- the server's memory ----------------------------------------------------------------------
def memory_kb(pid: int) -> dict[str, int]:
    """VmRSS (now) and VmHWM (the peak since the last reset), in kB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0])
    return fields


def reset_peak(pid: int) -> None:
    Path(f"/proc/{pid}/clear_refs").write_text("5")  # VmHWM := VmRSS


def server_pid(server: Server) -> int:
    assert server.proc is not None
    return server.proc.pid


# ---- raw HTTP ---------------------------------------------------------------------------------
def connect(server: Server) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=30)


def read_response(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of one response with a Content-Length."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"closed before a response: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in lines)}
    while len(body) < int(headers.get("content-length", "0")):
        chunk = sock.recv(65536)
        assert chunk, "closed inside the body"
        body += chunk
    return int(status_line.split()[1]), headers, body


def closed_by_server(sock: socket.socket, within: float) -> bool:
    """Whether the server closes this connection within ``within`` seconds (what it sends
    before is read and dropped)."""
    deadline = time.monotonic() + within
    while (left := deadline - time.monotonic()) > 0:
        ready, _, _ = select.select([sock], [], [], left)
        if ready:
            try:
                if not sock.recv(65536):
                    return True
            except ConnectionResetError:
                return True
    return False


def get(server: Server, path: str, extra: bytes = b"") -> tuple[int, dict[str, str], bytes]:
    with connect(server) as sock:
        sock.sendall(b"GET " + path.encode() + b" HTTP/1.1\r\nHost: kodama\r\n" + extra + b"\r\n")
        return read_response(sock)


def post_huge(server: Server, path: str, *, declared: bool) -> tuple[int, dict[str, Any], int]:
    """POST a 100 MB body as fast as the server takes it, declared (Content-Length) or
    streamed (chunked), until the server answers: (status, JSON answer, bytes sent)."""
    sock = connect(server)
    with sock:
        length = f"Content-Length: {HUGE}" if declared else "Transfer-Encoding: chunked"
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: kodama\r\nContent-Type: application/json\r\n"
            f"{length}\r\n\r\n".encode()
        )
        piece = b'{"username": "' + b"x" * 65536
        frame = piece if declared else b"%x\r\n%s\r\n" % (len(piece), piece)
        sent = 0
        try:
            while sent < HUGE:
                answered, _, _ = select.select([sock], [], [], 0)
                if answered:
                    break  # the server has answered: no point sending the rest
                sock.sendall(frame)
                sent += len(piece)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server stopped reading and closed: its answer is waiting
        status, headers, body = read_response(sock)
        assert headers.get("connection") == "close"
        return status, json.loads(body), sent


# ---- bodies ------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/api/games", "/api/account/login"])
@pytest.mark.parametrize("declared", [True, False], ids=["content-length", "chunked"])
def test_a_100_mb_body_is_refused_with_413_and_the_server_does_not_hold_it(
    server: Server, path: str, declared: bool
):
    pid = server_pid(server)
    before = memory_kb(pid)["VmRSS"]
    reset_peak(pid)
    status, answer, sent = post_huge(server, path, declared=declared)
    assert status == 413
    assert answer["code"] == "request.too_large" and "16384 bytes" in answer["error"]
    assert sent < HUGE  # cut off: the server stopped reading long before the end
    peak = memory_kb(pid)["VmHWM"]
    assert peak - before < 4 * MB, f"the server grew by {(peak - before) / MB:.1f} MB"
    assert get(server, "/api/me")[0] == 200  # and serves on


def test_four_100_mb_bodies_at_once_leave_the_server_memory_flat(server: Server):
    pid = server_pid(server)
    before = memory_kb(pid)["VmRSS"]
    reset_peak(pid)
    results: list[int] = []

    def attack(path: str, declared: bool) -> None:
        results.append(post_huge(server, path, declared=declared)[0])

    threads = [
        threading.Thread(target=attack, args=(path, declared))
        for path in ("/api/games", "/api/account/login")
        for declared in (True, False)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert results == [413] * 4
    peak = memory_kb(pid)["VmHWM"]
    assert peak - before < 4 * MB, f"the server grew by {(peak - before) / MB:.1f} MB"


def test_a_declared_length_over_the_limit_is_answered_before_a_byte_of_body_is_sent(
    server: Server,
):
    with connect(server) as sock:
        sock.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: kodama\r\nContent-Type: application/json\r\n"
            b"Content-Length: 16385\r\n\r\n"
        )
        status, _, body = read_response(sock)
        assert status == 413 and json.loads(body)["code"] == "request.too_large"
        assert closed_by_server(sock, within=10)


# ---- heads -------------------------------------------------------------------------------------
def test_a_head_over_16_kb_is_refused_with_431(server: Server):
    status, headers, body = get(server, "/api/me", b"X-Padding: " + b"a" * 17_000 + b"\r\n")
    assert status == 431
    assert json.loads(body)["code"] == "request.head_too_large"
    assert headers["connection"] == "close"
    # A long head under the limit is served.
    assert get(server, "/api/me", b"X-Padding: " + b"a" * 15_000 + b"\r\n")[0] == 200


def test_a_head_growing_without_end_is_cut_off_at_the_limit(server: Server):
    with connect(server) as sock:
        sock.sendall(b"GET /api/me HTTP/1.1\r\nHost: kodama\r\nX-Endless: ")
        sent = 0
        try:
            while sent < HUGE and not select.select([sock], [], [], 0)[0]:
                sock.sendall(b"a" * 65536)
                sent += 65536
        except (BrokenPipeError, ConnectionResetError):
            pass
        status, _, body = read_response(sock)
    assert status == 431 and json.loads(body)["code"] == "request.head_too_large"
    assert sent < HUGE


def test_more_than_100_headers_are_refused_with_431(server: Server):
    def headers(n: int) -> bytes:  # Host is the first of the n
        return b"".join(b"X-Header-%d: %d\r\n" % (i, i) for i in range(n - 1))

    assert get(server, "/api/me", headers(100))[0] == 200
    status, answer_headers, body = get(server, "/api/me", headers(101))
    assert status == 431
    assert json.loads(body) == {
        "error": "a request has at most 100 headers",
        "code": "request.too_many_headers",
    }
    assert answer_headers["connection"] == "close"


def test_a_websocket_upgrade_with_too_many_headers_is_refused_too(server: Server):
    extra = b"".join(b"X-Header-%d: 1\r\n" % i for i in range(120))
    upgrade = (
        b"Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    )
    assert get(server, "/ws/lobby", upgrade + extra)[0] == 431


# ---- slow clients ------------------------------------------------------------------------------
def test_clients_trickling_their_headers_are_cut_off_at_the_deadline_while_others_are_served(
    server: Server,
):
    tricklers = [connect(server) for _ in range(30)]
    opened = time.monotonic()
    head = b"GET /api/me HTTP/1.1\r\nHost: kodama\r\nX-Slow: " + b"a" * 10_000
    answers: dict[int, bytes] = {}
    closed_after: dict[int, float] = {}
    served: list[int] = []
    sent = 0
    # One byte per connection at a time, while no server answer is pending; the wait for
    # the server (bounded) is what paces the bytes.
    while len(closed_after) < len(tricklers) and time.monotonic() - opened < HEAD_TIMEOUT + 20:
        for index, sock in enumerate(tricklers):
            if index not in closed_after and sent < len(head):
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    sock.send(head[sent : sent + 1])
        sent += 1
        if sent == 3:  # meanwhile, an ordinary client is served at once
            started = time.monotonic()
            served.append(get(server, "/api/me")[0])
            assert time.monotonic() - started < HEAD_TIMEOUT
        pending = [s for i, s in enumerate(tricklers) if i not in closed_after]
        ready, _, _ = select.select(pending, [], [], 0.05)
        for sock in ready:
            index = tricklers.index(sock)
            try:
                data = sock.recv(65536)
            except ConnectionResetError:
                data = b""
            answers[index] = answers.get(index, b"") + data
            if not data:
                closed_after[index] = time.monotonic() - opened
    for sock in tricklers:
        sock.close()
    assert served == [200]
    assert sent < len(head), "the whole head went through: no deadline"
    assert len(closed_after) == len(tricklers), "some trickling clients were never cut off"
    for index, after in closed_after.items():
        assert HEAD_TIMEOUT * 0.9 <= after <= HEAD_TIMEOUT + 10, after
        assert answers[index].startswith(b"HTTP/1.1 408 "), answers[index][:100]
        assert b'"code": "request.timeout"' in answers[index]


def test_a_connection_that_sends_nothing_is_closed_at_the_deadline(server: Server):
    with connect(server) as sock:
        opened = time.monotonic()
        assert closed_by_server(sock, within=HEAD_TIMEOUT + 10)
        assert time.monotonic() - opened >= HEAD_TIMEOUT * 0.9


def test_a_long_response_is_not_a_slow_head_a_stream_outlives_the_deadline(server: Server):
    with connect(server) as sock:
        body = b'{"variant": "dobutsu"}'
        sock.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: kodama\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
        )
        status, _, body = read_response(sock)
    assert status == 201, body
    game_id = json.loads(body)["id"]
    with connect(server) as sock:
        sock.sendall(f"GET /api/stream/game/{game_id} HTTP/1.1\r\nHost: kodama\r\n\r\n".encode())
        opened = time.monotonic()
        received = b""
        # Keep-alive lines (every 0.5 s) keep coming well past the head deadline.
        while time.monotonic() - opened < HEAD_TIMEOUT * 2:
            ready, _, _ = select.select([sock], [], [], HEAD_TIMEOUT)
            assert ready, "the stream went silent"
            data = sock.recv(65536)
            assert data, "the server closed a stream at the head deadline"
            received += data
        assert received.startswith(b"HTTP/1.1 200 ")


def test_a_keep_alive_connection_has_the_deadline_again_for_its_next_request(server: Server):
    with connect(server) as sock:
        sock.sendall(b"GET /api/me HTTP/1.1\r\nHost: kodama\r\n\r\n")
        assert read_response(sock)[0] == 200
        sock.sendall(b"GET /api/me HTTP/1.1\r\nHost: ko")  # and no more
        started = time.monotonic()
        status, _, body = read_response(sock)
        assert status == 408 and json.loads(body)["code"] == "request.timeout"
        assert HEAD_TIMEOUT * 0.9 <= time.monotonic() - started <= HEAD_TIMEOUT + 10


@pytest.mark.parametrize("declared", [True, False], ids=["content-length", "chunked"])
def test_a_body_trickled_after_a_quick_head_is_cut_off_at_the_body_deadline(
    server: Server, declared: bool
):
    framing = b"Content-Length: 1000" if declared else b"Transfer-Encoding: chunked"
    with connect(server) as sock:
        sock.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: kodama\r\nContent-Type: application/json\r\n"
            + framing
            + b"\r\n\r\n"
        )
        started = time.monotonic()
        sent = 0
        # A byte of body whenever the server has not answered for 0.2 s: the wait for the
        # server's answer (bounded) paces the bytes; 1000 would take 200 s.
        while not select.select([sock], [], [], 0.2)[0]:
            assert time.monotonic() - started < BODY_TIMEOUT + 10, "no body deadline"
            sock.sendall(b"{" if declared else b"1\r\n{\r\n")
            sent += 1
        status, headers, body = read_response(sock)
        waited = time.monotonic() - started
        assert status == 408, body
        assert json.loads(body) == {
            "error": f"the request body did not arrive within {BODY_TIMEOUT:g} s",
            "code": "request.timeout",
        }
        assert headers["connection"] == "close"
        assert closed_by_server(sock, within=5)
    assert BODY_TIMEOUT * 0.9 <= waited <= BODY_TIMEOUT + 10, waited
    assert sent >= 5  # bytes kept coming: the deadline is the whole body's, not an idle one
    assert get(server, "/api/me")[0] == 200


def test_a_body_sent_in_pieces_within_the_deadline_is_served(server: Server):
    body = b'{"variant": "dobutsu", "public": false}'
    with connect(server) as sock:
        sock.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: kodama\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n%s" % (len(body), body[:10])
        )
        sock.sendall(body[10:])
        status, _, answer = read_response(sock)
    assert status == 201, answer


# ---- the protocol's own answers ----------------------------------------------------------------
def raw_answer(server: Server, request: bytes) -> tuple[int, dict[str, str], bytes]:
    with connect(server) as sock:
        sock.sendall(request)
        return read_response(sock)


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"GET /api/me HTTP/1.1\r\nHost: kodama\r\nX-Padding: " + b"a" * 17_000 + b"\r\n\r\n",
        b"GET /api/me HTTP/1.1\r\nHost: kodama\r\n"
        + b"".join(b"X-Header-%d: 1\r\n" % i for i in range(120))
        + b"\r\n",
        b"GET /api/me HTTP/1.1\r\nHost: ko",  # 408 at the deadline
        b"GET /api/me HTTP/1.1\r\nHost: kodama\r\nNot a header\r\n\r\n",
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 not http\r\n\r\n",  # TLS to a plain port
    ],
    ids=["head-too-large", "too-many-headers", "timeout", "bad-header", "not-http"],
)
def test_the_protocols_own_refusals_are_json_with_the_security_headers(
    server: Server, request_bytes: bytes
):
    # Answered before any middleware sees the request: the docs promise the security
    # headers on every answer, refusals included, and every error in the JSON shape.
    status, headers, body = raw_answer(server, request_bytes)
    assert status in (400, 408, 431)
    assert headers["content-type"] == "application/json"
    answer = json.loads(body)
    assert set(answer) == {"error", "code"}
    if status == 400:
        assert answer["code"] == "request.malformed"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "same-origin"
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["connection"] == "close"
