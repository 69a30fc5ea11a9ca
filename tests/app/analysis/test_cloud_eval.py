"""``GET /api/cloud-eval`` in lichess's shape (``{fen, knodes, depth, pvs: [{moves, cp |
mate}]}``, scores from the first player's view) for every game, searched in a worker within
the server's budget and kept per position (LRU); exact from the Dōbutsu table where it holds
the position; every refusal a stable code. SQLite only: nothing here touches the database."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import engine
from app.analysis import evaluate
from app.core.time import ManualClock
from app.main import create_app
from tests.app.accounts_and_streams import assert_error, services_of
from tests.app.analysis.test_evaluate import FORCED, REDUCED
from tests.app.conftest import make_settings
from tests.app.tablebase.test_table import reduced_table

URL = "/api/cloud-eval"
NODES = 3_000  # the server's budget in these tests (no time limit is reached)


@pytest.fixture
def make_client(sqlite_url: str, tmp_path: Path, clock: ManualClock) -> Iterator[Any]:
    """A client whose app has these settings (on SQLite, on the test's clock)."""
    with contextlib.ExitStack() as stack:

        def make(**overrides: Any) -> TestClient:
            app = create_app(make_settings(sqlite_url, tmp_path, **overrides), clock)
            return stack.enter_context(TestClient(app))

        yield make


@pytest.fixture
def tables(tmp_path: Path) -> Path:
    reduced_table(tmp_path / "tables", "dobutsu", REDUCED)
    return tmp_path / "tables"


@pytest.fixture
def evals(make_client: Any, tables: Path) -> TestClient:
    client: TestClient = make_client(
        analysis_eval_nodes=NODES, analysis_eval_seconds=600.0, tablebase_path=tables
    )
    return client


def cloud(client: TestClient, fen: str, **params: Any) -> Any:
    return client.get(URL, params={"fen": fen, **params})


@pytest.mark.parametrize("variant", engine.game_ids())
def test_each_games_start_in_lichess_shape(evals, variant):
    game = engine.get_game(variant)
    start = game.to_text(game.start())
    response = cloud(evals, start, variant=variant, multiPv=2)
    assert response.status_code == 200, response.text
    body = response.json()
    assert set(body) == {"fen", "knodes", "depth", "pvs", "variant", "rules", "source"}
    assert (body["fen"], body["variant"], body["source"]) == (start, variant, "search")
    assert body["rules"] == dict(game.options)
    assert 0 <= body["knodes"] <= NODES // 1000 and body["depth"] >= 1
    assert len(body["pvs"]) == 2
    for pv in body["pvs"]:
        assert set(pv) in ({"moves", "cp"}, {"moves", "mate"})
        pos = game.start()
        for move in pv["moves"].split(" "):
            assert move in game.legal_moves(pos)
            pos = game.play(pos, move)


@pytest.mark.parametrize("variant", ["dobutsu", "gorogoro"])  # first to move, then second
def test_a_forced_win_is_a_mate_from_the_first_players_view(make_client, variant):
    client = make_client(analysis_eval_nodes=5_000, analysis_eval_seconds=600.0)
    body = cloud(client, FORCED[variant], variant=variant).json()
    turn = engine.get_game(variant).from_text(FORCED[variant]).side
    assert body["pvs"][0]["mate"] == (2 if turn == 0 else -2)
    assert len(body["pvs"][0]["moves"].split(" ")) == 3


def test_rule_options_are_query_parameters(evals):
    fen = "gle/1c1/1C1/ELG f -"
    body = cloud(evals, fen, variant="dobutsu", ruleset="yokai").json()
    assert body["rules"] == {"ruleset": "yokai"}
    jungle = engine.get_game("jungle")
    start = jungle.to_text(jungle.start())
    body = cloud(evals, start, variant="jungle", traps="opponent").json()
    assert body["rules"] == {"traps": "opponent", "repetition": "draw"}


def test_the_dobutsu_table_answers_exactly(evals, tables):
    game = engine.get_game("dobutsu")
    pos = game.from_text(REDUCED)
    body = cloud(evals, REDUCED, variant="dobutsu", multiPv=5).json()
    assert body["source"] == "table" and body["knodes"] == 0
    probe = evals.get("/api/tablebase/dobutsu", params={"fen": REDUCED}).json()
    assert len(body["pvs"]) == min(5, len(game.legal_moves(pos)))
    for pv, move in zip(body["pvs"], probe["moves"], strict=False):
        assert pv["moves"].split(" ")[0] == move["uci"]
        if move["category"] == "draw":
            assert pv == {"moves": pv["moves"], "cp": 0}
        else:
            plies = abs(move["dtm"]) + 1  # the mover's: its move, then the opponent's dtm
            won = move["category"] == "loss"
            assert pv["mate"] == (plies + 1) // 2 * (1 if won else -1)  # first is to move


def test_refusals_have_stable_codes(evals):
    start = "gle/1c1/1C1/ELG f -"
    assert_error(cloud(evals, start), 400, "game.unknown")  # no variant
    assert_error(cloud(evals, start, variant="standard"), 400, "game.unknown")  # berserk's default
    assert_error(cloud(evals, "8/8/8 w", variant="dobutsu"), 400, "position.invalid")
    assert_error(cloud(evals, start, variant="dobutsu", ruleset="chess"), 400, "option.invalid")
    assert_error(cloud(evals, start, variant="dobutsu", colour="red"), 400, "option.invalid")
    for bad in ("0", "6", "two"):
        assert_error(cloud(evals, start, variant="dobutsu", multiPv=bad), 400, "request.invalid")
    assert_error(evals.get(URL, params={"variant": "dobutsu"}), 400, "request.invalid")
    game = engine.get_game("dobutsu")
    over = game.from_text(FORCED["dobutsu"])
    for move in ("a3b4", "c2b3", "G*a3"):
        over = game.play(over, move)
    refused = assert_error(cloud(evals, game.to_text(over), variant="dobutsu"), 404, "eval.none")
    assert refused["error"].startswith("No cloud evaluation available for that position")


def test_answers_are_kept_per_position_and_the_oldest_goes_first(make_client):
    client = make_client(analysis_eval_nodes=NODES, analysis_eval_cache=2)
    workers = services_of(client).analysis
    fens = ["gle/1c1/1C1/ELG f -", "gle/1c1/1C1/ELG s -", "gle/3/1C1/ELG s C"]
    first = cloud(client, fens[0], variant="dobutsu").json()
    cloud(client, fens[1], variant="dobutsu")
    # Every worker and queue place taken: what is kept is still answered, nothing else.
    workers.evaluations.running = workers.evaluations.capacity
    try:
        assert cloud(client, fens[0], variant="dobutsu").json() == first
        assert_error(cloud(client, fens[0], variant="dobutsu", multiPv=2), 503, "analysis.busy")
        workers.evaluations.running = 0
        cloud(client, fens[2], variant="dobutsu")  # the third pushes out the oldest asked
        workers.evaluations.running = workers.evaluations.capacity
        assert cloud(client, fens[2], variant="dobutsu").status_code == 200
        assert cloud(client, fens[0], variant="dobutsu").status_code == 200
        assert_error(cloud(client, fens[1], variant="dobutsu"), 503, "analysis.busy")
    finally:
        workers.evaluations.running = 0


def test_a_visitor_past_its_rate_is_refused(make_client, clock: ManualClock, alice, bob):
    client = make_client(
        analysis_eval_nodes=NODES, ratelimit_analysis_per_s=0.5, ratelimit_analysis_burst=2
    )
    params = {"fen": "gle/1c1/1C1/ELG f -", "variant": "dobutsu"}
    for _ in range(2):
        assert client.get(URL, params=params, headers=alice.headers).is_success
    refused = client.get(URL, params=params, headers=alice.headers)
    assert assert_error(refused, 429, "ratelimit")["ratelimit"]["key"] == "analysis"
    assert client.get(URL, params=params, headers=bob.headers).is_success
    clock.advance(2000)
    assert client.get(URL, params=params, headers=alice.headers).is_success


def test_the_search_runs_in_a_worker_of_its_own(make_client, monkeypatch: pytest.MonkeyPatch):
    def on_the_loop(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("the position was searched in the server's own process")

    monkeypatch.setattr(evaluate, "evaluate", on_the_loop)
    client = make_client(analysis_eval_nodes=NODES)
    assert cloud(client, "gle/1c1/1C1/ELG f -", variant="dobutsu").status_code == 200
    # Every evaluation place taken: a replay of the board still goes through at once.
    workers = services_of(client).analysis
    workers.evaluations.running = workers.evaluations.capacity
    try:
        busy = cloud(client, "gle/1c1/1C1/ELG s -", variant="dobutsu")
        assert_error(busy, 503, "analysis.busy")
        moves = {"variant": "dobutsu", "moves": ["b2b3"]}
        assert client.post("/api/analysis/moves", json=moves).status_code == 200
    finally:
        workers.evaluations.running = 0
