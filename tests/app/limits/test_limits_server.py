"""Attacks on the creation limits and socket caps against a real server process (uvicorn),
with small limits set through KODAMA_* settings: a burst of game creations, the open-games
caps, a flood of moves over the game socket, and more sockets from one address than allowed."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from tests.app.accounts_and_streams import MATE
from tests.server import Server, open_socket, running

SECRET = "limits-test-7wQpZr2mXvK9sLd4Fh8Ny3Bc"  # the server refuses a key under 32 characters


def visitor(server: Server) -> httpx.Client:
    """A browser: its first request gets it a new identity cookie."""
    client = httpx.Client(base_url=server.base, timeout=10)
    client.get("/api/me").raise_for_status()
    return client


def next_of(ws: ClientConnection, kind: str) -> dict[str, Any]:
    for _ in range(40):
        message: dict[str, Any] = json.loads(ws.recv(timeout=15))
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind} message")


def assert_refused(response: httpx.Response, key: str, full_wait: int, since: float) -> None:
    """429 with its Retry-After the body's wait: ``full_wait`` less what the bucket refilled
    since it emptied (at ``since`` or later, on time.monotonic): a real server's clock runs
    while the test sends, however slowly a busy machine lets it."""
    assert response.status_code == 429, response.text
    info = response.json()["ratelimit"]
    assert info["key"] == key
    elapsed = math.ceil(time.monotonic() - since)
    assert full_wait - elapsed <= info["seconds"] <= full_wait
    assert response.headers["retry-after"] == str(info["seconds"])


def open_games(server: Server) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = httpx.get(f"{server.base}/api/lobby").json()["open"]
    return games


def test_a_burst_of_creations_is_refused_with_retry_after_and_the_lobby_stays_usable(
    tmp_path: Path,
):
    settings = {
        "KODAMA_RATELIMIT_GAME_BURST": "3",
        "KODAMA_RATELIMIT_GAME_PER_S": "0.01",
        "KODAMA_RATELIMIT_IP_FACTOR": "2",
    }
    with running(tmp_path, SECRET, **settings) as server:
        # One client, one cookie: its own bucket (3) empties first.
        flooder = visitor(server)
        began = time.monotonic()
        answers = [flooder.post("/api/games", json={"variant": "yote"}) for _ in range(3)]
        answers += [flooder.post("/api/games", json={"variant": "yote"})]
        assert [a.status_code for a in answers] == [201, 201, 201, 429]
        assert_refused(answers[3], "game", 100, began)
        # A new cookie for every request (identities cost nothing): the address's bucket
        # (3 × 2, refilled at 0.02/s) holds; 4 of its 6 were taken above.
        fresh = [
            httpx.post(f"{server.base}/api/games", json={"variant": "yote"}) for _ in range(40)
        ]
        assert [a.status_code for a in fresh[:2]] == [201] * 2
        assert {a.status_code for a in fresh[2:]} == {429}
        for refused in fresh[2:]:
            assert_refused(refused, "game", 50, began)
            assert "address" in refused.json()["error"]
        assert len(open_games(server)) == 5  # not 44


def test_open_public_games_are_capped_per_player_and_per_address(tmp_path: Path):
    settings = {"KODAMA_MAX_OPEN_GAMES": "2", "KODAMA_MAX_OPEN_GAMES_PER_IP": "4"}
    with running(tmp_path, SECRET, **settings) as server:
        alice = visitor(server)
        made = [alice.post("/api/games", json={"variant": v}) for v in ("yote", "wali", "jungle")]
        assert [m.status_code for m in made] == [201, 201, 409]
        assert made[2].json()["code"] == "game.too_many_open"
        others = [visitor(server).post("/api/games", json={"variant": "yote"}) for _ in range(3)]
        assert [m.status_code for m in others] == [201, 201, 409]
        assert others[2].json()["code"] == "game.too_many_open"
        assert "address" in others[2].json()["error"]
        assert len(open_games(server)) == 4
        # Private games fill no lobby and are not capped.
        private = alice.post("/api/games", json={"variant": "yote", "public": False})
        assert private.status_code == 201
        # Cancelling one makes room again.
        game_id = made[0].json()["id"]
        assert alice.post(f"/api/games/{game_id}/cancel").status_code == 200
        assert alice.post("/api/games", json={"variant": "dobutsu"}).status_code == 201


def test_a_flood_of_moves_over_the_game_socket_is_rate_limited(tmp_path: Path):
    settings = {"KODAMA_RATELIMIT_MOVE_BURST": "5", "KODAMA_RATELIMIT_MOVE_PER_S": "0.01"}
    with running(tmp_path, SECRET, **settings) as server:
        alice, bob = visitor(server), visitor(server)
        created = alice.post("/api/games", json={"variant": "dobutsu", "color": "first"}).json()
        token = created["inviteUrl"].rsplit("/", 1)[1]
        bob.post(f"/api/invite/{token}").raise_for_status()
        with open_socket(server, f"/ws/game/{created['id']}", alice) as ws:
            next_of(ws, "state")
            began = time.monotonic()
            for _ in range(30):
                ws.send(json.dumps({"type": "move", "move": MATE[0], "ply": 0}))
            answers: list[dict[str, Any]] = []
            while len(answers) < 30:
                message = json.loads(ws.recv(timeout=15))
                if message["type"] in ("move", "error"):
                    answers.append(message)
        # Played once (its broadcast may come among the refusals), then 4 refusals that
        # still count, then the bucket is empty.
        assert [a["ply"] for a in answers if a["type"] == "move"] == [1]
        errors = [a for a in answers if a["type"] == "error"]
        assert [e["code"] for e in errors[:4]] == ["game.stale"] * 4
        assert len(errors[4:]) == 25
        for refusal in errors[4:]:
            assert refusal["code"] == "ratelimit"
            assert refusal["ratelimit"]["key"] == "move"
            elapsed = math.ceil(time.monotonic() - began)
            assert 100 - elapsed <= refusal["ratelimit"]["seconds"] <= 100
        # The same bucket as the HTTP API's moves.
        resign = alice.post(f"/api/board/game/{created['id']}/resign")
        assert_refused(resign, "move", 100, began)
        game = alice.get(f"/api/games/{created['id']}").json()["game"]
        assert (game["ply"], game["status"]) == (1, "started")


def test_more_sockets_from_one_address_than_allowed_are_closed_with_1013(tmp_path: Path):
    with running(tmp_path, SECRET, KODAMA_MAX_SOCKETS_PER_IP="3") as server:
        alice = visitor(server)
        game_id = alice.post("/api/games", json={"variant": "yote"}).json()["id"]
        held = [
            open_socket(server, "/ws/lobby"),
            open_socket(server, "/ws/lobby"),
            open_socket(server, f"/ws/game/{game_id}", alice),
        ]
        try:
            for ws in held:
                assert json.loads(ws.recv(timeout=15))["type"] in ("lobby", "state")
            for path in ("/ws/lobby", f"/ws/game/{game_id}"):
                with (
                    open_socket(server, path, alice) as extra,
                    pytest.raises(ConnectionClosed) as cut,
                ):
                    extra.recv(timeout=15)
                assert cut.value.rcvd is not None
                assert cut.value.rcvd.code == 1013
                assert cut.value.rcvd.reason == "too many connections from this address"
        finally:
            for ws in held:
                ws.close()
        # Closed sockets are given back (the server sees each close soon after).
        for _ in range(100):
            with open_socket(server, "/ws/lobby") as again:
                try:
                    if json.loads(again.recv(timeout=15))["type"] == "lobby":
                        break
                except ConnectionClosed:
                    continue  # the server has not seen every close yet
        else:
            raise AssertionError("the address's sockets were never given back")
