"""The bot API through a real server process (uvicorn), as a bot author's client sees it:
accounts and tokens over HTTP, NDJSON streams over the network, a client that disconnects,
and a server that shuts down while streams are open."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.app.accounts_and_streams import MATE
from tests.server import ROOT, Server, running

KEEPALIVE = 0.2
GRACE = 60  # seconds: shutting down must not wait for it


@pytest.fixture(params=["sqlite", "postgres"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    url = request.getfixturevalue("postgres_url") if request.param == "postgres" else None
    with running(
        tmp_path,
        "bot-api-B8waLXCeQbp6TSByqjOBXN-81c1kBsuK",
        url,
        KODAMA_KEEPALIVE_SECONDS=str(KEEPALIVE),
        KODAMA_SHUTDOWN_GRACE_SECONDS=str(GRACE),
    ) as srv:
        yield srv


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


def test_the_server_shuts_down_at_once_ending_every_open_stream_cleanly(server: Server):
    alice, robot = program(server, "alice"), program(server, "robot", bot=True)
    carol = program(server, "carol")
    with robot.stream("GET", "/api/stream/event") as events:
        bot_events = events.iter_lines()
        assert next(bot_events) == ""
        created = alice.post("/api/challenge/robot", data={"variant": "dobutsu"}).json()
        robot.post(f"/api/challenge/{created['id']}/accept").raise_for_status()
        assert until(bot_events, "gameStart")["game"]["id"] == created["id"]
        with (
            robot.stream("GET", f"/api/bot/game/stream/{created['id']}") as game,
            alice.stream("GET", f"/api/stream/game/{created['id']}") as watched,
            carol.stream("POST", "/api/board/seek", data={"variant": "wali"}) as seek,
        ):
            streams = [bot_events, game.iter_lines(), watched.iter_lines(), seek.iter_lines()]
            assert until(streams[1], "gameFull")
            assert next(streams[2])  # the game, for a spectator
            assert next(streams[3]) == ""  # the seek waits
            began = time.monotonic()
            assert server.proc is not None
            server.proc.terminate()
            # Well before the grace (60 s) the process is gone: the streams ended at once...
            server.proc.wait(timeout=GRACE / 2)
            stopped = time.monotonic() - began
            # ...cleanly: each ends as a complete response (an abrupt close would raise here).
            for lines in streams:
                rest = [json.loads(t) for t in lines if t]
                assert all(x.get("type") != "gameFinish" for x in rest)  # the game goes on
    assert stopped < GRACE / 2
    log = server.log.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in log and "Exception in ASGI application" not in log, log[-3000:]
    assert "timeout graceful shutdown exceeded" not in log


def test_the_server_refuses_to_start_on_a_port_in_use(server: Server, tmp_path: Path):
    other = Server(dict(server.env), tmp_path)
    other.port = server.port
    with other.log.open("ab") as log:
        code = subprocess.run(
            [sys.executable, "-m", "app", "serve", "--port", str(server.port)],
            cwd=ROOT,
            env=other.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            timeout=120,
            check=False,
        ).returncode
    assert code == 3  # uvicorn's start-up failure
