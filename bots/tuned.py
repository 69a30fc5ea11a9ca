"""Gorogoro's and jungle's tuned evaluations (bots/linear.py): a value per piece and square,
with the shōgi game's pieces in hand and king safety.

A piece's square is seen from its owner's side (how far it has advanced) with the files
folded, so mirror-image squares share one weight. The hand-set evaluations these start from
are bots/evaluation.py's, which the baseline levels still play.
"""

from __future__ import annotations

from typing import Any

import engine
from engine.games.jungle import RANK_OF

from .jungle import DEN_DISTANCE, JUNGLE_VALUES, JungleEvaluator
from .linear import LinearEvaluator, folded_square
from .shogi import HAND_BONUS, SHOGI_VALUES, ShogiEvaluator

# A weight each for the first, second and third piece of a kind in hand, and one for each
# piece past the third.
HAND_STEPS = 3
TEMPO = "tempo"
# Jungle's features beyond the pieces' squares, for the side to move: the most valuable piece
# (in hundreds) it can take by a step, how many it can take, the same for the other side, and
# its pieces within two steps of its own den less the other side's.
JUNGLE_EXTRAS = ("can take", "can take count", "threatened", "threatened count", "den guards")


class _SquareTables(LinearEvaluator):
    """Tables of a value per signed piece code and square, from per-class weights."""

    files: int
    ranks: int

    def square_class(self, sq: int, side: int) -> int:
        f, r = sq % self.files, sq // self.files
        if side == 1:
            f, r = self.files - 1 - f, self.ranks - 1 - r
        return folded_square(self.files, self.ranks, f, r)

    def classes(self) -> range:
        return range(self.ranks * ((self.files + 1) // 2))

    def piece_tables(self, letters: dict[int, str]) -> list[list[int]]:
        """table[signed code][square]: the weight of that piece there, negative for second's."""
        size = self.files * self.ranks
        table = [[0] * size for _ in range(2 * len(letters) + 1)]
        for code, letter in letters.items():
            for sq in range(size):
                table[code][sq] = self.weights[f"{letter}@{self.square_class(sq, 0)}"]
                table[-code][sq] = -self.weights[f"{letter}@{self.square_class(sq, 1)}"]
        return table

    def piece_features(self, pos: Any, letters: dict[int, str]) -> dict[str, float]:
        seen: dict[str, float] = {}
        sign = 1 if pos.side == 0 else -1
        for sq, p in enumerate(pos.board):
            if p:
                owner = 0 if p > 0 else 1
                name = f"{letters[abs(p)]}@{self.square_class(sq, owner)}"
                seen[name] = seen.get(name, 0) + (sign if owner == 0 else -sign)
        seen = {name: value for name, value in seen.items() if value}
        seen[TEMPO] = 1
        return seen


class GorogoroEvaluator(_SquareTables, ShogiEvaluator):
    """Pieces by square, pieces in hand (the first, second and third of a kind), king safety."""

    def __init__(self, game: engine.Game[Any], weights: dict[str, int] | None = None) -> None:
        data = game.describe()
        self.letters = {code: k["letter"] for code, k in enumerate(data["pieces"], start=1)}
        self.hand_letters: list[str] = data["hand_order"]
        # LinearEvaluator's __init__ runs ShogiEvaluator's (the next in line) before the tables.
        LinearEvaluator.__init__(self, game, weights)

    def initial(self) -> dict[str, int]:
        values = SHOGI_VALUES["gorogoro"]
        start: dict[str, int] = {}
        kinds = self.game.describe()["pieces"]
        for code, letter in self.letters.items():
            for c in self.classes():
                f, advance = c % ((self.files + 1) // 2), c // ((self.files + 1) // 2)
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
        self.table = self.piece_tables(self.letters)
        w = self.weights
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

    def _safety(self, board: Any, king: int, sign: int) -> tuple[int, int]:
        """(own pieces next to the king, enemy pieces within two squares)."""
        defenders = sum(1 for t in self.near1[king] if board[t] * sign > 0)
        attackers = sum(1 for t in self.near2[king] if board[t] * sign < 0)
        return defenders, attackers

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
        seen = self.piece_features(pos, self.letters)
        sign = 1 if pos.side == 0 else -1
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


class TunedJungleEvaluator(_SquareTables, JungleEvaluator):
    """A value per animal and square (the den bonus and the traps' weakness included)."""

    def __init__(self, game: engine.Game[Any], weights: dict[str, int] | None = None) -> None:
        data = game.describe()
        self.files, self.ranks = data["board"]["files"], data["board"]["ranks"]
        self.letters = {rank: letter for letter, rank in RANK_OF.items()}
        index = game.square_index
        size = self.files * self.ranks
        self.water = [False] * size
        for name in data["squares"]["water"]:
            self.water[index[name]] = True
        traps = [{index[name] for name in data["squares"]["traps"][side]} for side in engine.SIDES]
        # weak[side][square]: an enemy of ``side`` standing there has rank 0 (the traps rule).
        if game.options.get("traps", "any") == "opponent":
            self.weak = [[sq in traps[side] for sq in range(size)] for side in (0, 1)]
        else:
            self.weak = [[sq in traps[0] | traps[1] for sq in range(size)] for _ in (0, 1)]
        self.takes = [[d <= a and not (a == 8 and d == 1) for d in range(9)] for a in range(9)]
        self.near = [
            [
                t
                for t in range(size)
                if abs(t % self.files - sq % self.files) + abs(t // self.files - sq // self.files)
                == 1
            ]
            for sq in range(size)
        ]
        own_dens = [index[data["squares"]["dens"][side]] for side in engine.SIDES]
        # guarding[side][square]: 1 where side's piece stands within two steps of its own den.
        self.guarding = [
            [
                int(
                    0
                    < abs(sq % self.files - den % self.files)
                    + abs(sq // self.files - den // self.files)
                    <= 2
                )
                for sq in range(size)
            ]
            for den in own_dens
        ]
        super().__init__(game, weights)

    def initial(self) -> dict[str, int]:
        half = (self.files + 1) // 2
        centre = self.files // 2
        start: dict[str, int] = {}
        for rank, letter in sorted(self.letters.items()):
            for c in self.classes():
                folded, advance = c % half, c // half
                distance = (centre - folded) + (self.ranks - 1 - advance)
                start[f"{letter}@{c}"] = JUNGLE_VALUES[rank] + DEN_DISTANCE[distance]
        start.update(dict.fromkeys(JUNGLE_EXTRAS, 0))
        start[TEMPO] = 0
        return start

    def build(self) -> None:
        self.table = self.piece_tables(self.letters)
        self.w_tempo = self.weights[TEMPO]
        self.w_extras = [self.weights[name] for name in JUNGLE_EXTRAS]

    def evaluate(self, pos: Any) -> int:
        table = self.table
        board = pos.board
        score = 0
        for sq, p in enumerate(board):
            if p:
                score += table[p][sq]
        if pos.side == 1:
            score = -score
        for weight, value in zip(self.w_extras, self._extras(board, pos.side), strict=True):
            score += weight * value
        return score + self.w_tempo

    def features(self, pos: Any) -> dict[str, float]:
        seen = self.piece_features(pos, self.letters)
        extras = self._plain_extras(pos.board, pos.side)
        seen.update(dict(zip(JUNGLE_EXTRAS, extras, strict=True)))
        return {name: value for name, value in seen.items() if value}

    def _extras(self, board: Any, side: int) -> tuple[int, int, int, int, int]:
        """JUNGLE_EXTRAS for the side to move ``side``, computed fast."""
        best = [0, 0]
        taken: tuple[set[int], set[int]] = (set(), set())
        water, near, takes = self.water, self.near, self.takes
        guards = [0, 0]
        for sq, p in enumerate(board):
            if not p:
                continue
            mine = 0 if p > 0 else 1
            guards[mine] += self.guarding[mine][sq]
            rank = p if p > 0 else -p
            weak = self.weak[mine]
            for n in near[sq]:
                q = board[n]
                if not q or (q > 0) == (p > 0):
                    continue
                victim = q if q > 0 else -q
                if rank == 1:
                    can = victim == 1 or weak[n] or (victim == 8 and not water[sq])
                else:
                    can = not water[n] and (weak[n] or takes[rank][victim])
                if can:
                    taken[mine].add(n)
                    value = JUNGLE_VALUES[victim] // 100
                    best[mine] = max(best[mine], value)
        other = 1 - side
        return (
            best[side],
            len(taken[side]),
            best[other],
            len(taken[other]),
            guards[side] - guards[other],
        )

    def _plain_extras(self, board: Any, side: int) -> tuple[int, int, int, int, int]:
        """The same, the plain way: every capture by a step as the rules allow it (the lion's
        and tiger's leaps over the water are left out)."""

        def captures(by: int) -> list[int]:
            sign = 1 if by == 0 else -1
            return [
                n
                for sq, p in enumerate(board)
                if p * sign > 0
                for n in self.near[sq]
                if board[n] * sign < 0 and self._may_take(abs(p), sq, abs(board[n]), n, by)
            ]

        def best(squares: list[int]) -> int:
            return max((JUNGLE_VALUES[abs(board[n])] // 100 for n in squares), default=0)

        def guards(by: int) -> int:
            sign = 1 if by == 0 else -1
            return sum(1 for sq, p in enumerate(board) if p * sign > 0 and self.guarding[by][sq])

        own, theirs = captures(side), captures(1 - side)
        return (
            best(own),
            len(set(own)),
            best(theirs),
            len(set(theirs)),
            guards(side) - guards(1 - side),
        )

    def _may_take(self, rank: int, sq: int, victim: int, target: int, by: int) -> bool:
        if self.weak[by][target] and (rank == 1 or not self.water[target]):
            return True
        if rank == 1:
            # The rat takes the rat anywhere, the elephant from land only.
            return victim == 1 or (victim == 8 and not self.water[sq])
        return not self.water[target] and victim <= rank and not (rank == 8 and victim == 1)


__all__ = ["GorogoroEvaluator", "TunedJungleEvaluator"]
