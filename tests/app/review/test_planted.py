"""A review marks the blunders planted in a game, on positions whose value is known: in
Dōbutsu by a (reduced) table, where exactly the moves that changed the outcome are marked,
with the move that kept it; in every game, a short forced win thrown away (the win proven by
the engine alone, tests/app/analysis/test_evaluate.py), the moves before it unmarked; and in
Wali a forced win played out, unmarked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import engine
from tests.app.analysis.test_evaluate import FORCED, REDUCED, forced_in_three
from tests.app.conftest import Player
from tests.app.review.games import finished_game, settle
from tests.app.tablebase.test_table import reduced_table

# What this module tests is the same on either database (tests/app/conftest.py).
pytestmark = pytest.mark.sqlite_only

URL = "/api/game/{}/analysis"
# From REDUCED (first wins in 3 plies): first drops its chick where it only draws, second
# keeps the draw, first keeps it, then second steps where it loses; second resigns.
TABLE_GAME = ("C*a1", "b4b3", "b1c1", "b3b4")
# Wali's FORCED position has no blunder to plant (first has so many stones that every move
# still wins). Here first's three stones against second's one are three plies from the
# capture of its last stone, with three plies left before the no-progress draw (100 plies
# without a removal): c3c2 is the only win, and two plies later the capture is the only move
# that does not end the game drawn (a mate, 100 %, to a draw, 50 %: a blunder on any curve).
WALI_NEAR_NO_PROGRESS = "5s/6/2S3/6/SS4 f 0 0 97"
# Each game's planted blunder: the position it starts from and the moves played, the last
# one the blunder (thrown away: the forced win the side to move had), those before it the
# best (a forced win kept).
PLANTED = {
    "dobutsu": (FORCED["dobutsu"], ["C*c4"]),
    "gorogoro": (FORCED["gorogoro"], ["b1c2+", "b2a3", "b5b4"]),
    "jungle": (FORCED["jungle"], ["c8c9"]),
    "wali": (WALI_NEAR_NO_PROGRESS, ["c3c2", "f5f4", "c2d2"]),
    "yote": (FORCED["yote"], ["*b4"]),
}


@pytest.fixture
def reviews(make_client: Any, tmp_path: Path) -> TestClient:
    reduced_table(tmp_path / "tables", "dobutsu", REDUCED)
    client: TestClient = make_client(
        tablebase_path=tmp_path / "tables", review_eval_nodes=20_000, review_eval_seconds=600.0
    )
    return client


def reviewed(client: TestClient, variant: str, fen: str, moves: list[str] | tuple[str, ...]):
    alice, bob = Player(client, "alice"), Player(client, "bob")
    game_id = finished_game(client, alice, bob, variant, fen, moves)
    assert alice.post(URL.format(game_id)).status_code == 202
    settle(client)
    body = alice.get(URL.format(game_id)).json()
    assert body["status"] == "done", body
    return game_id, body


def test_the_table_marks_exactly_the_moves_that_changed_the_outcome(reviews: TestClient):
    game_id, body = reviewed(reviews, "dobutsu", REDUCED, TABLE_GAME)
    plies = body["plies"]
    assert all(p.get("exact") for p in plies)
    marked = [(p["ply"], p["mark"], p["best"], p["outcome"]) for p in plies if "mark" in p]
    assert marked == [
        (1, "blunder", "b1b2", {"before": "win", "after": "draw"}),
        (4, "blunder", "b3c3", {"before": "draw", "after": "loss"}),
    ]
    # The values: the table's, from the first player's view.
    assert [p.get("mate", p.get("eval")) for p in plies] == [0, 0, 0, 3]
    assert [p["win"] for p in plies] == [50, 50, 50, 100]
    assert body["start"] == {"win": 100}
    assert body["players"]["first"]["blunder"] == 1
    assert body["players"]["second"]["blunder"] == 1
    record = reviews.get(f"/game/export/{game_id}").text
    assert "1. C*a1 { [%eval 0.00] Table: a draw. Blunder. The win was thrown away: b1b2" in record
    assert "Table: first wins in 5 plies. Blunder. The draw was thrown away: b3c3" in record


@pytest.mark.parametrize("variant", sorted(PLANTED))
def test_a_short_forced_win_thrown_away_is_a_blunder(reviews: TestClient, variant: str):
    fen, moves = PLANTED[variant]
    _, body = reviewed(reviews, variant, fen, moves)
    planted = body["plies"][len(moves) - 1]
    assert planted["move"] == moves[-1]
    assert planted["mark"] == "blunder", planted
    assert [p["ply"] for p in body["plies"] if "mark" in p] == [len(moves)]
    game = engine.get_game(variant)
    pos = game.from_text(fen)
    for move in moves[:-1]:
        pos = game.play(pos, move)
    side = game.side_to_move(pos)
    # The better move given is a win: at once, or forced in three plies.
    ended = game.result(game.play(pos, planted["best"]))
    won_at_once = ended is not None and ended.winner == side
    assert won_at_once or forced_in_three(game, pos, planted["best"])
    assert planted["line"][0] == planted["best"]
    assert body["players"]["first" if side == "first" else "second"]["blunder"] >= 1


def test_a_forced_win_played_out_has_no_mark(reviews: TestClient):
    # Wali: from its short forced win every move of first still wins (no blunder to plant
    # there); the win played out, nothing is marked and first's accuracy is whole.
    line = ["d3e3xa1", "e5f5", "e3d3xf5"]
    _, body = reviewed(reviews, "wali", FORCED["wali"], line)
    assert [p.get("mark") for p in body["plies"]] == [None, None, None]
    assert body["plies"][-1]["end"] == "first" and body["start"]["win"] == 100
    assert body["players"]["first"]["accuracy"] == 100
