"""One limit on every request body (app/http/bodylimit.py, KODAMA_MAX_BODY_BYTES): over it is
413 ``request.too_large`` with ``Connection: close``, on every route, and nothing changes.

The attack itself (100 MB bodies against a real server, its memory measured) is in
test_http_limits_server.py; here the rule, route by route, and the middleware's reading.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.config import Settings
from app.http.bodylimit import BodyLimit
from tests.app.accounts_and_streams import assert_error
from tests.app.conftest import Player

LIMIT = 16_384


def padded(body: dict[str, Any], size: int) -> bytes:
    """``body`` as JSON of exactly ``size`` bytes (spaces before the closing brace)."""
    raw = json.dumps(body).encode()
    assert len(raw) <= size
    return raw[:-1] + b" " * (size - len(raw)) + b"}"


def chunks(raw: bytes, size: int = 1024) -> Iterator[bytes]:
    """The body with no declared length: sent chunked."""
    for start in range(0, len(raw), size):
        yield raw[start : start + size]


def assert_too_large(response: Any) -> None:
    body = assert_error(response, 413, "request.too_large")
    assert f"{LIMIT} bytes" in body["error"]
    assert response.headers["connection"] == "close"
    # Refused inside the security headers' layer: the answer carries them like any other.
    assert response.headers["x-content-type-options"] == "nosniff"


def test_the_limit_is_16_kb_by_default():
    assert Settings().max_body_bytes == LIMIT


@pytest.mark.parametrize("streamed", [False, True], ids=["declared", "chunked"])
def test_a_game_body_one_byte_over_the_limit_is_refused_and_no_game_is_made(
    client: TestClient, alice: Player, streamed: bool
):
    game = {"variant": "dobutsu", "color": "first", "public": True}
    raw = padded(game, LIMIT + 1)
    content: Any = chunks(raw) if streamed else raw
    headers = {**alice.headers, "content-type": "application/json"}
    assert_too_large(client.post("/api/games", content=content, headers=headers))
    assert client.get("/api/lobby").json()["open"] == []
    # At the limit exactly, the same body is read.
    raw = padded(game, LIMIT)
    response = client.post("/api/games", content=chunks(raw) if streamed else raw, headers=headers)
    assert response.status_code == 201, response.text


@pytest.mark.parametrize("streamed", [False, True], ids=["declared", "chunked"])
def test_login_and_register_refuse_a_body_over_the_limit(client: TestClient, streamed: bool):
    credentials = {"username": "alice", "password": "correct horse"}
    for url in ("/api/account/register", "/api/account/login"):
        raw = padded(credentials, LIMIT + 1)
        response = client.post(
            url,
            content=chunks(raw) if streamed else raw,
            headers={"content-type": "application/json"},
        )
        assert_too_large(response)
        assert "set-cookie" not in response.headers
    # Nothing was registered: the same name is still free.
    response = client.post("/api/account/register", json=credentials)
    assert response.status_code == 201, response.text


def test_a_route_that_reads_no_body_refuses_one_over_the_limit_too(client: TestClient):
    raw = b"x" * (LIMIT + 1)
    assert_too_large(client.request("GET", "/api/me", content=raw))
    assert_too_large(client.request("GET", "/api/me", content=chunks(raw)))
    assert client.request("GET", "/api/me", content=b"x" * LIMIT).status_code == 200


def test_a_form_body_over_the_limit_is_refused(client: TestClient):
    form = "variant=dobutsu&color=white&" + "x" * LIMIT
    response = client.post(
        "/api/challenge/open",
        content=form.encode(),
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert_too_large(response)


def test_the_limit_is_a_setting(make_client: Any):
    small = make_client(max_body_bytes=100)
    game = {"variant": "dobutsu", "color": "first"}
    json_type = {"content-type": "application/json"}
    response = small.post("/api/games", content=padded(game, 101), headers=json_type)
    body = assert_error(response, 413, "request.too_large")
    assert "100 bytes" in body["error"]
    response = small.post("/api/games", content=padded(game, 100), headers=json_type)
    assert response.status_code == 201, response.text


# ---- the middleware's reading -----------------------------------------------------------------
class EndlessBody:
    """A client streaming 1 KB chunks for ever: counts what the server asked for."""

    def __init__(self) -> None:
        self.chunks_read = 0

    async def receive(self) -> dict[str, Any]:
        self.chunks_read += 1
        return {"type": "http.request", "body": b"x" * 1024, "more_body": True}


def run_limited(headers: list[tuple[bytes, bytes]], body: EndlessBody) -> list[dict[str, Any]]:
    reached: list[str] = []
    sent: list[dict[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        reached.append("app")

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/games", "headers": headers}
    asyncio.run(BodyLimit(app, max_bytes=LIMIT)(scope, body.receive, send))
    assert reached == [], "the app ran on a body over the limit"
    return sent


def test_an_endless_body_stops_being_read_as_soon_as_it_passes_the_limit():
    body = EndlessBody()
    sent = run_limited([(b"transfer-encoding", b"chunked")], body)
    assert body.chunks_read == LIMIT // 1024 + 1  # 17 KB read of an endless body, no more
    assert sent[0]["status"] == 413
    assert (b"connection", b"close") in sent[0]["headers"]


def test_a_declared_length_over_the_limit_is_refused_before_reading_a_byte():
    body = EndlessBody()
    sent = run_limited([(b"content-length", b"104857600")], body)
    assert body.chunks_read == 0
    assert sent[0]["status"] == 413
