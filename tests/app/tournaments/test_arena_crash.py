"""An arena's results are exact across a crash: a real server process dies (as under
``kill -9``) at each point of an arena game's end and its consumption by the outbox
(app/core/faults.py) and is started again: the game counts once, never twice, never
missing, and the arena pairs its players again and goes on. SQLite and PostgreSQL."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.core import faults
from tests.app.outbox import test_outbox_crash
from tests.app.outbox.test_outbox_crash import TRY_GAME, read_rows
from tests.crashpoints import CRASH_AT, EXIT_STATUS
from tests.server import Server, account_token

database = test_outbox_crash.database
crashing = test_outbox_crash.crashing


def _client(server: Server, username: str) -> httpx.Client:
    token = account_token(server, username, "board:play")
    return httpx.Client(
        base_url=server.base, timeout=30, headers={"authorization": f"Bearer {token}"}
    )


def _game_of(client: httpx.Client, tid: str) -> str:
    """The player's arena game, once the server's waves made it."""
    deadline = time.monotonic() + 30
    while True:
        game_id = client.get(f"/api/tournament/{tid}").json()["me"]["gameId"]
        if game_id is not None:
            return str(game_id)
        assert time.monotonic() < deadline, "not paired in time"
        time.sleep(0.05)


def _results(client: httpx.Client, tid: str) -> list[tuple[Any, ...]]:
    lines = client.get(f"/api/tournament/{tid}/results", params={"sheet": "true"})
    return [
        (r["rank"], r["username"], r["score"], r["sheet"]["scores"])
        for r in (httpx.Response(200, content=line).json() for line in lines.iter_lines())
    ]


@pytest.mark.parametrize("crashing", sorted(faults.OUTBOX_POINTS), indirect=True)
def test_arena_results_are_exact_after_a_crash(
    crashing: Server, database: str | None, tmp_path: Path
) -> None:
    server = crashing
    point = server.env[CRASH_AT]
    alice, bob = _client(server, "alice"), _client(server, "bob")
    made = alice.post("/api/tournament", json={"clockTime": 3, "minutes": 60, "waitMinutes": 0})
    tid = made.json()["id"]
    for player in (alice, bob):
        player.post(f"/api/tournament/{tid}/join").raise_for_status()
    game_id = _game_of(alice, tid)  # alice joined first: she moves first
    for ply, move in enumerate(TRY_GAME[:-1]):
        mover = alice if ply % 2 == 0 else bob
        mover.post(f"/api/board/game/{game_id}/move/{move}").raise_for_status()
    with pytest.raises(httpx.TransportError):  # the process dies before it answers
        alice.post(f"/api/board/game/{game_id}/move/{TRY_GAME[-1]}")
    assert server.proc is not None
    assert server.proc.wait(timeout=30) == EXIT_STATUS
    (stored,) = read_rows(
        tmp_path, database, "SELECT status, winner FROM tournament_pairings ORDER BY created_ms"
    )
    # Committed with the outbox row's mark, or not at all.
    assert stored == (
        [("finished", "first")] if point == "after_consume_commit" else [("started", None)]
    )

    del server.env[CRASH_AT]
    server.start()
    assert _results(alice, tid) == [(1, "alice", 2, "2"), (2, "bob", 0, "0")]
    # Only the two of them: paired again (bob moves first now), and this one counts once too.
    second = _game_of(alice, tid)
    assert second != game_id
    for ply, move in enumerate(TRY_GAME):
        mover = bob if ply % 2 == 0 else alice
        mover.post(f"/api/board/game/{second}/move/{move}").raise_for_status()
    deadline = time.monotonic() + 30
    while (found := _results(alice, tid)) != [(1, "alice", 2, "02"), (2, "bob", 2, "20")]:
        assert time.monotonic() < deadline, found
        time.sleep(0.05)
