"""lichess-bot's requests, in its exact shapes, against a real server.

lichess-bot (github.com/lichess-bot-devs/lichess-bot, lib/lichess.py) talks to lichess with
one ``requests.Session`` holding ``Authorization: Bearer <token>`` and the User-Agent
``lichess-bot/<version> user:<name>`` (``user:?`` until it has read its profile). Before it
needs a chess board it: tests its token (the token as the raw body, no content type) and
requires ``bot:play`` among the comma-separated scopes; reads ``GET /api/account``; lists
``GET /api/account/playing``; checks ``GET /api/users/status?ids=<id>``; opens
``GET /api/stream/event``; accepts (``POST`` without a body) or declines (body
``reason=<key>`` as a form) challenges; opens ``GET /api/bot/game/stream/{id}`` and reads its
first line as ``gameFull``. Each is made here as lichess-bot makes it, and the fields it reads
are checked. The client below is written for these tests from that description; lichess-bot's
code is not part of the project.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
import requests

from app.games import record
from tests.app.accounts_and_streams import MATE
from tests.server import Server, account_token, running

VERSION = "2026.8.2.1"  # lichess-bot's version as it writes it in its User-Agent
STREAM_TIMEOUT = 15  # lichess-bot's read timeout of its streams, seconds
TIMEOUT = 2  # and of its other requests


@pytest.fixture(params=["sqlite", "postgres"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    url = request.getfixturevalue("postgres_url") if request.param == "postgres" else None
    with running(
        tmp_path,
        "lichess-bot-shapes-EYBcja0KZtJfkfmDNSIhYesfWbQ9rt1T",
        url,
        KODAMA_KEEPALIVE_SECONDS="0.2",
    ) as srv:
        yield srv


def account(server: Server, username: str, scopes: str, *, bot: bool = False) -> str:
    """An account and its token, made over HTTP; a BOT if asked."""
    token = account_token(server, username, scopes)
    if bot:
        requests.post(
            f"{server.base}/api/bot/account/upgrade",
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        ).raise_for_status()
    return token


class LichessBotRequests:
    """The HTTP requests lichess-bot makes, in its shapes: one session, its headers."""

    def __init__(self, base: str, token: str) -> None:
        self.base = base + "/"
        self.session = requests.Session()
        self.session.headers.update({"Authorization": f"Bearer {token}"})
        self.user_agent("?")

    def user_agent(self, username: str) -> None:
        self.session.headers.update({"User-Agent": f"lichess-bot/{VERSION} user:{username}"})

    def get(self, path: str, **kwargs: Any) -> requests.Response:
        kwargs.setdefault("timeout", TIMEOUT)
        response = self.session.get(urljoin(self.base, path), **kwargs)
        response.raise_for_status()
        response.encoding = "utf-8"
        return response

    def post(self, path: str, **kwargs: Any) -> requests.Response:
        return self.session.post(urljoin(self.base, path), timeout=TIMEOUT, **kwargs)


def objects(lines: Iterator[bytes], count: int) -> list[dict[str, Any]]:
    """The next ``count`` JSON lines (lichess-bot treats an empty line as a ping)."""
    found: list[dict[str, Any]] = []
    for _ in range(count + 200):
        text = next(lines)
        if text:
            found.append(json.loads(text.decode("utf-8")))
            if len(found) == count:
                return found
    raise AssertionError(f"only {len(found)} of {count} lines came")


def next_of(lines: Iterator[bytes], kind: str) -> dict[str, Any]:
    for _ in range(20):
        (found,) = objects(lines, 1)
        if found["type"] == kind:
            return found
    raise AssertionError(f"no {kind} line")


def test_lichess_bot_s_requests_before_it_needs_a_board(server: Server) -> None:
    token = account(server, "shapebot", "bot:play,challenge:read,challenge:write", bot=True)
    alice_token = account(server, "alice", "board:play,challenge:read,challenge:write")
    alice = requests.Session()
    alice.headers.update({"Authorization": f"Bearer {alice_token}"})
    li = LichessBotRequests(server.base, token)

    # The token test: the token as the whole body (requests sends a str without a type).
    tested = li.post("/api/token/test", data=token)
    assert tested.request.headers.get("Content-Type") is None
    assert tested.status_code == 200, tested.text
    info = tested.json()[token]
    assert "bot:play" in info["scopes"].split(",")

    profile = li.get("/api/account").json()
    assert profile["username"] == "shapebot" and profile["title"] == "BOT"
    li.user_agent(profile["username"])
    assert info["userId"] == profile["id"]
    assert li.get("/api/account/playing").json()["nowPlaying"] == []

    with li.get("/api/stream/event", stream=True, timeout=STREAM_TIMEOUT) as events:
        lines = events.iter_lines()
        status = li.get("/api/users/status", params={"ids": profile["id"]}).json()
        assert status and status[0].get("online") is True

        # A challenge it declines, with its reason as a form body.
        first = alice.post(
            f"{server.base}/api/challenge/shapebot",
            json={"variant": "dobutsu", "clock": {"limit": 60, "increment": 1}},
            timeout=10,
        ).json()
        incoming = next_of(lines, "challenge")["challenge"]
        assert incoming["id"] == first["id"]
        # What lichess-bot's Challenge reads.
        assert incoming["rated"] is False and incoming["variant"]["key"] == "dobutsu"
        assert incoming["perf"]["name"] and incoming["speed"] == "bullet"
        assert incoming["timeControl"]["limit"] == 60
        assert incoming["timeControl"]["increment"] == 1
        assert incoming["challenger"]["name"] == "alice" and incoming["color"] == "random"
        declined = li.post(
            f"/api/challenge/{first['id']}/decline",
            data="reason=tooFast",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        assert declined.status_code == 200, declined.text
        shown = alice.get(f"{server.base}/api/challenge/{first['id']}/show", timeout=10).json()
        assert shown["status"] == "declined" and shown["declineReasonKey"] == "tooFast"

        # A correspondence challenge it reads the days of, and accepts without a body.
        second = alice.post(
            f"{server.base}/api/challenge/shapebot",
            json={"variant": "dobutsu", "days": 2, "color": "white"},
            timeout=10,
        ).json()
        incoming = next_of(lines, "challenge")["challenge"]
        assert incoming["timeControl"]["daysPerTurn"] == 2
        assert incoming["speed"] == "correspondence"
        accepted = li.post(f"/api/challenge/{second['id']}/accept")
        assert accepted.status_code == 200, accepted.text
        started = next_of(lines, "gameStart")["game"]
        assert started["gameId"] == second["id"]

    playing = li.get("/api/account/playing").json()["nowPlaying"]
    assert [(g["gameId"], g["speed"], g["opponent"]["username"]) for g in playing] == [
        (second["id"], "correspondence", "alice")
    ]

    game_id = second["id"]
    with li.get(f"/api/bot/game/stream/{game_id}", stream=True, timeout=STREAM_TIMEOUT) as game:
        lines = game.iter_lines()
        full = json.loads(next(lines).decode("utf-8"))  # its first line, read as is
        assert full["type"] == "gameFull" and full["id"] == game_id
        # What lichess-bot's Game reads.
        assert full["speed"] == "correspondence" and full["clock"] is None
        assert full["daysPerTurn"] == 2
        assert full["perf"]["name"] and full["variant"]["name"] == "Dōbutsu shōgi"
        assert full["rated"] is False and isinstance(full["createdAt"], int)
        assert full["white"]["name"] == "alice" and full["black"]["name"] == "shapebot"
        assert full["black"]["title"] == "BOT" and full["initialFen"]
        assert full["state"]["moves"] == ""
        # Moves as lichess-bot sends them (offeringDraw as a query string), and chat as a form.
        for ply, move in enumerate(MATE):
            if ply % 2 == 0:
                made = alice.post(f"{server.base}/api/board/game/{game_id}/move/{move}", timeout=10)
            else:
                made = li.post(
                    f"/api/bot/game/{game_id}/move/{move}", params={"offeringDraw": "false"}
                )
            assert made.status_code == 200, made.text
            if ply == 0:
                chat = li.post(
                    f"/api/bot/game/{game_id}/chat", data={"room": "player", "text": "hi"}
                )
                assert chat.status_code == 200, chat.text
        final = next_of(lines, "gameState")
        while final["status"] == "started":
            final = next_of(lines, "gameState")
        assert final["status"] == "mate" and final["winner"] == "white"

    # The record it saves: GET /game/export/{id} as plain text.
    text = li.get(f"/game/export/{game_id}").text
    assert record.parse(text).moves == list(MATE)


def test_lichess_bot_stops_on_a_token_without_bot_play(server: Server) -> None:
    """lichess-bot refuses to start unless ``bot:play`` is among the scopes, and on a token
    answered ``null``: both are what the server says."""
    token = account(server, "boardonly", "board:play")
    li = LichessBotRequests(server.base, token)
    tested = li.post("/api/token/test", data=token).json()
    assert "bot:play" not in tested[token]["scopes"].split(",")
    unknown = li.post("/api/token/test", data="kdm_not-a-token").json()
    assert unknown == {"kdm_not-a-token": None}
