"""Gorogoro's tuned evaluation (bots/linear.py): a value per piece and square, pieces in
hand and king safety.

A piece's square is seen from its owner's side (how far it has advanced) with the files
folded, so mirror-image squares share one weight. The hand-set evaluation it starts from is
bots/shogi.py's, which dōbutsu and the baseline levels still play.
"""

from __future__ import annotations

from typing import Any

import engine

from .linear import TEMPO, LinearEvaluator
from .shogi import HAND_BONUS, SHOGI_VALUES, ShogiEvaluator

# A weight each for the first, second and third piece of a kind in hand, and one for each
# piece past the third.
HAND_STEPS = 3


class GorogoroEvaluator(LinearEvaluator, ShogiEvaluator):
    """Pieces by square, pieces in hand (the first, second and third of a kind), king safety."""

    def __init__(self, game: engine.Game[Any], weights: dict[str, int] | None = None) -> None:
        data = game.describe()
        self.letters = {code: k["letter"] for code, k in enumerate(data["pieces"], start=1)}
        self.hand_letters: list[str] = data["hand_order"]
        # LinearEvaluator's __init__ runs ShogiEvaluator's (the next in line) before the tables.
        super().__init__(game, weights)

    def square_class(self, sq: int, side: int) -> int:
        """A square seen from ``side``'s pieces: how far they have advanced, files folded onto
        the left half (the board is symmetric left to right)."""
        f, r = sq % self.files, sq // self.files
        if side == 1:
            f, r = self.files - 1 - f, self.ranks - 1 - r
        half = (self.files + 1) // 2
        return r * half + min(f, self.files - 1 - f)

    def initial(self) -> dict[str, int]:
        values = SHOGI_VALUES["gorogoro"]
        start: dict[str, int] = {}
        kinds = self.game.describe()["pieces"]
        half = (self.files + 1) // 2
        for code, letter in self.letters.items():
            for c in range(self.ranks * half):
                f, advance = c % half, c // half
                start[f"{letter}@{c}"] = values[letter] + self._placement(
                    kinds[code - 1], f, advance
                )
        for letter in self.hand_letters:
            for n in [*range(1, HAND_STEPS + 1), "more"]:
                start[f"hand {letter} {n}"] = round(values[letter] * HAND_BONUS)
        start.update(
            {"king defenders": 12, "king attackers": -12, "king attackers x enemy hand": -4}
        )
        start[TEMPO] = 0
        return start

    def build(self) -> None:
        w = self.weights
        # table[signed code][square]: the weight of that piece there, negative for second's.
        size = self.files * self.ranks
        self.table = [[0] * size for _ in range(2 * len(self.letters) + 1)]
        for code, letter in self.letters.items():
            for sq in range(size):
                self.table[code][sq] = w[f"{letter}@{self.square_class(sq, 0)}"]
                self.table[-code][sq] = -w[f"{letter}@{self.square_class(sq, 1)}"]
        # hand_table[kind][count]: the weight of that many pieces of the kind in hand.
        self.hand_table = [
            [
                sum(w[f"hand {letter} {n}"] for n in range(1, min(count, HAND_STEPS) + 1))
                + w[f"hand {letter} more"] * max(count - HAND_STEPS, 0)
                for count in range(41)
            ]
            for letter in self.hand_letters
        ]
        self.w_defenders = w["king defenders"]
        self.w_attackers = w["king attackers"]
        self.w_attack_hand = w["king attackers x enemy hand"]
        self.w_tempo = w[TEMPO]

    def _kings(self, board: Any) -> tuple[int, int]:
        royal = self.royal
        return board.index(royal), board.index(-royal)

    def evaluate(self, pos: Any) -> int:
        board = pos.board
        table = self.table
        score = 0
        for sq, p in enumerate(board):
            if p:
                score += table[p][sq]
        hands: tuple[int, ...] = pos.hands
        n = self.hand_count
        for i, values in enumerate(self.hand_table):
            score += values[hands[i]] - values[hands[n + i]]
        k0, k1 = self._kings(board)
        d0, a0 = self._safety(board, k0, 1)
        d1, a1 = self._safety(board, k1, -1)
        score += (
            self.w_defenders * (d0 - d1)
            + self.w_attackers * (a0 - a1)
            + self.w_attack_hand * (a0 * sum(hands[n:]) - a1 * sum(hands[:n]))
        )
        return (score if pos.side == 0 else -score) + self.w_tempo

    def features(self, pos: Any) -> dict[str, float]:
        sign = 1 if pos.side == 0 else -1
        seen: dict[str, float] = {}
        for sq, p in enumerate(pos.board):
            if p:
                owner = 0 if p > 0 else 1
                name = f"{self.letters[abs(p)]}@{self.square_class(sq, owner)}"
                seen[name] = seen.get(name, 0) + (sign if owner == 0 else -sign)
        seen = {name: value for name, value in seen.items() if value}
        seen[TEMPO] = 1
        hands = pos.hands
        n = self.hand_count
        for i, letter in enumerate(self.hand_letters):
            for k in range(1, HAND_STEPS + 1):
                value = (hands[i] >= k) - (hands[n + i] >= k)
                if value:
                    seen[f"hand {letter} {k}"] = sign * value
            more = max(hands[i] - HAND_STEPS, 0) - max(hands[n + i] - HAND_STEPS, 0)
            if more:
                seen[f"hand {letter} more"] = sign * more
        board = pos.board
        k0, k1 = self._kings(board)
        d0, a0 = self._safety(board, k0, 1)
        d1, a1 = self._safety(board, k1, -1)
        for name, value in (
            ("king defenders", d0 - d1),
            ("king attackers", a0 - a1),
            ("king attackers x enemy hand", a0 * sum(hands[n:]) - a1 * sum(hands[:n])),
        ):
            if value:
                seen[name] = sign * value
        return seen


__all__ = ["GorogoroEvaluator"]
