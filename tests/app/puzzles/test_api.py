"""The puzzle API on the real app and the committed set: lichess's shapes (by id, daily,
next), Kodama's positions along the solution, the refusals and their stable codes, and the
ratings an attempt changes (Glicko-2: an account's first attempt rates it and the puzzle; a
replay or a guest's attempt changes nothing)."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import engine
from app.core.time import ManualClock
from app.puzzles import rating as puzzle_rating
from app.puzzles.data import DEFAULT_FILE, read
from app.puzzles.service import Puzzles
from app.ratings.glicko2 import Rating
from tests.app.accounts_and_streams import Account, assert_error, services_of
from tests.app.conftest import Player

DAY_MS = 86_400_000


def test_a_puzzle_in_lichess_shape_replays_to_its_position_and_wins(client: TestClient):
    first = client.get("/api/puzzle/next")
    assert first.status_code == 200, first.text
    puzzle_id = first.json()["puzzle"]["id"]
    data = client.get(f"/api/puzzle/{puzzle_id}").json()
    assert set(data) == {"game", "puzzle", "positions"}
    game, puzzle = data["game"], data["puzzle"]
    assert {"id", "perf", "rated", "players", "pgn", "clock"} <= set(game)
    assert game["perf"] == {"key": "dobutsu", "name": "Dōbutsu"}
    assert {"id", "rating", "plays", "solution", "themes", "initialPly"} <= set(puzzle)
    assert isinstance(puzzle["rating"], int) and puzzle["plays"] == 0
    moves = game["pgn"].split(" ")
    assert puzzle["initialPly"] == len(moves) - 1
    rules = engine.get_game("dobutsu", ruleset="dobutsu")
    pos = rules.start()
    for move in moves:
        pos = rules.play(pos, move)
    solver = rules.side_to_move(pos)
    assert rules.to_text(pos).split(" ")[:3] == puzzle["fen"].split(" ")[:3]
    positions = data["positions"]
    assert len(positions) == len(puzzle["solution"]) + 2
    assert positions[1]["fen"].split(" ")[:3] == puzzle["fen"].split(" ")[:3]
    for move, shown in zip(puzzle["solution"], positions[2:], strict=True):
        assert move in rules.legal_moves(pos)
        pos = rules.play(pos, move)
        assert shown["fen"] == rules.to_text(pos)
    result = rules.result(pos)
    assert result is not None and result.winner == solver
    assert positions[-1]["result"]["winner"] == solver


def test_refusals_have_stable_codes(client: TestClient):
    assert_error(client.get("/api/puzzle/zzzzz"), 404, "puzzle.not_found")
    unknown = client.post("/api/puzzle/zzzzz/round", json={"win": True})
    assert_error(unknown, 404, "puzzle.not_found")
    assert_error(client.get("/api/puzzle/next?angle=nosuchtheme"), 404, "puzzle.none")
    assert_error(client.get("/api/puzzle/next?difficulty=impossible"), 400, "request.invalid")
    puzzle_id = client.get("/api/puzzle/next").json()["puzzle"]["id"]
    refused = client.post(f"/api/puzzle/{puzzle_id}/round", json={"win": "yes"})
    assert_error(refused, 400, "request.invalid")


def test_the_daily_puzzle_is_the_same_all_day_and_another_on_other_days(client):
    daily = client.get("/api/puzzle/daily").json()
    assert set(daily) == {"game", "puzzle", "positions"}
    # The day's choice, on a clock of its own (the app's would run a day of its timers).
    services = services_of(client)
    day_start = (services.puzzles.clock.now_ms() // DAY_MS) * DAY_MS
    clock = ManualClock(day_start)
    puzzles = Puzzles(services.puzzles.sessions, clock)
    assert client.portal is not None
    today = client.portal.call(puzzles.daily)
    assert today.id == daily["puzzle"]["id"]
    clock.advance(DAY_MS - 1)
    assert client.portal.call(puzzles.daily).id == today.id
    assert 3 <= today.plies <= 9
    days = {today.id}
    for _ in range(3):
        clock.advance(DAY_MS)
        days.add(client.portal.call(puzzles.daily).id)
    assert len(days) >= 3


def test_an_accounts_first_attempt_rates_it_and_the_puzzle_and_a_replay_does_not(client):
    alice = Account(client, "alice")
    assert alice.get("/api/puzzle/rating").json() == {
        "rating": {"rating": 1500, "deviation": 500, "provisional": True, "plays": 0}
    }
    puzzle = alice.get("/api/puzzle/next").json()["puzzle"]
    stored = services_of(client).puzzles
    assert client.portal is not None
    row = client.portal.call(stored.get, puzzle["id"])
    before = Rating(row.rating, row.deviation, row.volatility)
    solved = alice.post(f"/api/puzzle/{puzzle['id']}/round", {"win": True})
    assert solved.status_code == 200, solved.text
    body = solved.json()
    mine, its = puzzle_rating.attempt(Rating(), before, True)
    assert body["rated"] is True and body["win"] is True
    assert body["ratingDiff"] == round(mine.rating) - 1500 > 0
    assert body["rating"]["rating"] == round(mine.rating) and body["rating"]["plays"] == 1
    assert body["puzzleRating"] == round(its.rating) < round(before.rating)
    again = alice.post(f"/api/puzzle/{puzzle['id']}/round", {"win": False}).json()
    assert again["rated"] is False and again["ratingDiff"] == 0
    assert again["rating"]["rating"] == round(mine.rating)
    assert client.get(f"/api/puzzle/{puzzle['id']}").json()["puzzle"]["plays"] == 1
    # A failure: the account loses points, the puzzle gains them.
    other = alice.get("/api/puzzle/next").json()["puzzle"]
    assert other["id"] != puzzle["id"]
    failed = alice.post(f"/api/puzzle/{other['id']}/round", {"win": False}).json()
    assert failed["rated"] is True and failed["ratingDiff"] < 0
    assert failed["puzzleRating"] > other["rating"]
    assert alice.get("/api/puzzle/rating").json()["rating"]["plays"] == 2


def test_a_guests_attempt_is_not_rated(client: TestClient):
    guest = Player(client, "guest")
    assert guest.get("/api/puzzle/rating").json() == {"rating": None}
    puzzle = guest.get("/api/puzzle/next").json()["puzzle"]
    body = guest.post(f"/api/puzzle/{puzzle['id']}/round", {"win": True}).json()
    assert body == {
        "win": True,
        "rated": False,
        "ratingDiff": 0,
        "rating": None,
        "puzzleRating": puzzle["rating"],
    }
    assert guest.get(f"/api/puzzle/{puzzle['id']}").json()["puzzle"]["plays"] == 0


def test_the_next_puzzle_is_near_the_rating_of_the_theme_asked_and_new(client):
    ratings = sorted(abs(p["rating"] - 1500) for p in read(DEFAULT_FILE))
    for _ in range(5):
        got = client.get("/api/puzzle/next").json()["puzzle"]
        assert abs(got["rating"] - 1500) <= ratings[29]  # of the 30 nearest
    hardest = client.get("/api/puzzle/next?difficulty=hardest").json()["puzzle"]
    assert hardest["rating"] > 1800
    short = client.get("/api/puzzle/next?angle=oneMove").json()["puzzle"]
    assert short["themes"][0] == "oneMove" and len(short["solution"]) == 1
    bob = Account(client, "bob")
    seen: set[str] = set()
    for _ in range(4):
        got = bob.get("/api/puzzle/next").json()["puzzle"]
        assert got["id"] not in seen
        seen.add(got["id"])
        bob.post(f"/api/puzzle/{got['id']}/round", {"win": True})


@pytest.mark.parametrize("days", [0, 1, 30])
def test_a_players_rating_grows_less_sure_by_the_day(days: int):
    kept = Rating(1600, 60, 0.06)
    aged = puzzle_rating.aged(kept, 0, days * DAY_MS + 5)
    assert aged.rating == 1600
    assert (aged.deviation > 60) == (days > 0)


def test_the_committed_set_has_enough_puzzles_of_every_length():
    puzzles: list[dict[str, Any]] = list(read(DEFAULT_FILE))
    assert len(puzzles) >= 2000
    assert len({p["id"] for p in puzzles}) == len(puzzles)
    lengths = {p["plies"] for p in puzzles}
    assert lengths == set(range(1, 16, 2))
    assert all(p["plies"] == len(p["solution"]) for p in puzzles)


def test_the_documented_example_is_what_the_server_answers(client: TestClient):
    text = (Path(__file__).resolve().parents[3] / "docs" / "api.md").read_text()
    after = text[text.index("## Puzzles") :]
    block = re.search(r"```json\n(.*?)```", after, re.DOTALL)
    assert block is not None
    documented = json.loads(block.group(1))
    served = client.get(f"/api/puzzle/{documented['puzzle']['id']}").json()
    assert served["game"] == documented["game"]
    assert served["puzzle"] == documented["puzzle"]


def test_a_first_attempt_sent_twice_at_once_is_rated_once(client: TestClient):
    carol = Account(client, "carol")
    puzzle_id = carol.get("/api/puzzle/next").json()["puzzle"]["id"]
    service = services_of(client).puzzles

    async def twice() -> list[Any]:
        return list(
            await asyncio.gather(
                service.attempt(carol.id, puzzle_id, True),
                service.attempt(carol.id, puzzle_id, True),
            )
        )

    assert client.portal is not None
    done = client.portal.call(twice)
    assert sorted(d.rated for d in done) == [False, True]
    assert client.get(f"/api/puzzle/{puzzle_id}").json()["puzzle"]["plays"] == 1
    assert carol.get("/api/puzzle/rating").json()["rating"]["plays"] == 1
