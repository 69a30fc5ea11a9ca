"""The puzzle generator on a reduced problem (a lion each and a chick), against an
independent oracle: brute-force minimax over the engine alone (tests/app/tablebase/
minimax.py). Every position of the problem is a puzzle exactly when the definition says
(docs/decisions/puzzles.md), with the oracle's line; and the generated set holds only such
positions. The data file reads back what was written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import engine
from app.puzzles import data
from app.puzzles.generate import MAX_PLIES, Solver, generate, puzzle_id, write
from tests.app.tablebase.minimax import Value, solve
from tests.app.tablebase.test_table import reduced_table

START = "1l1/3/3/1L1 f C"


@pytest.fixture(scope="module")
def oracle() -> dict[str, Value]:
    return solve("dobutsu", START)


@pytest.fixture(scope="module")
def solver(tmp_path_factory: pytest.TempPathFactory) -> Solver:
    return Solver(reduced_table(tmp_path_factory.mktemp("tables"), "dobutsu", START))


def key(game: engine.Game[Any], pos: Any) -> str:
    return " ".join(game.to_text(pos).split(" ")[:3])


def oracle_line(game: engine.Game[Any], values: dict[str, Value], pos: Any) -> list[str] | None:
    """The definition, read off minimax's values: the solver wins within 15 plies, exactly
    one move keeps the win, then at each of its turns exactly one move keeps the fastest
    win; the opponent defends with the slowest loss (of equals, the first move text)."""
    value = values[key(game, pos)]
    if value is None or value[0] != "win" or value[1] > MAX_PLIES:
        return None
    line: list[str] = []
    plies = value[1]
    while True:
        after = {m: values[key(game, game.play(pos, m))] for m in game.legal_moves(pos)}
        winning = [m for m, v in after.items() if v is not None and v[0] == "loss"]
        if not line and len(winning) != 1:
            return None
        fastest = [m for m in winning if after[m] == ("loss", plies - 1)]
        if len(fastest) != 1:
            return None
        line.append(fastest[0])
        pos = game.play(pos, fastest[0])
        if game.result(pos) is not None:
            return line
        replies = {m: values[key(game, game.play(pos, m))] for m in game.legal_moves(pos)}
        slowest = max(v[1] for v in replies.values() if v is not None)
        reply = min(m for m, v in replies.items() if v is not None and v[1] == slowest)
        line.append(reply)
        pos = game.play(pos, reply)
        plies = slowest


def test_a_position_is_a_puzzle_exactly_when_the_definition_says(solver, oracle):
    game = solver.game
    puzzles = rejected = 0
    for text, value in oracle.items():
        pos = game.from_text(text)
        if game.result(pos) is not None:
            continue
        expected = oracle_line(game, oracle, pos)
        assert solver.line(pos) == expected, text
        if expected is not None:
            puzzles += 1
        elif value is not None and value[0] == "win" and value[1] <= MAX_PLIES:
            rejected += 1  # a win, but with two winning moves somewhere on its way
    # Both kinds are there: the check compares something.
    assert puzzles > 20 and rejected > 20


def test_the_generated_puzzles_are_the_definitions_and_each_replays(solver, oracle):
    puzzles = generate(solver.table, 5, seed=1, start=START, max_positions=500, log=lambda _: None)
    assert len(puzzles) >= 10
    assert len({p["id"] for p in puzzles}) == len(puzzles)
    game = solver.game
    for puzzle in puzzles:
        pos = game.from_text(START)
        for move in puzzle["moves"]:
            pos = game.play(pos, move)
        assert game.to_text(pos).startswith(puzzle["fen"].split(" ")[0])
        bare = game.from_text(key(game, pos))
        assert oracle_line(game, oracle, bare) == puzzle["solution"]
        assert puzzle["plies"] == len(puzzle["solution"]) == oracle[key(game, bare)][1]
        assert puzzle["id"] == puzzle_id([*puzzle["moves"], "|", *puzzle["solution"]])
        assert puzzle["themes"][0] in ("oneMove", "short", "long", "veryLong")


def test_the_data_file_reads_back_what_was_written(solver, tmp_path: Path):
    puzzles = generate(solver.table, 2, seed=2, start=START, max_positions=200, log=lambda _: None)
    write(tmp_path / "set.jsonl.gz", puzzles)
    assert list(data.read(tmp_path / "set.jsonl.gz")) == puzzles
    # The same set, the same bytes, whatever the file's name and whenever it is written.
    write(tmp_path / "other.jsonl.gz", puzzles)
    assert (tmp_path / "other.jsonl.gz").read_bytes() == (tmp_path / "set.jsonl.gz").read_bytes()


def test_a_finished_games_puzzle_names_the_game_and_comes_first(solver, oracle):
    game = solver.game
    # A game of the reduced problem whose position after two moves is a puzzle.
    pos = game.from_text(START)
    moves: list[str] = []
    for first in game.legal_moves(pos):
        after = game.play(pos, first)
        for reply in game.legal_moves(after):
            there = game.play(after, reply)
            if game.result(there) is None and oracle_line(game, oracle, there):
                moves = [first, reply]
                break
        if moves:
            break
    assert moves
    puzzles = generate(
        solver.table, 5, games=[("game1234", moves)], start=START, max_positions=0, log=print
    )
    from_game = [p for p in puzzles if p["source"] == "game"]
    assert [p["game_id"] for p in from_game] == ["game1234"]
    assert from_game[0]["moves"] == moves
