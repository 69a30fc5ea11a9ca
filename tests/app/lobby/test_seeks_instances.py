"""A seek lives while its creator has a page open, across two real instances on one
PostgreSQL: the creator's socket on instance A keeps the seek in instance B's lobby; closing
it takes the seek out of B's lobby, reopening brings it back, and killing A (kill -9) does not
keep it alive."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection

from tests.server import Server, open_socket, running

SECRET = "seeks-instances-test-4kQ0N1vd8RrHcXzYq2Lw9mTf"
# No new seek is listed without its creator's socket here (10 s by default): only the socket
# opened before the seek keeps it listed.
SETTINGS = {"KODAMA_SEEK_NEW_SECONDS": "0", "KODAMA_LOBBY_INTERVAL_SECONDS": "0.05"}


@pytest.fixture
def pair(postgres_url: str, tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with (
        running(tmp_path / "a", SECRET, postgres_url, **SETTINGS) as a,
        running(tmp_path / "b", SECRET, postgres_url, **SETTINGS) as b,
    ):
        yield a, b


class Lobby:
    """Instance B's lobby as a page keeps it: the open list's ids, from lobby and diffs."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        first = json.loads(ws.recv(timeout=10))
        assert first["type"] == "lobby"
        self.open = [g["id"] for g in first["open"]]

    def until(self, check: Any, seconds: float) -> float:
        """Read changes until ``check(open ids)`` holds; how long it took (bounded)."""
        start = time.monotonic()
        while not check(self.open):
            left = seconds - (time.monotonic() - start)
            assert left > 0, f"the lobby never got there: {self.open}"
            message = json.loads(self.ws.recv(timeout=left))
            if message["type"] == "lobby":
                self.open = [g["id"] for g in message["open"]]
            elif message["type"] == "lobbyDiff":
                diff = message["open"]
                kept = [i for i in self.open if i not in diff["removed"]]
                for added in diff["added"]:
                    kept.insert(added["at"], added["game"]["id"])
                self.open = kept
        return time.monotonic() - start


def test_a_creator_on_instance_a_keeps_their_seek_in_instance_bs_lobby(
    pair: tuple[Server, Server],
):
    a, b = pair
    creator = httpx.Client(base_url=a.base, timeout=10)
    creator.get("/api/me").raise_for_status()
    page = open_socket(a, "/ws/site", creator)
    assert json.loads(page.recv(timeout=10))["type"] == "site"
    made = creator.post("/api/games", json={"variant": "dobutsu", "public": True})
    made.raise_for_status()
    seek = made.json()["id"]
    with open_socket(b, "/ws/lobby") as watching:
        lobby = Lobby(watching)
        lobby.until(lambda ids: seek in ids, 10)
        page.close()
        took = lobby.until(lambda ids: seek not in ids, 10)
        assert took < 5, took  # within ~5 s of the last socket closing
        joiner = httpx.Client(base_url=b.base, timeout=10)
        refused = joiner.post(f"/api/games/{seek}/join")
        assert refused.status_code == 409 and refused.json()["code"] == "seek.away"
        back = open_socket(a, "/ws/lobby", creator)
        lobby.until(lambda ids: seek in ids, 10)  # back within the grace
        # Instance A dies with the creator's socket open: its heartbeat stops.
        a.kill()
        took = lobby.until(lambda ids: seek not in ids, 15)
        assert took < 10, took
        back.close()
