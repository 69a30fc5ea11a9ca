"""Evaluations that are a weighted sum of named features, with weights tuned from self-play.

Each tuned evaluator says two things about a position: ``features`` (what it sees, by name,
plainly computed: what bots/tune.py fits the weights to) and ``evaluate`` (the same sum,
computed fast from tables built from the weights: what the search calls). A test holds the
two equal. The weights are kept per game in bots/weights/<game>.json; a feature the file
does not name keeps its hand-set starting weight (``initial``).

Features are seen from the side to move, like every score the search uses.
"""

from __future__ import annotations

import abc
import json
from pathlib import Path
from typing import Any

import engine

from .evaluator import Evaluator

WEIGHTS = Path(__file__).resolve().parent / "weights"
TEMPO = "tempo"  # the feature every tuned evaluation has: 1 for the side to move


class LinearEvaluator(Evaluator):
    """A weighted sum of features, seen from the side to move."""

    def __init__(self, game: engine.Game[Any], weights: dict[str, int] | None = None) -> None:
        """``weights``: the tuned ones from bots/weights/ when None; ``{}`` for the start."""
        super().__init__(game)
        start = self.initial()
        self.names: tuple[str, ...] = tuple(start)
        self.index = {name: i for i, name in enumerate(self.names)}
        found = load_weights(game.id) if weights is None else weights
        unknown = set(found) - set(start)
        if unknown:
            raise ValueError(f"{game.id}: weights for unknown features {sorted(unknown)}")
        self.weights: dict[str, int] = {**start, **found}
        self.build()

    @abc.abstractmethod
    def initial(self) -> dict[str, int]:
        """Every feature's name and hand-set weight, in a fixed order."""

    @abc.abstractmethod
    def build(self) -> None:
        """Make the fast evaluation's tables from ``self.weights``."""

    @abc.abstractmethod
    def features(self, pos: Any) -> dict[str, float]:
        """The position's non-zero features by name, from the side to move's view."""

    def weighted(self, pos: Any) -> float:
        """The sum ``evaluate`` computes, from ``features``: the tuning's view of it."""
        return sum(self.weights[name] * value for name, value in self.features(pos).items())


def load_weights(game_id: str) -> dict[str, int]:
    """The tuned weights of a game, by feature name (FileNotFoundError if it has none: a
    tuned evaluator never falls back to its starting weights unnoticed)."""
    path = WEIGHTS / f"{game_id}.json"
    data = json.loads(path.read_text())
    return {name: int(value) for name, value in data["weights"].items()}
