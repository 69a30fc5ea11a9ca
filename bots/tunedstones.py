"""Yoté's and wali's tuned evaluations (bots/linear.py): the stone count, what each side
threatens to take, room to move and where the stones stand, with weights from self-play.

The hand-set evaluations these start from are bots/stones.py's, which the baseline levels
still play. Stones have no direction, so a square's class folds the board both ways.
"""

from __future__ import annotations

from typing import Any

import engine
from engine.games.placement import STONES as EACH
from engine.games.wali import Wali

from .linear import TEMPO, LinearEvaluator
from .stones import STONE_VALUE, WaliEvaluator, YoteEvaluator

STONES = 2 * EACH  # both sides' stones at the start


def stone_classes(files: int, ranks: int) -> list[int]:
    """Each square's class: the board folded left to right and front to back."""
    half = (files + 1) // 2
    return [
        min(sq // files, ranks - 1 - sq // files) * half + min(sq % files, files - 1 - sq % files)
        for sq in range(files * ranks)
    ]


class _StoneSquares(LinearEvaluator):
    def __init__(self, game: engine.Game[Any], weights: dict[str, int] | None = None) -> None:
        board = game.describe()["board"]
        self.square_class = stone_classes(board["files"], board["ranks"])
        super().__init__(game, weights)

    def class_count(self) -> int:
        return max(self.square_class) + 1

    def square_weights(self, prefix: str) -> list[int]:
        return [self.weights[f"{prefix}stone@{c}"] for c in self.square_class]

    def stone_features(self, pos: Any, prefix: str, seen: dict[str, float]) -> None:
        stm = 1 if pos.side == 0 else -1
        for sq, v in enumerate(pos.board):
            if v:
                name = f"{prefix}stone@{self.square_class[sq]}"
                seen[name] = seen.get(name, 0) + v * stm


class TunedYoteEvaluator(_StoneSquares, YoteEvaluator):
    """Stones, jumps threatened both ways, stones in hand and squares, fading as the
    no-progress draw nears."""

    def initial(self) -> dict[str, int]:
        start = {
            "stones": STONE_VALUE,
            "in hand": 4,
            "can jump": 100,
            "can jump, more than one left": 70,
            "can jump two": 0,
            "threatened": -70,
            "threatened two": -70,
            "stones x taken": 0,
        }
        start.update({f"stone@{c}": 0 for c in range(self.class_count())})
        start[TEMPO] = 0
        return start

    def build(self) -> None:
        self.w = dict(self.weights)
        self.place = self.square_weights("")

    def _counts(self, pos: Any) -> tuple[int, int, int, int]:
        """(own stones, the opponent's, jumps the side to move has, jumps against it)."""
        board = pos.board
        stm = 1 if pos.side == 0 else -1
        own = board.count(stm) + pos.hands[pos.side]
        opp = board.count(-stm) + pos.hands[1 - pos.side]
        by_first, by_second = self._threatened(board)
        mine, theirs = (by_first, by_second) if stm > 0 else (by_second, by_first)
        return own, opp, mine, theirs

    def _linear(self, pos: Any, own: int, opp: int, mine: int, theirs: int) -> int:
        w = self.w
        hands: tuple[int, int] = pos.hands
        score: int = (
            w["stones"] * (own - opp)
            + w["in hand"] * (hands[pos.side] - hands[1 - pos.side])
            + w["stones x taken"] * (own - opp) * (STONES - own - opp)
            + w[TEMPO]
        )
        if mine:
            score += w["can jump"]
            if opp > 1:
                score += w["can jump, more than one left"]
            if mine > 1:
                score += w["can jump two"]
        if theirs:
            score += w["threatened"]
            if theirs > 1:
                score += w["threatened two"]
        return score

    def evaluate(self, pos: Any) -> int:
        own, opp, mine, theirs = self._counts(pos)
        score = self._linear(pos, own, opp, mine, theirs)
        place = self.place
        squares = 0
        for sq, v in enumerate(pos.board):
            if v:
                squares += place[sq] * v
        score += squares if pos.side == 0 else -squares
        quiet: int = pos.quiet
        return score * (4 * self.limit - 3 * quiet) // (4 * self.limit)

    def features(self, pos: Any) -> dict[str, float]:
        own, opp, mine, theirs = self._counts(pos)
        hands = pos.hands
        seen: dict[str, float] = {
            "stones": own - opp,
            "in hand": hands[pos.side] - hands[1 - pos.side],
            "stones x taken": (own - opp) * (STONES - own - opp),
            "can jump": mine > 0,
            "can jump, more than one left": mine > 0 and opp > 1,
            "can jump two": mine > 1,
            "threatened": theirs > 0,
            "threatened two": theirs > 1,
            TEMPO: 1,
        }
        self.stone_features(pos, "", seen)
        fade = (4 * self.limit - 3 * pos.quiet) / (4 * self.limit)
        return {name: float(v) * fade for name, v in seen.items() if v}


class TunedWaliEvaluator(_StoneSquares, WaliEvaluator):
    """Placement: lines a step would complete, open pairs, room to move, squares. Moving:
    stones, lines ready to take both ways, room to move, squares."""

    def initial(self) -> dict[str, int]:
        start = {
            "place ready": 30,
            "place ready against": -30,
            "place twos": 10,
            "place mobility": 4,
            "place " + TEMPO: 0,
        }
        start.update({f"place stone@{c}": 0 for c in range(self.class_count())})
        start.update(
            {
                "stones": STONE_VALUE,
                "ready": 150,
                "ready count": 25,
                "ready against": -45,
                "ready against any": 0,
                "ready against, unblockable": 0,
                "ready, unblockable": 0,
                "open lines": 0,
                "open lines against": 0,
                "mobility": 8,
                "stones x taken": 0,
                TEMPO: 0,
            }
        )
        start.update({f"stone@{c}": 0 for c in range(self.class_count())})
        return start

    def build(self) -> None:
        assert isinstance(self.game, Wali)
        self.triples: tuple[tuple[int, int, int], ...] = self.game.triples
        self.w = dict(self.weights)
        self.place_squares = self.square_weights("place ")
        self.move_squares = self.square_weights("")

    def _threats(self, board: Any) -> tuple[int, int, int, int]:
        """Empty squares where one step of a first stone would complete a line, the same for
        second, and of each, those no enemy stone stands next to (to step in first)."""
        first = second = free_first = free_second = 0
        neighbours = self.neighbours
        for sq, found in self._ready_at(board):
            near = [board[n] for n in neighbours[sq]]
            if found & 1:
                first += 1
                free_first += -1 not in near
            if found & 2:
                second += 1
                free_second += 1 not in near
        return first, second, free_first, free_second

    def _unhindered(self, board: Any) -> tuple[int, int]:
        """``_threats``'s last two counts, the plain way: squares where a stone of each side
        steps in to complete a line of three, no enemy stone next to them."""

        def completes(sq: int, stone: int) -> bool:
            return any(
                board[a] == board[b] == stone
                and any(board[n] == stone and n not in (a, b) for n in self.neighbours[sq])
                for a, b in self.triples_at[sq]
            )

        empty = [sq for sq, v in enumerate(board) if not v]
        return tuple(  # type: ignore[return-value]
            sum(
                completes(sq, stone) and all(board[n] != -stone for n in self.neighbours[sq])
                for sq in empty
            )
            for stone in (1, -1)
        )

    def _open_lines(self, board: Any) -> tuple[int, int]:
        """Lines of three standing that one of their stones can step out of (and back into,
        to take again): (first's, second's)."""
        counts = [0, 0]
        neighbours = self.neighbours
        for a, b, c in self.triples:
            stone = board[a]
            if (
                stone
                and stone == board[b] == board[c]
                and any(not board[n] for sq in (a, b, c) for n in neighbours[sq])
            ):
                counts[stone < 0] += 1
        return counts[0], counts[1]

    def _scan(self, board: Any, squares: list[int]) -> tuple[int, int]:
        """(steps first could make less second's, the squares' weights for first's view)."""
        steps = placed = 0
        neighbours = self.neighbours
        for sq, v in enumerate(board):
            if v:
                placed += squares[sq] * v
            else:
                for n in neighbours[sq]:
                    steps += board[n]
        return steps, placed

    def evaluate(self, pos: Any) -> int:
        board: tuple[int, ...] = pos.board
        stm = 1 if pos.side == 0 else -1
        first, second, free_first, free_second = self._threats(board)
        mine, theirs = (first, second) if stm > 0 else (second, first)
        w = self.w
        if any(pos.hands):
            steps, placed = self._scan(board, self.place_squares)
            twos = self._open_twos(board, stm) - self._open_twos(board, -stm)
            return (
                w["place ready"] * mine
                + w["place ready against"] * theirs
                + w["place twos"] * twos
                + stm * (w["place mobility"] * steps + placed)
                + w["place " + TEMPO]
            )
        steps, placed = self._scan(board, self.move_squares)
        own, opp = board.count(stm), board.count(-stm)
        free = (free_first, free_second)
        lines = self._open_lines(board)
        score = (
            w["stones"] * (own - opp)
            + w["stones x taken"] * (own - opp) * (STONES - own - opp)
            + w["ready count"] * mine
            + w["ready against"] * theirs
            + w["ready, unblockable"] * free[stm < 0]
            + w["ready against, unblockable"] * free[stm > 0]
            + w["open lines"] * lines[stm < 0]
            + w["open lines against"] * lines[stm > 0]
            + stm * (w["mobility"] * steps + placed)
            + w[TEMPO]
        )
        if mine:
            score += w["ready"]
        if theirs:
            score += w["ready against any"]
        return score

    def features(self, pos: Any) -> dict[str, float]:
        board = pos.board
        stm = 1 if pos.side == 0 else -1
        first, second = self._ready(board)
        mine, theirs = (first, second) if stm > 0 else (second, first)
        seen: dict[str, float]
        if any(pos.hands):
            seen = {
                "place ready": mine,
                "place ready against": theirs,
                "place twos": self._open_twos(board, stm) - self._open_twos(board, -stm),
                "place mobility": self._mobility(board, stm),
                "place " + TEMPO: 1,
            }
            self.stone_features(pos, "place ", seen)
        else:
            own, opp = board.count(stm), board.count(-stm)
            free = self._unhindered(board)
            lines = self._open_lines(board)
            seen = {
                "ready, unblockable": free[stm < 0],
                "ready against, unblockable": free[stm > 0],
                "open lines": lines[stm < 0],
                "open lines against": lines[stm > 0],
                "stones": own - opp,
                "stones x taken": (own - opp) * (STONES - own - opp),
                "ready": mine > 0,
                "ready count": mine,
                "ready against": theirs,
                "ready against any": theirs > 0,
                "mobility": self._mobility(board, stm),
                TEMPO: 1,
            }
            self.stone_features(pos, "", seen)
        return {name: float(v) for name, v in seen.items() if v}
