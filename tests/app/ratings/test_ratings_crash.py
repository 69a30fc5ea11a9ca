"""Ratings change exactly once per rated game across a crash at every step: a real server
process dies (as under ``kill -9``) at each named point (app/core/faults.py,
tests/crashpoints.py) — between the
game's commit and its consumption, inside the consumption's transaction (marked, rating
rows locked, one side written, both written), after its commit before anyone is told — and
is started again without it: the ratings and rating changes are exact, never twice, never
missing. SQLite and PostgreSQL (tests/app/outbox/test_outbox_crash.py's machinery)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from app.core import faults
from app.ratings import glicko2
from tests.app.outbox import test_outbox_crash
from tests.app.outbox.test_outbox_crash import TRY_GAME, _move, read_rows
from tests.crashpoints import CRASH_AT, EXIT_STATUS
from tests.server import Server

# The same fixtures: the database (SQLite file or PostgreSQL) and a server set to crash.
database = test_outbox_crash.database
crashing = test_outbox_crash.crashing
PASSWORD = "correct horse battery"
WON, LOST = glicko2.game(glicko2.Rating(), glicko2.Rating(), glicko2.WIN)


def _account(server: Server, username: str) -> httpx.Client:
    client = httpx.Client(base_url=server.base, timeout=30)
    credentials = {"username": username, "password": PASSWORD}
    client.post("/api/account/register", json=credentials).raise_for_status()
    client.post("/api/account/login", json=credentials).raise_for_status()
    return client


def _rated_game(alice: httpx.Client, bob: httpx.Client) -> str:
    created = alice.post("/api/games", json={"variant": "dobutsu", "color": "first", "rated": True})
    created.raise_for_status()
    game_id: str = created.json()["id"]
    bob.post(f"/api/games/{game_id}/join").raise_for_status()
    return game_id


def _stored(tmp_path: Path, database: str | None) -> tuple[list[Any], list[Any]]:
    """The ratings rows (rating, games) and rating_changes rows (before, after), read
    directly, in player order of the usernames."""
    ratings = (
        "SELECT p.username, r.rating, r.games FROM ratings r JOIN players p ON p.id = r.player_id"
        " WHERE r.games > 0 ORDER BY p.username"
    )
    changes = (
        "SELECT p.username, c.before, c.after FROM rating_changes c"
        " JOIN players p ON p.id = c.player_id ORDER BY p.username, c.at_ms"
    )
    found, changed = read_rows(tmp_path, database, ratings, changes)
    return found, changed


@pytest.mark.parametrize("crashing", sorted(faults.POINTS), indirect=True)
def test_ratings_are_exact_after_a_crash(crashing: Server, database: str | None, tmp_path: Path):
    server = crashing
    point = server.env[CRASH_AT]
    alice, bob = _account(server, "alice"), _account(server, "bob")
    game_id = _rated_game(alice, bob)
    for ply, move in enumerate(TRY_GAME[:-1]):
        _move(alice if ply % 2 == 0 else bob, game_id, move).raise_for_status()
    with pytest.raises(httpx.TransportError):  # the process dies before it answers
        _move(alice, game_id, TRY_GAME[-1])
    assert server.proc is not None
    assert server.proc.wait(timeout=30) == EXIT_STATUS

    ratings, changes = _stored(tmp_path, database)
    if point == "after_consume_commit":
        assert len(ratings) == 2 and len(changes) == 2  # committed before it died
    else:
        assert ratings == [] and changes == []  # nothing of an unfinished consumption

    del server.env[CRASH_AT]
    server.start()
    expected = [("alice", pytest.approx(WON.rating), 1), ("bob", pytest.approx(LOST.rating), 1)]
    ratings, changes = _stored(tmp_path, database)
    assert ratings == expected
    assert changes == [
        ("alice", pytest.approx(1500.0), pytest.approx(WON.rating)),
        ("bob", pytest.approx(1500.0), pytest.approx(LOST.rating)),
    ]
    state = alice.get(f"/api/games/{game_id}").json()["game"]
    assert state["ratings"]["first"] == {
        "before": 1500,
        "after": 1742,
        "diff": 242,
        "provisional": True,
    }
    assert alice.get("/api/user/alice").json()["perfs"]["dobutsu"]["games"] == 1

    # And on from there: the next rated game's end is counted once too, from the first's.
    second = _rated_game(alice, bob)
    for ply, move in enumerate(TRY_GAME):
        _move(alice if ply % 2 == 0 else bob, second, move).raise_for_status()
    after_two = glicko2.game(WON, LOST, glicko2.WIN)
    ratings, changes = _stored(tmp_path, database)
    assert ratings == [
        ("alice", pytest.approx(after_two[0].rating), 2),
        ("bob", pytest.approx(after_two[1].rating), 2),
    ]
    assert len(changes) == 4
