"""The solver on reduced problems (a lion each and one piece to fight over), against an
independent brute-force minimax over the engine (minimax.py): the same positions are
reachable, and every one has the same value and distance."""

from __future__ import annotations

import numpy as np
import pytest

import engine
from app.core.time import ManualClock
from app.tablebase.encoding import from_position
from app.tablebase.solve import solve
from app.tablebase.store import Value
from tests.app.tablebase import minimax
from tests.app.tablebase.positions import REDUCED

CASES = [(ruleset, start) for ruleset, starts in REDUCED.items() for start in starts]


def solver_value(stored: int) -> Value:
    return Value.of(0 if stored == 0xFFFF else stored)


@pytest.mark.parametrize(("ruleset", "start"), CASES)
def test_the_solver_agrees_with_minimax_on_a_reduced_problem(tmp_path, ruleset, start):
    game = engine.get_game("dobutsu", ruleset=ruleset)
    expected = minimax.solve(ruleset, start)
    first = from_position(game.from_text(start))
    solved = solve(np.array([first], dtype=np.uint64), ruleset, tmp_path, ManualClock(), every=True)
    solved_codes, solved_values = solved.sorted()
    # The solver keeps one entry for a position and its mirror image, seen from the side
    # to move: the engine's positions fall into exactly its entries.
    codes = {key: from_position(game.from_text(key)) for key in expected}
    assert set(codes.values()) == set(solved_codes.tolist())
    index = {code: i for i, code in enumerate(solved_codes.tolist())}
    wrong = []
    for key, value in expected.items():
        got = solver_value(int(solved_values[index[codes[key]]]))
        want = Value("draw", None) if value is None else Value(*value)
        if got != want:
            wrong.append((key, want, got))
    assert not wrong, wrong[:5]
    # Not a trivial problem: it has wins and losses, some of them long.
    assert {v[0] for v in expected.values() if v} == {"win", "loss"}
    assert max(v[1] for v in expected.values() if v) >= 13
