"""Kill the server mid-game (SIGKILL) and start it again: every game continues from its last
acknowledged move, clocks included, and reconnecting clients resync. A real server process."""

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

TRY_GAME = ["b1c2", "b4a3", "c2c3", "a3a2", "c3c4"]  # first's lion takes c4: a try


@pytest.fixture(params=["sqlite", "postgres"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    url = request.getfixturevalue("postgres_url") if request.param == "postgres" else None
    with running(tmp_path, "restart-Ju0PunOExpvNtwlKyv-T5F2iCp_XnaHs", url) as srv:
        yield srv


def _player(server: Server) -> httpx.Client:
    client = httpx.Client(base_url=server.base, timeout=10)
    client.get("/api/me").raise_for_status()  # the first visit gives the identity cookie
    return client


def _socket(server: Server, game_id: str, client: httpx.Client | None) -> ClientConnection:
    headers = {} if client is None else {"Cookie": f"{COOKIE}={client.cookies[COOKIE]}"}
    return connect(f"ws://127.0.0.1:{server.port}/ws/game/{game_id}", additional_headers=headers)


def _next(ws: ClientConnection, kind: str, **match: Any) -> dict[str, Any]:
    for _ in range(40):
        message: dict[str, Any] = json.loads(ws.recv(timeout=15))
        if message["type"] == kind and all(message.get(k) == v for k, v in match.items()):
            return message
    raise AssertionError(f"no {kind} {match}")


def _play(a: ClientConnection, b: ClientConnection, moves: list[str], start: int) -> None:
    for ply, move in enumerate(moves, start=start):
        mover, other = (a, b) if ply % 2 == 0 else (b, a)
        mover.send(json.dumps({"type": "move", "move": move, "ply": ply}))
        _next(other, "move", ply=ply + 1)


def test_games_survive_sigkill_and_clients_resync(server: Server):
    alice, bob = _player(server), _player(server)
    created = alice.post(
        "/api/games",
        json={"variant": "dobutsu", "color": "first", "clock": {"minutes": 5, "increment": 0}},
    ).json()
    game_id = created["id"]
    bob.post(f"/api/invite/{created['inviteUrl'].rsplit('/', 1)[1]}").raise_for_status()
    with _socket(server, game_id, alice) as a, _socket(server, game_id, bob) as b:
        _next(a, "state")
        _next(b, "state")
        _play(a, b, TRY_GAME[:3], 0)
        server.kill()
        for ws in (a, b):
            with pytest.raises(ConnectionClosed):
                while True:
                    ws.recv(timeout=15)
    server.start()

    with _socket(server, game_id, alice) as a, _socket(server, game_id, bob) as b:
        state = _next(a, "state")["game"]
        _next(b, "state")
        assert state["ply"] == 3
        assert state["moves"] == TRY_GAME[:3]
        assert state["status"] == "started"
        assert state["turn"] == "second"
        assert state["clock"]["running"] is True
        assert 200_000 < state["clock"]["second"] <= 300_000  # second's time ran on
        assert state["clock"]["first"] <= 300_000
        _play(a, b, TRY_GAME[3:], 3)
    final = alice.get(f"/api/games/{game_id}").json()["game"]
    assert final["result"] == {"winner": "first", "reason": "try", "status": "variantEnd"}


def test_a_flag_falls_after_a_restart_with_nobody_connected(server: Server):
    alice, bob = _player(server), _player(server)
    created = alice.post(
        "/api/games",
        json={"variant": "dobutsu", "color": "first", "clock": {"minutes": 0.05, "increment": 0}},
    ).json()  # 3 seconds each
    game_id = created["id"]
    bob.post(f"/api/invite/{created['inviteUrl'].rsplit('/', 1)[1]}").raise_for_status()
    with _socket(server, game_id, alice) as a, _socket(server, game_id, bob) as b:
        _next(a, "state")
        _next(b, "state")
        _play(a, b, TRY_GAME[:2], 0)  # first's clock now runs
    server.kill()
    server.start()
    with _socket(server, game_id, None) as spectator:
        # The flag may have fallen while the server restarted (the start-up sweep ends it at
        # once) or fall a moment later: either way the server does it, no client.
        ended = _next(spectator, "state")["game"]
        while ended["status"] == "started":
            ended = _next(spectator, "state")["game"]
    assert ended["status"] == "outoftime"
    assert ended["result"]["winner"] == "second"
