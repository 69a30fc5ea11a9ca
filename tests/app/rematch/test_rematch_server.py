"""Rematches raced through real servers: the opponent accepting from two pages at the same
moment, and both players offering at the same moment, make exactly one new game — on SQLite
(one instance) and on PostgreSQL with the two pages on two instances sharing the database."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from app.http.identity import COOKIE
from tests.app.accounts_and_streams import MATE
from tests.server import Server, running

SECRET = "rematch-race-test-Qm4vN8xK2pLr7TzW0sYc5HbD"
SETTINGS = {"KODAMA_RATELIMIT_SOCKET_BURST": "1000", "KODAMA_RATELIMIT_MOVE_BURST": "1000"}
ROUNDS = 6
COUNT = "SELECT count(*) FROM games WHERE first_id = $1 OR second_id = $1"


Servers = tuple[Server, Server, Callable[[str], int]]


@pytest.fixture(params=["sqlite", "postgres"])
def servers(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Servers]:
    """Two instances (one on SQLite), and how many games a player has sat in, read from the
    database itself."""
    if request.param == "sqlite":

        def sqlite_count(player_id: str) -> int:
            with contextlib.closing(sqlite3.connect(tmp_path / "kodama.sqlite3")) as db:
                (n,) = db.execute(COUNT.replace("$1", "?"), (player_id, player_id)).fetchone()
            return int(n)

        with running(tmp_path, SECRET, None, **SETTINGS) as only:
            yield only, only, sqlite_count
        return
    url = request.getfixturevalue("postgres_url")

    def postgres_count(player_id: str) -> int:
        async def count() -> int:
            db = await asyncpg.connect(url.replace("postgresql+asyncpg", "postgresql"))
            try:
                return int(await db.fetchval(COUNT.replace("= ?", "= $1"), player_id))
            finally:
                await db.close()

        return asyncio.run(count())

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with (
        running(tmp_path / "a", SECRET, url, **SETTINGS) as a,
        running(tmp_path / "b", SECRET, url, **SETTINGS) as b,
    ):
        yield a, b, postgres_count


def _player(server: Server) -> httpx.Client:
    client = httpx.Client(base_url=server.base, timeout=15)
    client.get("/api/me").raise_for_status()
    return client


def _socket(server: Server, game_id: str, client: httpx.Client) -> ClientConnection:
    headers = {"Cookie": f"{COOKIE}={client.cookies[COOKIE]}"}
    return connect(f"ws://127.0.0.1:{server.port}/ws/game/{game_id}", additional_headers=headers)


def _until(ws: ClientConnection, check: Any) -> dict[str, Any]:
    """The next message that passes ``check`` (bounded: the server answers in time)."""
    for _ in range(60):
        message: dict[str, Any] = json.loads(ws.recv(timeout=15))
        if check(message):
            return message
    raise AssertionError("no such message")


def _state(ws: ClientConnection, check: Any) -> dict[str, Any]:
    found: dict[str, Any] = _until(ws, lambda m: m["type"] == "state" and check(m["game"]))
    return dict(found["game"])


def _finished(server: Server, alice: httpx.Client, bob: httpx.Client) -> str:
    created = alice.post(
        "/api/games", json={"variant": "dobutsu", "color": "first", "public": False}
    )
    created.raise_for_status()
    game_id: str = created.json()["id"]
    token = created.json()["inviteUrl"].rsplit("/", 1)[1]
    bob.post(f"/api/invite/{token}").raise_for_status()
    with _socket(server, game_id, alice) as a, _socket(server, game_id, bob) as b:
        for ply, move in enumerate(MATE):
            ws = a if ply % 2 == 0 else b
            ws.send(json.dumps({"type": "move", "move": move, "ply": ply}))
            _until(ws, lambda m, p=ply: m["type"] == "move" and m["ply"] == p + 1)
    return game_id


def _at_once(sends: list[tuple[ClientConnection, dict[str, Any]]]) -> None:
    """Send each message from its own thread, released together."""
    barrier = threading.Barrier(len(sends))

    def go(ws: ClientConnection, message: dict[str, Any]) -> None:
        barrier.wait()
        ws.send(json.dumps(message))

    threads = [threading.Thread(target=go, args=pair) for pair in sends]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def _answers(ws: ClientConnection) -> tuple[str | None, str | None]:
    """What a socket heard after a rematch message: the error code (if refused) and the new
    game's id (every socket of the old game hears it). The socket's messages are answered in
    order: a ping's pong comes after the rematch message's own answer."""
    error, new_id = None, None
    while new_id is None:
        message = json.loads(ws.recv(timeout=15))
        if message["type"] == "error":
            error = message["code"]
        elif message["type"] == "state" and message["game"]["rematch"]:
            new_id = message["game"]["rematch"]
    ws.send(json.dumps({"type": "ping"}))
    while (message := json.loads(ws.recv(timeout=15)))["type"] != "pong":
        if message["type"] == "error":
            error = message["code"]
    return error, new_id


def test_two_accepts_and_two_offers_at_once_make_one_game(servers: Servers):
    a_server, b_server, games_of = servers
    alice, bob = _player(a_server), _player(a_server)
    bob_elsewhere = httpx.Client(base_url=b_server.base, timeout=15, cookies=bob.cookies)
    made: list[str] = []
    for round_ in range(ROUNDS):
        old_id = _finished(a_server, alice, bob)
        with (
            _socket(a_server, old_id, alice) as a,
            _socket(a_server, old_id, bob) as b1,
            _socket(b_server, old_id, bob_elsewhere) as b2,
        ):
            for ws in (a, b1, b2):
                _state(ws, lambda g: g["rematchOffer"] is None)
            if round_ % 2 == 0:
                # Alice offers; bob accepts from his two pages (two instances) at once.
                a.send(json.dumps({"type": "rematch", "action": "offer"}))
                for ws in (b1, b2):
                    _state(ws, lambda g: g["rematchOffer"] == "first")
                _at_once(
                    [
                        (b1, {"type": "rematch", "action": "accept"}),
                        (b2, {"type": "rematch", "action": "offer"}),
                    ]
                )
                errors = [_answers(ws) for ws in (b1, b2)]
                codes = sorted(str(code) for code, _ in errors)
                assert codes == ["None", "rematch.taken"], errors
            else:
                # Both offer at once: one offer, one accept.
                _at_once(
                    [
                        (a, {"type": "rematch", "action": "offer"}),
                        (b2, {"type": "rematch", "action": "offer"}),
                    ]
                )
                errors = [_answers(ws) for ws in (a, b2)]
                assert [code for code, _ in errors] == [None, None], errors
            ids = {new_id for _, new_id in errors}
            assert len(ids) == 1
            (new_id,) = ids
            assert new_id is not None
            if round_ % 2 == 0:
                assert _answers(a) == (None, new_id)  # the maker's page hears it too
        game = alice.get(f"/api/games/{old_id}").json()["game"]
        assert game["rematch"] == new_id
        assert alice.get(f"/api/games/{new_id}").json()["game"]["status"] == "started"
        made.append(new_id)
    assert len(set(made)) == ROUNDS
    # In the database: the finished games and one rematch each, no other.
    assert games_of(alice.get("/api/me").json()["id"]) == 2 * ROUNDS
