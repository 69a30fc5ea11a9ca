"""The searching player's search, asked for the best few moves of a position with their scores
and lines (multi-PV), for analysis rather than play.

It reuses the bots' alpha-beta (players.py: the same evaluation, quiescence, reductions and
tables) and changes only the root and what is reported: every iteration searches the root
moves until the ``multipv`` best are known exactly, and each one's line is read back from the
transposition table. A draw scores 0 (the player's contempt is a playing choice, not a
value), and the budget is a number of nodes as well as a time, so that the same question
gets the same answer whatever the machine's load. The bots' play is unchanged.

>>> import engine
>>> game = engine.get_game("dobutsu")
>>> found = analyse(game, game.start(), multipv=2, max_nodes=2_000)
>>> len(found.lines), found.depth >= 1
(2, True)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import engine

from .evaluation import evaluator
from .players import AlphaBetaPlayer
from .searchbase import CHECK_EVERY, INFINITY, MATE, MATE_BOUND, _OutOfTime

MAX_DEPTH = 64
PV_PLIES = 24  # the longest line reported


@dataclass(frozen=True)
class ScoredLine:
    """One root move's line and its score for the side to move: ``score`` in the evaluation's
    centi-units, or a decided result when ``plies`` is set (the game ends after that many
    plies, won when ``score`` > 0)."""

    moves: tuple[str, ...]
    score: int
    plies: int | None


@dataclass(frozen=True)
class Analysis:
    """The deepest finished iteration's lines, best first, and what the search cost."""

    lines: tuple[ScoredLine, ...]
    depth: int
    nodes: int


def decided(score: int) -> int | None:
    """The plies to the end a search score stands for, None for an evaluation."""
    if score >= MATE_BOUND:
        return MATE - score
    if score <= -MATE_BOUND:
        return MATE + score
    return None


class MultiPvSearch(AlphaBetaPlayer):
    """The alpha-beta player's search with a multi-PV root and a node budget."""

    def __init__(self) -> None:
        # No null-move pruning: an analysis shows exact lines, and a pass may hide a zugzwang
        # or a repetition a real move would meet. No loss scored from a threat alone either:
        # its line would stop before the moves that play it out.
        super().__init__(name="analysis", max_depth=MAX_DEPTH, null_move=False, threats=False)
        self._max_nodes = 0

    def _draw(self, side: int) -> int:
        return 0

    def _tick(self) -> None:
        self._nodes += 1
        if self._nodes >= self._max_nodes or (
            not self._nodes & CHECK_EVERY and time.perf_counter() > self._deadline
        ):
            raise _OutOfTime

    def analyse(
        self,
        game: engine.Game[Any],
        position: engine.Position,
        multipv: int,
        max_nodes: int,
        seconds: float,
        max_depth: int = MAX_DEPTH,
    ) -> Analysis:
        moves = game.legal_moves(position)
        if not moves:
            raise ValueError(f"no legal move: the game is over in {game.to_text(position)}")
        self._game = game
        self._eval = evaluator(game)
        self._root_side = position.side
        self._order.new_search(max_depth + self.quiescence_depth + 2)
        self._nodes = 0
        want = min(multipv, len(moves))
        best: list[tuple[int, str]] = []
        depth = 0
        for iteration in range(1, max_depth + 1):
            # The first iteration always finishes: an answer has at least one line.
            self._max_nodes = max_nodes if iteration > 1 else 1 << 62
            self._deadline = time.perf_counter() + (seconds if iteration > 1 else 3600.0)
            try:
                found = self._root_lines(position, moves, iteration, want)
            except _OutOfTime:
                break
            best, depth = found, iteration
            # The best first next time; the others in the order this iteration found them.
            chosen = [move for _, move in best]
            moves = chosen + [m for m in moves if m not in chosen]
            if all(decided(score) is not None for score, _ in best):
                break  # every line shown is a forced result
        lines = tuple(
            ScoredLine(self._line(position, move), score, decided(score)) for score, move in best
        )
        return Analysis(lines, depth, self._nodes)

    def _root_lines(
        self, pos: engine.Position, moves: list[str], depth: int, want: int
    ) -> list[tuple[int, str]]:
        """The ``want`` best root moves at ``depth`` with exact scores, best first: a move is
        searched above the ``want``-th best score so far (a null window first), so the
        others only prove they are no better."""
        game = self._game
        best: list[tuple[int, str]] = []
        for move in moves:
            child = game.play(pos, move)
            floor = best[-1][0] if len(best) == want else -INFINITY
            if floor == -INFINITY:
                score = -self._search(child, depth - 1, -INFINITY, INFINITY, 1)
            else:
                score = -self._search(child, depth - 1, -floor - 1, -floor, 1)
                if score > floor:
                    score = -self._search(child, depth - 1, -INFINITY, -floor, 1)
            if len(best) < want or score > floor:
                best.append((score, move))
                best.sort(key=lambda found: -found[0])  # stable: earlier moves first on ties
                del best[want:]
        return best

    def _line(self, pos: engine.Position, move: str) -> tuple[str, ...]:
        """``move``, then the table's best moves after it while they are legal."""
        game = self._game
        line = [move]
        seen = {pos.digest}
        pos = game.play(pos, move)
        while len(line) < PV_PLIES and game.result(pos) is None and pos.digest not in seen:
            seen.add(pos.digest)
            entry = self._table.get(pos.digest)
            following = entry[3] if entry is not None else None
            if following is None or following not in game.legal_moves(pos):
                break
            line.append(following)
            pos = game.play(pos, following)
        # The last move of a win is often found by quiescence, which stores nothing.
        if len(line) < PV_PLIES and game.result(pos) is None:
            winner = engine.SIDES[pos.side]
            for last in game.legal_moves(pos):
                result = game.result(game.play(pos, last))
                if result is not None and result.winner == winner:
                    line.append(last)
                    break
        return tuple(line)


def analyse(
    game: engine.Game[Any],
    position: engine.Position,
    *,
    multipv: int = 1,
    max_nodes: int = 100_000,
    seconds: float = 1.0,
    max_depth: int = MAX_DEPTH,
) -> Analysis:
    """The ``multipv`` best moves of ``position`` (which must not be over) with their scores
    and lines, from a fresh search that stops within ``max_nodes`` nodes and ``seconds``
    (the first iteration excepted: it always finishes)."""
    return MultiPvSearch().analyse(game, position, multipv, max_nodes, seconds, max_depth)
