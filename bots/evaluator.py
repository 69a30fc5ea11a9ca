"""What the search needs to know about a game beyond its rules: the base of every game's
evaluator (bots/evaluation.py has the games' own, and looks them up).

Every evaluation scores a position for its side to move (negamax convention), in centi-units
where one chick, pawn or stone is about 100.
"""

from __future__ import annotations

import abc
from collections.abc import Callable
from typing import Any

import engine

# A capture's victim value per move, for move ordering (0 = not a capture).
Victims = Callable[[Any, str], int]


class Evaluator(abc.ABC):
    """What the search needs to know about one game beyond its rules."""

    # Whether quiescence search follows the tactical moves (captures, immediate wins).
    quiescence = True
    # Whether a position seen before in the game may be scored as a draw inside the search.
    repetition_is_draw = True
    # Whether the search may prune with a null move: not where having to move can lose.
    null_move = True

    def __init__(self, game: engine.Game[Any]) -> None:
        self.game = game
        self._parsed: dict[str, tuple[int, int]] = {}

    @abc.abstractmethod
    def evaluate(self, pos: Any) -> int:
        """The position's score for the side to move (centipawn-like units)."""

    @abc.abstractmethod
    def victim(self, pos: Any, move: str) -> int:
        """The value of what ``move`` captures, 0 when it captures nothing."""

    def threatened(self, pos: Any) -> bool:
        """Whether the side to move loses next move unless a tactical move answers (jungle:
        an enemy beside its den): quiescence search must not stand pat there."""
        return False

    def tactical(self, pos: Any, move: str) -> bool:
        """Whether quiescence search should try ``move`` (a capture or an immediate win)."""
        return self.victim(pos, move) > 0

    def squares(self, move: str) -> tuple[int, int]:
        """(origin, target) squares of a move text; origin -1 for a drop or placement."""
        found = self._parsed.get(move)
        if found is None:
            index = self.game.square_index
            star = move.find("*")
            if star >= 0:
                found = (-1, index[move[star + 1 : star + 3]])
            else:
                found = (index[move[0:2]], index[move[2:4]])
            self._parsed[move] = found
        return found
