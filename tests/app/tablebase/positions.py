"""Positions for the tablebase's tests: random games' positions and reduced problems."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

import engine
from app.tablebase.encoding import from_position

# Small problems (a lion each and one piece), each solved whole in seconds by minimax.py.
REDUCED = {
    "dobutsu": ("1l1/3/3/1L1 f E", "1l1/3/3/1L1 f C", "l2/3/3/2L f G"),
    "yokai": ("1l1/3/3/1L1 f E", "1l1/3/3/1L1 f C"),
}


def without_history(game: engine.Game[Any], pos: Any) -> Any:
    return game.from_text(" ".join(game.to_text(pos).split(" ")[: game.TEXT_FIELDS]))


def random_positions(ruleset: str, count: int, seed: int = 0) -> list[Any]:
    """``count`` positions of random games from the start (their ends included)."""
    game = engine.get_game("dobutsu", ruleset=ruleset)
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        pos = game.start()
        while len(found) < count:
            found.append(pos)
            moves = game.legal_moves(pos)
            if not moves:
                break
            pos = without_history(game, game.play(pos, rng.choice(moves)))
    return found


def codes_of(positions: list[Any]) -> np.ndarray[Any, Any]:
    return np.array([from_position(p) for p in positions], dtype=np.uint64)
