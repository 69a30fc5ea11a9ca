"""Yoté's and wali's evaluations: stones are all alike, so what counts is how many and what
they threaten."""

from __future__ import annotations

from typing import Any

import engine
from engine.games.placement import StoneGame
from engine.games.wali import Wali

from .evaluator import Evaluator

STONE_VALUE = 100


class StoneEvaluator(Evaluator):
    """Yote and wali: stones are all alike, so what counts is how many and what they threaten."""

    quiescence = False  # a capture's removal choices make one move per enemy stone
    null_move = False  # placing and stepping are often forced: passing would mislead

    def __init__(self, game: engine.Game[Any]) -> None:
        super().__init__(game)
        assert isinstance(game, StoneGame)
        self.neighbours: tuple[tuple[int, ...], ...] = game.neighbours
        self.jumps: tuple[tuple[tuple[int, int], ...], ...] = game.jumps
        self._victims: dict[str, int] = {}

    def victim(self, pos: Any, move: str) -> int:
        # The move's text alone says what it takes: kept by text (ordering asks for every
        # move of every node).
        found = self._victims.get(move)
        if found is None:
            found = self._victims[move] = self._victim(move)
        return found

    def _victim(self, move: str) -> int:
        if "x" in move:
            return STONE_VALUE * 2
        origin, to = self.squares(move)
        # A yote jump moves two squares; wali steps never capture without the "x".
        if origin >= 0 and to not in self.neighbours[origin]:
            return STONE_VALUE
        return 0


class YoteEvaluator(StoneEvaluator):
    def __init__(self, game: engine.Game[Any]) -> None:
        super().__init__(game)
        self.limit: int = game.NO_PROGRESS_LIMIT

    def evaluate(self, pos: Any) -> int:
        board: tuple[int, ...] = pos.board
        stm = 1 if pos.side == 0 else -1
        hands: tuple[int, int] = pos.hands
        own = board.count(stm) + hands[pos.side]
        opp = board.count(-stm) + hands[1 - pos.side]
        score = STONE_VALUE * (own - opp)
        # Enemy stones the side to move could jump now, and its own the other side could.
        by_first, by_second = self._threatened(board)
        mine, theirs = (by_first, by_second) if stm > 0 else (by_second, by_first)
        if mine:
            score += 170 if opp > 1 else 100
        score -= 70 * min(theirs, 2)
        # Stones in hand cannot be captured, and they capture nothing either: a small premium.
        score += 4 * (hands[pos.side] - hands[1 - pos.side])
        # An advantage fades as the no-progress draw nears: the side ahead must capture or
        # place to keep it, rather than step back and forth.
        quiet: int = pos.quiet
        return score * (4 * self.limit - 3 * quiet) // (4 * self.limit)

    def _threatened(self, board: Any) -> tuple[int, int]:
        """How many second stones first could jump if it were to move, and how many first
        stones second could."""
        jumps = self.jumps
        by_first: set[int] = set()
        by_second: set[int] = set()
        for sq, v in enumerate(board):
            if v:
                hit = by_first if v > 0 else by_second
                for over, land in jumps[sq]:
                    if board[over] == -v and not board[land]:
                        hit.add(over)
        return len(by_first), len(by_second)


class WaliEvaluator(StoneEvaluator):
    def __init__(self, game: engine.Game[Any]) -> None:
        super().__init__(game)
        assert isinstance(game, Wali)
        self.triples_at: tuple[tuple[tuple[int, int], ...], ...] = game.triples_at
        # Per square: each line of three through it (the two other squares), and the square's
        # neighbours outside that line (where the stone that would step in stands).
        self._lines = tuple(
            tuple(
                (a, b, tuple(n for n in self.neighbours[sq] if n not in (a, b)))
                for a, b in self.triples_at[sq]
            )
            for sq in range(len(self.neighbours))
        )

    def evaluate(self, pos: Any) -> int:
        board: tuple[int, ...] = pos.board
        stm = 1 if pos.side == 0 else -1
        first, second = self._ready(board)
        mine, theirs = (first, second) if stm > 0 else (second, first)
        mobility = self._mobility(board, stm)
        if any(pos.hands):
            # Placement: build pairs that a later step completes, squares a step fills to
            # make a line, and room to move (a side with no step loses).
            twos = self._open_twos(board, stm) - self._open_twos(board, -stm)
            return 30 * (mine - theirs) + 10 * twos + 4 * mobility
        score = STONE_VALUE * (board.count(stm) - board.count(-stm))
        if mine:
            score += 150
        return score + 25 * mine - 45 * theirs + 8 * mobility

    def _mobility(self, board: Any, stone: int) -> int:
        """Steps ``stone`` could make, less the other side's."""
        count = 0
        neighbours = self.neighbours
        for sq, v in enumerate(board):
            if v == 0:
                for n in neighbours[sq]:
                    count += board[n]
        return count * stone

    def _open_twos(self, board: Any, stone: int) -> int:
        """Empty squares that would complete a line of three ``stone`` stones."""
        count = 0
        for sq, v in enumerate(board):
            if v == 0:
                for a, b in self.triples_at[sq]:
                    if board[a] == stone and board[b] == stone:
                        count += 1
                        break
        return count

    def _ready(self, board: Any) -> tuple[int, int]:
        """Empty squares where one step of a first (+1) stone, and of a second (-1) one,
        would complete a line of three: the two counts."""
        first = second = 0
        for _, found in self._ready_at(board):
            first += found & 1
            second += found >> 1
        return first, second

    def _ready_at(self, board: Any) -> list[tuple[int, int]]:
        """Each empty square where a step would complete a line, with who could make it:
        bit 1 a first stone, bit 2 a second one."""
        ready = []
        for sq, v in enumerate(board):
            if v:
                continue
            found = 0
            for a, b, others in self._lines[sq]:
                stone = board[a]
                if stone and stone == board[b] and not found & (1 if stone > 0 else 2):
                    for n in others:
                        if board[n] == stone:
                            found |= 1 if stone > 0 else 2
                            break
            if found:
                ready.append((sq, found))
        return ready
