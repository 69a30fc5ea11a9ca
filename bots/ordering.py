"""The order in which the search tries a node's moves: best first makes the cut-offs early.

The transposition table's move first, then captures by the value taken, then the two
killer moves of the ply (quiet moves that cut off elsewhere at the same depth of the tree),
then the rest by their history (how often and how deep each quiet move has cut off).
"""

from __future__ import annotations

from typing import Any

from .evaluator import Evaluator


class MoveOrder:
    def __init__(self) -> None:
        self.history: dict[str, int] = {}
        self.killers: list[list[str]] = []

    def new_search(self, plies: int) -> None:
        """Forget the killers (they belong to one search's tree); the history stays."""
        self.killers = [[] for _ in range(plies)]

    def ordered(
        self, moves: list[str], ev: Evaluator, pos: Any, table_move: str | None, ply: int
    ) -> list[str]:
        killers = self.killers[ply] if ply < len(self.killers) else []
        history = self.history
        keyed = []
        for move in moves:
            if move == table_move:
                key = 1 << 40
            else:
                victim = ev.victim(pos, move)
                if victim:
                    key = (1 << 30) + victim
                elif move in killers:
                    key = 1 << 29
                else:
                    key = history.get(move, 0)
            keyed.append((key, move))
        keyed.sort(reverse=True)
        return [move for _, move in keyed]

    def cutoff(self, ev: Evaluator, pos: Any, move: str, depth: int, ply: int) -> None:
        """``move`` cut off at ``ply``, ``depth`` plies from the horizon."""
        if ev.victim(pos, move):
            return  # captures are ordered first anyway
        if ply < len(self.killers):
            killers = self.killers[ply]
            if move not in killers:
                killers.insert(0, move)
                del killers[2:]
        self.history[move] = min(self.history.get(move, 0) + depth * depth, 1 << 28)
