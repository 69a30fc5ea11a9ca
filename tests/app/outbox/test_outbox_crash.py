"""Per-player counts survive a crash at any point between a game's end and its consumption:
a real server process dies (``os._exit(137)``, as under ``kill -9``) at a named point
(app/core/faults.py, tests/crashpoints.py) while the last move of a game is played, is
started again without it, and the counts are exact: never counted twice, never missing.
SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest

from app.core import faults
from tests.crashpoints import CRASH_AT, EXIT_STATUS
from tests.server import Server, running

SECRET = "outbox-crash-Qm3vX8JrTn0aLk2pWy7cB5dZ"
TRY_GAME = ["b1c2", "b4a3", "c2c3", "a3a2", "c3c4"]  # first's lion reaches c4: a try, first wins


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest) -> str | None:
    """None: the server's own SQLite file in its data folder; else a PostgreSQL URL."""
    if request.param == "sqlite":
        return None
    url: str = request.getfixturevalue("postgres_url")
    return url


def _player(server: Server) -> httpx.Client:
    client = httpx.Client(base_url=server.base, timeout=30)
    client.get("/api/me").raise_for_status()  # the first visit gives the identity cookie
    return client


def _start_game(server: Server, alice: httpx.Client, bob: httpx.Client) -> str:
    created = alice.post("/api/games", json={"variant": "dobutsu", "color": "first"})
    created.raise_for_status()
    bob.post(f"/api/invite/{created.json()['inviteUrl'].rsplit('/', 1)[1]}").raise_for_status()
    game_id: str = created.json()["id"]
    return game_id


def _move(client: httpx.Client, game_id: str, move: str) -> httpx.Response:
    return client.post(f"/api/board/game/{game_id}/move/{move}")


def _count(client: httpx.Client) -> tuple[int, int, int, int]:
    count = client.get("/api/me").json()["count"]
    return (count["all"], count["win"], count["loss"], count["draw"])


def _stored(tmp_path: Path, database: str | None) -> tuple[list[Any], list[Any]]:
    """The outbox rows (game, seq, consumed?) and player_stats rows, read directly."""
    outbox = "SELECT game_id, seq, consumed_ms IS NOT NULL FROM outbox ORDER BY game_id, seq"
    stats = "SELECT player_id, played, won, lost, drawn FROM player_stats ORDER BY player_id"
    found, counted = read_rows(tmp_path, database, outbox, stats)
    return found, counted


def read_rows(tmp_path: Path, database: str | None, *queries: str) -> list[list[Any]]:
    """Each query's rows (tuples), read directly from the server's database: its SQLite file
    in ``tmp_path``, or ``database`` (PostgreSQL)."""
    if database is None:
        with sqlite3.connect(tmp_path / "kodama.sqlite3") as conn:
            return [conn.execute(query).fetchall() for query in queries]

    async def read() -> list[list[Any]]:
        conn = await asyncpg.connect(database.replace("postgresql+asyncpg", "postgresql"))
        try:
            return [[tuple(r) for r in await conn.fetch(query)] for query in queries]
        finally:
            await conn.close()

    return asyncio.run(read())


@pytest.fixture
def crashing(
    tmp_path: Path, database: str | None, request: pytest.FixtureRequest
) -> Iterator[Server]:
    point = request.param
    with running(tmp_path, SECRET, database, **{CRASH_AT: point}) as server:
        yield server


@pytest.mark.parametrize("crashing", sorted(faults.OUTBOX_POINTS), indirect=True)
def test_counts_are_exact_after_a_crash(crashing: Server, database: str | None, tmp_path: Path):
    server = crashing
    point = server.env[CRASH_AT]
    alice, bob = _player(server), _player(server)
    game_id = _start_game(server, alice, bob)
    for ply, move in enumerate(TRY_GAME[:-1]):
        _move(alice if ply % 2 == 0 else bob, game_id, move).raise_for_status()
    with pytest.raises(httpx.TransportError):  # the process dies before it answers
        _move(alice, game_id, TRY_GAME[-1])
    assert server.proc is not None
    assert server.proc.wait(timeout=30) == EXIT_STATUS

    # Where it died: the game's end and its outbox row committed; consumed only if the
    # consumption's transaction committed too, and counted exactly then.
    outbox, stats = _stored(tmp_path, database)
    consumed = point == "after_consume_commit"
    assert outbox == [(game_id, 1, consumed)]
    assert len(stats) == (2 if consumed else 0)

    del server.env[CRASH_AT]
    server.start()
    assert alice.get(f"/api/games/{game_id}").json()["game"]["status"] == "variantEnd"
    assert _count(alice) == (1, 1, 0, 0)  # consumed by the start-up sweep, or before
    assert _count(bob) == (1, 0, 1, 0)
    assert _stored(tmp_path, database)[0] == [(game_id, 1, True)]

    # And on from there: the next game's end is counted once too.
    second = _start_game(server, alice, bob)
    bob.post(f"/api/board/game/{second}/resign").raise_for_status()
    assert _count(alice) == (2, 2, 0, 0)
    assert _count(bob) == (2, 0, 2, 0)
