"""The shōgi games' hand-set evaluation: material (pieces in hand worth a little more),
where each piece stands, and in gorogoro the king's safety. Dōbutsu plays it; in gorogoro
it is the baseline levels' (the hard level plays bots/tuned.py's).
"""

from __future__ import annotations

from typing import Any

import engine

from .evaluator import Evaluator

# Piece values by letter; hand pieces are worth a little more (a drop goes anywhere).
SHOGI_VALUES = {
    "dobutsu": {"L": 0, "E": 300, "G": 400, "C": 100, "H": 450},
    "gorogoro": {"K": 0, "G": 550, "S": 450, "P": 100, "+S": 520, "+P": 540},
}
HAND_BONUS = 1.15


class ShogiEvaluator(Evaluator):
    def __init__(self, game: engine.Game[Any]) -> None:
        super().__init__(game)
        data = game.describe()
        values = SHOGI_VALUES[game.id]
        kinds = data["pieces"]
        files: int = data["board"]["files"]
        ranks: int = data["board"]["ranks"]
        self.files, self.ranks = files, ranks
        size = files * ranks
        count = len(kinds)
        # value[code] for signed codes (python's negative indexing reads second's pieces).
        self.value = [0] * (2 * count + 1)
        for code, kind in enumerate(kinds, start=1):
            self.value[code] = self.value[-code] = values[kind["letter"]]
        self.royal = next(c for c, k in enumerate(kinds, start=1) if k["royal"])
        self.hand_values = [round(values[letter] * HAND_BONUS) for letter in data["hand_order"]]
        self.hand_count = len(self.hand_values)
        self.drops = {letter: values[letter] for letter in data["hand_order"]}
        zones = data["squares"]["promotion_zone"]
        self.zone = tuple(
            frozenset(game.square_index[name] for name in zones[side]) for side in engine.SIDES
        )
        # Positional bonus per signed code and square, for first (+) and second (-) pieces.
        self.place: list[list[int]] = [[0] * size for _ in range(2 * count + 1)]
        for code, kind in enumerate(kinds, start=1):
            for sq in range(size):
                rank = sq // files
                for sign, advance in ((1, rank), (-1, ranks - 1 - rank)):
                    self.place[sign * code][sq] = self._placement(kind, sq % files, advance)
        self.dobutsu = game.id == "dobutsu"
        self.try_rule = data["rule_flags"]["try_rule"]
        # King neighbourhoods (Chebyshev distance 1 and 2) for gorogoro's king safety.
        self.near1 = [self._ring(sq, 1) for sq in range(size)]
        self.near2 = [self._ring(sq, 2) for sq in range(size)]

    def _placement(self, kind: dict[str, Any], file: int, advance: int) -> int:
        letter: str = kind["letter"]
        centre = -abs(2 * file - (self.files - 1))  # 0 in the centre file, negative out
        if kind["royal"]:
            # Dobutsu's lion aims for the try; gorogoro's king stays home.
            return 25 * advance if self.files == 3 else -15 * advance
        if letter in ("C", "P"):
            return 8 * advance
        return 3 * centre + 4 * min(advance, 3)

    def _ring(self, sq: int, distance: int) -> tuple[int, ...]:
        f, r = sq % self.files, sq // self.files
        return tuple(
            t
            for t in range(self.files * self.ranks)
            if t != sq and max(abs(t % self.files - f), abs(t // self.files - r)) <= distance
        )

    def evaluate(self, pos: Any) -> int:
        board = pos.board
        value = self.value
        place = self.place
        score = 0
        kings = [0, 0]
        royal = self.royal
        for sq, p in enumerate(board):
            if p > 0:
                score += value[p] + place[p][sq]
                if p == royal:
                    kings[0] = sq
            elif p < 0:
                score -= value[p] + place[p][sq]
                if p == -royal:
                    kings[1] = sq
        hands = pos.hands
        n = self.hand_count
        for i, v in enumerate(self.hand_values):
            score += v * (hands[i] - hands[n + i])
        if not self.dobutsu:
            score += self._king_safety(board, kings[0], 1, hands[n:]) - self._king_safety(
                board, kings[1], -1, hands[:n]
            )
        return score if pos.side == 0 else -score

    def _king_safety(
        self, board: tuple[int, ...], king: int, sign: int, enemy_hand: tuple[int, ...]
    ) -> int:
        """Defenders next to the king, attackers close to it (more dangerous with drops)."""
        defenders, attackers = self._safety(board, king, sign)
        return 12 * defenders - attackers * (12 + 4 * sum(enemy_hand))

    def _safety(self, board: Any, king: int, sign: int) -> tuple[int, int]:
        """(own pieces next to the king, enemy pieces within two squares of it)."""
        defenders = sum(1 for t in self.near1[king] if board[t] * sign > 0)
        attackers = sum(1 for t in self.near2[king] if board[t] * sign < 0)
        return defenders, attackers

    def victim(self, pos: Any, move: str) -> int:
        if "*" in move:
            return 0
        _, to = self.squares(move)
        board: tuple[int, ...] = pos.board
        return self.value[board[to]]

    def tactical(self, pos: Any, move: str) -> bool:
        if "*" in move:
            return False
        origin, to = self.squares(move)
        board = pos.board
        if board[to]:
            return True
        if move.endswith("+"):
            return True
        # A royal's move onto its promotion zone is a try (dobutsu's default rule).
        return (
            self.try_rule != "none"
            and abs(board[origin]) == self.royal
            and to in self.zone[pos.side]
        )
