"""``POST /api/analysis/moves``, the analysis board's question to the engine: the positions
through some moves from a start, with their legal moves and results, for every game, rule
options and a start of one's own; a move played by hand from a returned position; every
refusal with its stable code, changing nothing (no game is created)."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from app.analysis import positions as analysis
from app.core.errors import ServiceError
from app.games import record
from tests.app.accounts_and_streams import assert_error
from tests.app.games.test_record import WALI_PASS, random_game
from tests.app.games.test_record_tags import RULES, position_after

# What this module tests is the same on either database (tests/app/conftest.py).
pytestmark = pytest.mark.sqlite_only

URL = "/api/analysis/moves"


def ask(client: Any, **body: Any) -> Any:
    return client.post(URL, json=body)


def expected(game: Any, pos: Any) -> dict[str, Any]:
    result = game.result(pos)
    return {
        "fen": game.to_text(pos),
        "turn": game.side_to_move(pos),
        "check": game.in_check(pos),
        "legalMoves": game.legal_moves(pos),
        "result": None if result is None else {"winner": result.winner, "reason": result.reason},
    }


@pytest.mark.parametrize("variant", engine.game_ids())
def test_a_game_replays_position_by_position_to_its_end(client, variant):
    moves = random_game(variant, seed=7, plies=400)  # to the end, most of the time
    response = ask(client, variant=variant, moves=moves)
    assert response.status_code == 200, response.text
    data = response.json()
    game = engine.get_game(variant)
    assert data["variant"] == variant and data["rules"] == game.options
    pos = game.start()
    wanted = [expected(game, pos)]
    for text in moves:
        pos = game.play(pos, text)
        wanted.append(expected(game, pos))
    assert data["positions"] == wanted


@pytest.mark.parametrize("variant", engine.game_ids())
def test_rule_options_and_a_start_of_ones_own(client, variant):
    rules = RULES[variant]
    fen = position_after(variant, rules, 4, seed=3)
    game = engine.get_game(variant, **rules)
    first = game.legal_moves(game.from_text(fen))[-1]
    data = ask(client, variant=variant, rules=rules, fen=fen, moves=[first]).json()
    assert data["rules"] == game.options
    assert [p["fen"] for p in data["positions"]] == [
        fen,
        game.to_text(game.play(game.from_text(fen), first)),
    ]


def test_moves_played_one_at_a_time_carry_the_repetitions(client):
    # Giraffes out and back twice: the start occurs a third time, a draw by repetition. Each
    # move is asked from the position string the previous answer gave (its history field).
    shuffle = ["c1c2", "a4a3", "c2c1", "a3a4"] * 2
    fen = None
    for text in shuffle:
        body = {"variant": "dobutsu", "moves": [text], **({"fen": fen} if fen else {})}
        positions = ask(client, **body).json()["positions"]
        fen = positions[1]["fen"]
    assert positions[1]["result"] == {"winner": None, "reason": "repetition"}
    assert positions[1]["legalMoves"] == []
    whole = ask(client, variant="dobutsu", moves=shuffle).json()["positions"][-1]
    assert whole == positions[1]


def test_a_side_passed_in_wali_and_check_in_the_shogi_games(client):
    positions = ask(client, variant="wali", fen=WALI_PASS, moves=["*b2"]).json()["positions"]
    assert [p["turn"] for p in positions] == ["first", "first"]  # second cannot place
    # gorogoro: the pawn takes in front of the king? Found by the engine: a move giving check.
    game = engine.get_game("gorogoro")
    pos = game.start()
    moves: list[str] = []
    while not game.in_check(pos):
        checking = [m for m in game.legal_moves(pos) if game.in_check(game.play(pos, m))]
        text = checking[0] if checking else game.legal_moves(pos)[0]
        moves.append(text)
        pos = game.play(pos, text)
    last = ask(client, variant="gorogoro", moves=moves).json()["positions"][-1]
    assert last["check"] is True and last["turn"] == game.side_to_move(pos)


def test_a_record_read_back_is_what_the_board_replays(client):
    rules = {"traps": "opponent"}
    start = position_after("jungle", rules, 2, seed=5)
    moves = random_game("jungle", seed=5, plies=12)[2:]  # whatever follows, checked below
    game = engine.get_game("jungle", **rules)
    pos, kept = game.from_text(start), []
    for text in moves:
        if text not in game.legal_moves(pos):
            break
        pos = game.play(pos, text)
        kept.append(text)
    tags = {"Variant": "jungle", "Rules": record.rules_text(rules), "FEN": start}
    found = record.parse(record.write(tags, record.movetext("jungle", rules, start, kept, "*")))
    body = {
        "variant": found.tags["Variant"],
        "rules": record.parse_rules(found.tags["Rules"]),
        "fen": found.tags["FEN"],
        "moves": found.moves,
    }
    positions = ask(client, **body).json()["positions"]
    assert [p["fen"] for p in positions] == record.replay(found)


def count_of_games(client: Any) -> tuple[Any, Any]:
    return client.get("/api/lobby").json(), client.get("/api/me").json()["count"]


@pytest.mark.parametrize(
    ("body", "status", "code", "index"),
    [
        ({"variant": "chess"}, 400, "game.unknown", None),
        ({"variant": "jungle", "rules": {"traps": "none"}}, 400, "option.invalid", None),
        ({"variant": "yote", "rules": {"traps": "any"}}, 400, "option.invalid", None),
        ({"variant": "dobutsu", "fen": "gle/1c1/1C1/ELG x -"}, 400, "position.invalid", None),
        ({"variant": "dobutsu", "fen": "not a position"}, 400, "position.invalid", None),
        ({"variant": "dobutsu", "moves": ["b2b3", "B4B3"]}, 400, "move.invalid", 1),
        ({"variant": "dobutsu", "moves": ["b2b3", "c4b3", "a1a4"]}, 422, "move.illegal", 2),
        ({"variant": "wali", "moves": ["*a1", "*a1"]}, 422, "move.illegal", 1),
        ({}, 400, "request.invalid", None),
        ({"variant": "dobutsu", "moves": "b2b3"}, 400, "request.invalid", None),
        ({"variant": "dobutsu", "rules": {"ruleset": 1}}, 400, "request.invalid", None),
        ({"variant": "dobutsu", "moves": [""]}, 400, "request.invalid", None),
        ({"variant": "dobutsu", "moves": ["b2b3" * 6]}, 400, "request.invalid", None),
        ({"variant": "dobutsu", "moves": ["b2b3"] * 1001}, 400, "request.invalid", None),
        ({"variant": "dobutsu", "ply": 3}, 400, "request.invalid", None),
    ],
)
def test_refusals_have_stable_codes_and_change_nothing(client, body, status, code, index):
    before = count_of_games(client)
    error = assert_error(ask(client, **body), status, code)
    assert error.get("index") == index
    if index is not None:
        assert f"move {index + 1} of" in error["error"] and body["moves"][index] in error["error"]
    assert count_of_games(client) == before


def finished_game(variant: str) -> tuple[list[str], Any]:
    game = engine.get_game(variant)
    for seed in range(50):
        moves = random_game(variant, seed=seed, plies=400)
        pos = game.start()
        for text in moves:
            pos = game.play(pos, text)
        if game.result(pos) is not None:
            return moves, pos
    raise AssertionError("no random game ended")


@pytest.mark.parametrize("variant", ["dobutsu", "jungle"])
def test_a_move_after_the_end_and_a_finished_start(client, variant):
    moves, end = finished_game(variant)
    game = engine.get_game(variant)
    before = count_of_games(client)
    refused = assert_error(ask(client, variant=variant, moves=[*moves, "a1a2"]), 409, "game.over")
    assert refused["index"] == len(moves)
    assert count_of_games(client) == before
    # The end as a start: shown with its result, and no move from it.
    positions = ask(client, variant=variant, fen=game.to_text(end)).json()["positions"]
    assert positions == [expected(game, end)] and positions[0]["result"] is not None
    after_end = ask(client, variant=variant, fen=game.to_text(end), moves=["a1a2"])
    assert_error(after_end, 409, "game.over")


def test_more_moves_than_the_limit_are_refused_by_the_service_too():
    with pytest.raises(ServiceError) as refused:
        analysis.line("dobutsu", {}, None, ["b2b3"] * (analysis.MAX_MOVES + 1))
    assert refused.value.code == "request.invalid"


def test_the_page_and_the_schema(client):
    page = client.get("/analysis")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    schema = client.get("/openapi.json").json()
    operation = schema["paths"][URL]["post"]
    assert "#/components/schemas/AnalysisOut" in str(operation["responses"]["200"])
    assert {"400", "409", "422"} <= set(operation["responses"])
