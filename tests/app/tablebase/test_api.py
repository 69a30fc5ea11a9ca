"""``GET /api/tablebase/dobutsu`` in lichess's tablebase shape: the position's category and
dtm, each legal move (the engine's) with the category and dtm of the position after it,
best first; every refusal a stable code. On a reduced problem's table (the full one takes
minutes to build; bench/tablebase_check.py checks it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import engine
from app.main import create_app
from app.tablebase.encoding import codes_of_keys, to_text
from app.tablebase.store import Table
from tests.app.accounts_and_streams import assert_error
from tests.app.conftest import make_settings
from tests.app.tablebase.test_table import reduced_table

URL = "/api/tablebase/dobutsu"
START = "1l1/3/3/1L1 f C"  # the reduced problem: a lion each and a chick in first's hand


@pytest.fixture
def tables(tmp_path: Path) -> Path:
    for ruleset in ("dobutsu", "yokai"):
        reduced_table(tmp_path / "tables", ruleset, START)
    return tmp_path / "tables"


@pytest.fixture
def client(sqlite_url, tmp_path, clock, tables):
    settings = make_settings(sqlite_url, tmp_path, tablebase_path=tables)
    with TestClient(create_app(settings, clock)) as c:
        yield c


def probe(client: TestClient, fen: str, **params: str) -> Any:
    return client.get(URL, params={"fen": fen, **params})


@pytest.mark.parametrize("ruleset", ["dobutsu", "yokai"])
def test_a_position_and_its_moves_in_lichess_shape(client, ruleset):
    params = {} if ruleset == "dobutsu" else {"ruleset": "yokai"}
    response = probe(client, START, **params)
    assert response.status_code == 200, response.text
    body = response.json()
    assert set(body) == {"category", "dtm", "moves"}
    game = engine.get_game("dobutsu", ruleset=ruleset)
    pos = game.from_text(START)
    assert sorted(m["uci"] for m in body["moves"]) == game.legal_moves(pos)
    for move in body["moves"]:
        assert set(move) == {"uci", "category", "dtm"}
        # Each move's figures are the position after it, asked for directly.
        after = probe(client, game.to_text(game.play(pos, move["uci"])).rsplit(" ", 1)[0], **params)
        assert after.status_code == 200, after.text
        assert (after.json()["category"], after.json()["dtm"]) == (move["category"], move["dtm"])
    best = body["moves"][0]
    assert body["category"] == "win" and body["dtm"] > 0
    # The best move leads to the opponent's loss, one ply nearer the end.
    assert best["category"] == "loss" and best["dtm"] == -(body["dtm"] - 1)
    # Moves best first: the opponent's losses (fastest first), draws, then its wins.
    rank = {"loss": 0, "draw": 1, "win": 2}
    keys = [(rank[m["category"]], -(m["dtm"] or 0)) for m in body["moves"]]
    assert keys == sorted(keys)


def test_a_lost_position_has_a_negative_dtm_and_a_draw_none(client, tables):
    game = engine.get_game("dobutsu")
    body = probe(client, START).json()
    lost = next(m for m in body["moves"] if m["category"] == "loss")
    after = game.play(game.from_text(START), lost["uci"])
    answer = probe(client, game.to_text(after)).json()  # a history field is not read
    assert answer["category"] == "loss" and answer["dtm"] == lost["dtm"] < 0
    assert all(m["category"] == "win" for m in answer["moves"])
    # A drawn position of the table: no move loses for the opponent, one draws.
    table = Table(tables / "dobutsu")
    index, stored = table.sample(len(table))
    drawn = int(codes_of_keys(stored)[table.values_at(index) == 0][0])
    answer = probe(client, to_text(drawn)).json()
    assert (answer["category"], answer["dtm"]) == ("draw", None)
    categories = {m["category"] for m in answer["moves"]}
    assert "draw" in categories and "loss" not in categories
    assert all(m["dtm"] is None for m in answer["moves"] if m["category"] == "draw")


def test_the_game_over_is_a_loss_in_zero(client):
    # Second's lion has just reached first's back rank: the try ended the game.
    body = probe(client, "3/2L/3/l2 f C").json()
    assert body == {"category": "loss", "dtm": 0, "moves": []}


def test_under_yokai_a_lion_to_take_is_a_win_in_one_the_table_need_not_store(client, tables):
    # Second's lion stepped next to first's: first takes it. The yokai table leaves such
    # positions out and the lookup gives their value.
    body = probe(client, "3/1l1/1L1/3 f C", ruleset="yokai").json()
    assert (body["category"], body["dtm"]) == ("win", 1)
    assert body["moves"][0] == {"uci": "b2b3", "category": "loss", "dtm": 0}
    table = Table(tables / "yokai")
    assert table.figures["derived"] and len(table) < table.figures["positions"] / 3
    # Such a position that cannot be reached from the start (two elephants in hand, in a
    # table of a chick) is told apart by its moves, which lead out of the table.
    assert_error(probe(client, "3/1l1/1L1/3 f 2E", ruleset="yokai"), 404, "tablebase.unreachable")


def test_bad_input_is_refused_with_a_stable_code(client):
    assert_error(probe(client, "not a position"), 400, "position.invalid")
    assert_error(probe(client, "1l1/3/3/1L1 f C", ruleset="shogi"), 400, "tablebase.ruleset")
    assert_error(client.get(URL), 400, "request.invalid")
    assert_error(probe(client, "x" * 3000), 400, "request.invalid")
    # A jungle position is no Dōbutsu position.
    jungle = engine.get_game("jungle")
    assert_error(probe(client, jungle.to_text(jungle.start())), 400, "position.invalid")
    # Well formed, but not reachable from this (reduced) table's start: two elephants.
    assert_error(probe(client, "1l1/3/3/1L1 f 2E"), 404, "tablebase.unreachable")


def test_without_a_table_the_answer_says_how_to_build_it(sqlite_url, tmp_path, clock):
    settings = make_settings(sqlite_url, tmp_path, tablebase_path=tmp_path / "none")
    with TestClient(create_app(settings, clock)) as client:
        body = assert_error(probe(client, START), 503, "tablebase.unavailable")
        assert "python -m app tablebase build" in body["error"]
        body = assert_error(probe(client, START, ruleset="yokai"), 503, "tablebase.unavailable")
        assert "--ruleset yokai" in body["error"]
