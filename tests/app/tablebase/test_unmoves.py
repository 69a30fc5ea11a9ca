"""Moves undone (kernels.unmoves) against moves made (kernels.moves, which test_moves.py
holds to the engine): every move into a position is found once, and nothing
else. Over whole reduced problems, the two lists of moves are equal; over random games'
positions, every move made from them is found undone from where it leads, and every move
undone is one that its position makes."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from app.core.time import ManualClock
from app.tablebase import moves
from app.tablebase.build import start_code
from app.tablebase.encoding import RULESETS
from app.tablebase.moves import predecessors
from app.tablebase.solve import solve
from tests.app.tablebase.positions import codes_of, random_positions

STARTS = ("1l1/3/3/1L1 f E", "1l1/3/3/1L1 f C", "l2/3/3/2L f G", "1l1/3/3/1L1 f EC")


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("start", STARTS)
def test_moves_undone_are_the_moves_made_on_a_reduced_problem(tmp_path, ruleset, start):
    first = np.array([start_code(ruleset, start)], dtype=np.uint64)
    codes, _ = solve(first, ruleset, tmp_path, ManualClock(), every=True).sorted()
    parent, after = moves.successors(codes, ruleset)
    made = Counter(zip(codes[parent].tolist(), after.tolist(), strict=True))
    child, before = predecessors(codes, ruleset)
    # Undoing moves finds positions that cannot be reached too; the reachable ones'
    # moves are exactly the moves made, as many times.
    reached = np.isin(before, codes)
    undone = Counter(zip(before[reached].tolist(), codes[child[reached]].tolist(), strict=True))
    assert undone == made
    assert len(made) > 1000


@pytest.mark.parametrize("ruleset", RULESETS)
def test_moves_of_random_games_are_found_undone(ruleset):
    codes = np.unique(codes_of(random_positions(ruleset, 3000, seed=3)))
    parent, after = moves.successors(codes, ruleset)
    targets = np.unique(after)
    child, before = predecessors(targets, ruleset)
    undone = set(zip(before.tolist(), targets[child].tolist(), strict=True))
    made = list(zip(codes[parent].tolist(), after.tolist(), strict=True))
    assert all(move in undone for move in made)
    # Each move undone is made by its position: the same move, once.
    sources = np.unique(before)
    back_parent, back_after = moves.successors(sources, ruleset)
    remade = Counter(zip(sources[back_parent].tolist(), back_after.tolist(), strict=True))
    found = Counter(zip(before.tolist(), targets[child].tolist(), strict=True))
    assert all(remade[move] == times for move, times in found.items())
    assert len(made) > 10_000
