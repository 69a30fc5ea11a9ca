"""The solver's move generator (app/tablebase/moves.py) against the engine, which decides:
for every position of random games and of the reduced problems, the same positions follow
the legal moves, and the same games are over, with the same result."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import engine
from app.tablebase import encoding, moves
from app.tablebase.encoding import from_position, key_of, keys, to_text
from tests.app.tablebase import minimax
from tests.app.tablebase.positions import REDUCED, codes_of, random_positions, without_history

RANDOM_POSITIONS = 20_000


def engine_ended(game: engine.Game[Any], pos: Any) -> int:
    """The value moves.ended should give: the result the last move made, if any."""
    if pos.win is None:
        return encoding.UNKNOWN
    if pos.win.winner is None:
        return encoding.END_DRAW
    return encoding.WIN0 if pos.win.winner == game.side_to_move(pos) else encoding.LOSS0


def assert_agree(ruleset: str, positions: list[Any]) -> None:
    game = engine.get_game("dobutsu", ruleset=ruleset)
    codes = codes_of(positions)
    parent, after = moves.successors(codes, ruleset)
    ended = moves.ended(codes, ruleset)
    assert (parent[1:] >= parent[:-1]).all()  # grouped by position
    starts = parent.searchsorted(range(len(positions) + 1))
    wrong = []
    for i, pos in enumerate(positions):
        want = sorted(from_position(game.play(pos, m)) for m in game.legal_moves(pos))
        got = sorted(after[starts[i] : starts[i + 1]].tolist())
        if want != got or int(ended[i]) != engine_ended(game, pos):
            wrong.append(game.to_text(pos))
    assert not wrong, wrong[:5]


@pytest.mark.parametrize("ruleset", encoding.RULESETS)
def test_moves_of_random_games_agree_with_the_engine(ruleset):
    assert_agree(ruleset, random_positions(ruleset, RANDOM_POSITIONS, seed=1))


@pytest.mark.parametrize("ruleset", encoding.RULESETS)
def test_moves_of_every_reduced_position_agree_with_the_engine(ruleset):
    game = engine.get_game("dobutsu", ruleset=ruleset)
    for start in REDUCED[ruleset]:
        positions = [game.from_text(key) for key in minimax.solve(ruleset, start)]
        assert_agree(ruleset, positions)


def test_a_position_reads_back_and_its_mirror_image_is_one_entry():
    game = engine.get_game("dobutsu")
    for pos in random_positions("dobutsu", 2000, seed=2):
        code = from_position(pos)
        again = game.from_text(to_text(code))
        assert from_position(again) == code
        mirrored = without_history(game, game.from_text(_mirror_text(game.to_text(pos))))
        assert from_position(mirrored) == code


def test_stored_keys_are_one_to_one():
    codes = sorted(set(codes_of(random_positions("yokai", 5000, seed=3)).tolist()))
    stored = keys(np.array(codes, dtype=np.uint64))
    assert len(set(stored.tolist())) == len(codes)
    assert [key_of(c) for c in codes[:500]] == stored[:500].tolist()


def _mirror_text(text: str) -> str:
    board, *rest = text.split(" ")
    rows = []
    for row in board.split("/"):
        cells: list[str] = []
        for ch in row:
            cells.extend(["1"] * int(ch) if ch.isdigit() else [ch])
        mirrored, run = "", 0
        for cell in reversed(cells):
            if cell == "1":
                run += 1
                continue
            mirrored += (str(run) if run else "") + cell
            run = 0
        rows.append(mirrored + (str(run) if run else ""))
    return " ".join(["/".join(rows), *rest[:2]])
