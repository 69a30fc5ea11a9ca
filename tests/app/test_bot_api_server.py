"""The bot API through a real server process (uvicorn), as a bot author's client sees it:
accounts and tokens over HTTP, NDJSON streams over the network, a client that disconnects,
and a server that shuts down while streams are open."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.app.botapi import MATE
from tests.server import Server

KEEPALIVE = 0.2
GRACE = 1


@pytest.fixture(params=["sqlite", "postgres"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    env = {
        **os.environ,
        "SECRET_KEY": "bot-api-test",
        "KODAMA_DATA_DIR": str(tmp_path),
        "KODAMA_KEEPALIVE_SECONDS": str(KEEPALIVE),
        "KODAMA_SHUTDOWN_GRACE_SECONDS": str(GRACE),
        "KODAMA_BUILTIN_BOTS": "false",
    }
    env.pop("DATABASE_URL", None)
    if request.param == "postgres":
        env["DATABASE_URL"] = request.getfixturevalue("postgres_url")
    srv = Server(env, tmp_path)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def program(server: Server, username: str, *, bot: bool = False) -> httpx.Client:
    """A bot author's client: register, get a token with a form post, maybe become a BOT."""
    anonymous = httpx.Client(base_url=server.base, timeout=10)
    password = "a long enough password"
    anonymous.post(
        "/api/account/register", json={"username": username, "password": password}
    ).raise_for_status()
    token = anonymous.post(
        "/api/token",
        data={
            "username": username,
            "password": password,
            "scopes": "bot:play,board:play,challenge:read,challenge:write",
        },
    )
    token.raise_for_status()
    client = httpx.Client(
        base_url=server.base,
        timeout=10,
        headers={"authorization": f"Bearer {token.json()['token']}"},
    )
    if bot:
        client.post("/api/bot/account/upgrade").raise_for_status()
    return client


def objects(lines: Iterator[str], count: int) -> list[dict[str, Any]]:
    """The next ``count`` object lines (keep-alive lines skipped, at most 100 of them)."""
    found: list[dict[str, Any]] = []
    for _ in range(count + 100):
        text = next(lines)
        if text:
            found.append(json.loads(text))
            if len(found) == count:
                return found
    raise AssertionError(f"only {len(found)} of {count} lines came")


def until(lines: Iterator[str], kind: str) -> dict[str, Any]:
    """The next object line of this type."""
    for _ in range(20):
        (found,) = objects(lines, 1)
        if found["type"] == kind:
            return found
    raise AssertionError(f"no {kind} line")


def test_a_bot_plays_a_game_over_the_network(server: Server):
    alice, robot = program(server, "alice"), program(server, "robot", bot=True)
    with robot.stream("GET", "/api/stream/event") as events:
        assert events.headers["content-type"].startswith("application/x-ndjson")
        bot_events = events.iter_lines()
        assert next(bot_events) == ""  # nothing to tell: a keep-alive line
        created = alice.post(
            "/api/challenge/robot", data={"variant": "dobutsu", "color": "white"}
        ).json()
        (event,) = objects(bot_events, 1)
        assert event["type"] == "challenge" and event["challenge"]["id"] == created["id"]
        robot.post(f"/api/challenge/{created['id']}/accept").raise_for_status()
        (start,) = objects(bot_events, 1)
        assert start["type"] == "gameStart" and start["game"]["color"] == "black"
        game_id = start["game"]["id"]

        with robot.stream("GET", f"/api/bot/game/stream/{game_id}") as stream:
            lines = stream.iter_lines()
            (full,) = objects(lines, 1)
            assert full["type"] == "gameFull"
            for ply, move in enumerate(MATE, start=1):
                player, kind = (alice, "board") if ply % 2 else (robot, "bot")
                player.post(f"/api/{kind}/game/{game_id}/move/{move}").raise_for_status()
                state = until(lines, "gameState")
                assert state["ply"] == ply
                if state["status"] != "started":
                    break
            assert state["status"] == "mate" and state["winner"] == "white"
            rest = [json.loads(t) for t in lines if t]
            assert [x for x in rest if x["type"] == "gameState"] == []
        (finish,) = objects(bot_events, 1)
        assert finish["type"] == "gameFinish" and finish["game"]["winner"] == "white"


def test_a_disconnected_event_stream_frees_its_token(server: Server):
    robot = program(server, "robot", bot=True)
    with robot.stream("GET", "/api/stream/event") as first:
        lines = first.iter_lines()  # kept: a dropped iterator closes the response
        assert next(lines) == ""
        refused = robot.get("/api/stream/event")
        assert refused.status_code == 429
        assert refused.json()["ratelimit"]["key"] == "stream.event"
    # The client closed its connection: the server notices and the token may stream again.
    deadline = time.monotonic() + 5
    while True:
        with robot.stream("GET", "/api/stream/event") as again:
            if again.status_code == 200:
                assert next(iter(again.iter_lines())) == ""
                break
        assert time.monotonic() < deadline, "the closed stream still holds the token"
        time.sleep(0.1)


def test_the_server_shuts_down_with_streams_open(server: Server):
    robot = program(server, "robot", bot=True)
    with robot.stream("GET", "/api/stream/event") as events:
        lines = events.iter_lines()
        assert next(lines) == ""
        began = time.monotonic()
        server.stop()
        assert time.monotonic() - began < GRACE + 10
