"""Computer players over the pure rules engine: a random mover and an alpha-beta searcher.

A player answers one question: given a game (with its rule options), a position (which carries
its repetition history) and a time budget, which move? Players never touch the network; the
runner (bots/runner.py) feeds them positions read from the server's ``fen``.

>>> import engine
>>> game = engine.get_game("dobutsu")
>>> make_player("easy", seed=1).choose(game, game.start(), 0.05) in game.legal_moves(game.start())
True
"""

from __future__ import annotations

import functools
import random
import time
from dataclasses import dataclass
from typing import Any, Protocol, cast, runtime_checkable

import engine

from .evaluation import evaluator
from .evaluator import Evaluator
from .jungle import JungleEvaluator
from .junglesearch import JungleSearch
from .nullmove import passed
from .ordering import MoveOrder
from .searchbase import (
    CHECK_EVERY,
    CONTEMPT,
    EXACT,
    INFINITY,
    LOWER,
    MATE,
    MATE_BOUND,
    NULL_FROM_DEPTH,
    NULL_REDUCTION,
    REDUCE_AFTER_MOVES,
    REDUCE_FROM_DEPTH,
    TABLE_LIMIT,
    UPPER,
    SearchInfo,
    _OutOfTime,
    mate_shift,
    table_score,
)


class Player(Protocol):
    """Anything that picks a move: the runner only needs this."""

    name: str

    def choose(
        self, game: engine.Game[Any], position: engine.Position, time_budget_s: float
    ) -> str:
        """One legal move of ``position`` (which must not be over), within about the budget."""
        ...


@runtime_checkable
class Scoring(Protocol):
    """A player that can say how its last chosen move's position looked to it."""

    def last_score(self) -> int | None:
        """The last search's score for the side that moved (about 100 a pawn), if any."""
        ...


class RandomPlayer:
    """Plays a uniformly random legal move (seedable, for reproducible games)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(
        self, game: engine.Game[Any], position: engine.Position, time_budget_s: float
    ) -> str:
        moves = game.legal_moves(position)
        if not moves:
            raise ValueError(f"no legal move: the game is over in {game.to_text(position)}")
        return self.rng.choice(moves)


class AlphaBetaPlayer:
    """Iterative-deepening negamax alpha-beta with a per-game evaluation.

    Principal-variation search, late move reductions, null-move pruning, quiescence search
    over captures (and immediate wins), a transposition table keyed by the engine's position
    digest, killer moves and a history table for ordering (ordering.py). The time budget is
    hard: the clock is read every few nodes and the best move of the deepest finished
    iteration (or a better one found since) is returned. Jungle's iterations run on a board
    of its own (junglesearch.py) under the default repetition rule.
    """

    def __init__(
        self,
        *,
        name: str = "alphabeta",
        max_depth: int = 64,
        quiescence_depth: int = 6,
        reductions: bool = True,
        lazy_moves: bool = True,
        null_move: bool = True,
        tuned: bool = True,
        threats: bool = True,
        native: bool = True,
        seed: int | None = None,
    ) -> None:
        self.name = name
        self.max_depth = max_depth
        self.quiescence_depth = quiescence_depth
        self.reductions = reductions
        # Each switched off by bench/strength.py's baselines (the search before that change):
        # lazy move generation (see _search); null-move pruning, in the games whose evaluator
        # allows it (no zugzwang); the tuned evaluations (bots/linear.py) rather than the
        # hand-set ones; no standing pat in quiescence where the evaluator sees a threat;
        # a game's own search on its own board where it has one (jungle: junglesearch.py).
        self.lazy_moves = lazy_moves
        self.null_move = null_move
        self.tuned = tuned
        self.threats = threats
        self.native = native
        self._native: JungleSearch | None = None
        self.rng = random.Random(seed)
        self.info = SearchInfo()
        self._table: dict[str, tuple[int, int, int, str | None]] = {}
        self._table_game: engine.Game[Any] | None = None
        self._order = MoveOrder()
        self._game: engine.Game[Any] = engine.get_game("dobutsu")
        self._eval: Evaluator = evaluator(self._game)
        self._deadline = 0.0
        self._nodes = 0
        self._root_side = 0

    # ---- the public move choice -----------------------------------------------------------
    def choose(
        self, game: engine.Game[Any], position: engine.Position, time_budget_s: float
    ) -> str:
        started = time.perf_counter()
        moves = game.legal_moves(position)
        if not moves:
            raise ValueError(f"no legal move: the game is over in {game.to_text(position)}")
        if game is not self._table_game:
            self._table = {}
            self._order = MoveOrder()
            self._native = None
            self._table_game = game
        elif len(self._table) > TABLE_LIMIT:
            self._table = {}
        self._game = game
        self._eval = evaluator(game, tuned=self.tuned)
        self._deadline = started + max(time_budget_s, 0.0)
        self._nodes = 0
        self._root_side = position.side
        self._order.new_search(self.max_depth + self.quiescence_depth + 2)
        native = self._native_search(game)
        if native is not None:
            native.start(position, self._deadline)
        # Shuffle first so that equally good moves vary from game to game.
        self.rng.shuffle(moves)
        best, depth = moves[0], 0
        score: int | None = None
        if len(moves) > 1:
            for depth in range(1, self.max_depth + 1):
                try:
                    root = native.root if native else functools.partial(self._root, position)
                    found, value, complete = root(moves, depth)
                except _OutOfTime:
                    break
                if found is not None:
                    best, score = found, value
                    # Search the best move first next iteration.
                    moves.remove(found)
                    moves.insert(0, found)
                if not complete or (score is not None and abs(score) >= MATE_BOUND):
                    break  # out of time inside this depth, or a forced result is found
        nodes = self._nodes if native is None else native.nodes
        self.info = SearchInfo(best, score, depth, nodes, time.perf_counter() - started)
        return best

    def last_score(self) -> int | None:
        """The last search's score for the side that moved; None if it searched nothing."""
        return self.info.score if self.info.move else None

    def _native_search(self, game: engine.Game[Any]) -> JungleSearch | None:
        """The game's own search, kept for the game's moves (its table and history)."""
        ev = self._eval
        if not (self.native and isinstance(ev, JungleEvaluator) and ev.repetition_is_draw):
            return None
        if self._native is None:
            depth, reductions, threats = self.quiescence_depth, self.reductions, self.threats
            self._native = JungleSearch(game, ev, depth, reductions, threats)
        return self._native

    # ---- the search -----------------------------------------------------------------------
    def _root(
        self, pos: engine.Position, moves: list[str], depth: int
    ) -> tuple[str | None, int, bool]:
        """Best move and score at ``depth``; ``complete`` is False when time ran out."""
        game = self._game
        alpha, beta = -INFINITY, INFINITY
        best: str | None = None
        for i, move in enumerate(moves):
            child = game.play(pos, move)
            try:
                if i == 0:
                    score = -self._search(child, depth - 1, -beta, -alpha, 1)
                else:
                    score = -self._search(child, depth - 1, -alpha - 1, -alpha, 1)
                    if score > alpha:
                        score = -self._search(child, depth - 1, -beta, -alpha, 1)
            except _OutOfTime:
                # A move fully searched above alpha is better than the last iteration's.
                return best, alpha, False
            if score > alpha:
                alpha, best = score, move
        return best, alpha, True

    def _draw(self, side: int) -> int:
        """A draw's score for ``side`` to move: below zero for the searching side."""
        return -CONTEMPT if side == self._root_side else CONTEMPT

    def _terminal(self, result: engine.Result, side: int, ply: int) -> int:
        if result.winner is None:
            return self._draw(side)
        won = result.winner == engine.SIDES[side]
        return MATE - ply if won else ply - MATE

    def _tick(self) -> None:
        self._nodes += 1
        if not self._nodes & CHECK_EVERY and time.perf_counter() > self._deadline:
            raise _OutOfTime

    def _search(self, pos: Any, depth: int, alpha: int, beta: int, ply: int) -> int:
        self._tick()
        game = self._game
        lazy = self.lazy_moves
        # Lazily, the engine's move generation (most of a node's cost) waits until the node
        # needs its moves: the cheap endings first, then the horizon and the table's cut-offs.
        result = pos.win if lazy else game.result(pos)
        if result is not None:
            return self._terminal(result, pos.side, ply)
        if self._eval.repetition_is_draw and pos.digest in pos.history:
            # A repetition: the search treats the second occurrence as the draw.
            return self._draw(pos.side)
        if depth <= 0:
            return self._quiesce(pos, alpha, beta, ply, self.quiescence_depth)
        key = pos.digest
        entry = self._table.get(key)
        table_move: str | None = None
        if entry is not None:
            table_move = entry[3]
            stored = table_score(entry, depth, alpha, beta, ply)
            if stored is not None:
                return stored
        if lazy and (result := game.result(pos)) is not None:
            return self._terminal(result, pos.side, ply)
        original_alpha = alpha
        best = -INFINITY
        best_move: str | None = None
        ev = self._eval
        if (
            self.null_move
            and ev.null_move
            and depth >= NULL_FROM_DEPTH
            and beta - alpha == 1
            and abs(beta) < MATE_BOUND
            and not game.in_check(pos)
            and ev.evaluate(pos) >= beta
        ):
            score = -self._search(passed(pos), depth - 1 - NULL_REDUCTION, -beta, 1 - beta, ply + 1)
            if score >= beta:
                # A win found after a pass is no proof of a win: only the bound is kept.
                return beta if score >= MATE_BOUND else score
        # Late quiet moves get a shallower look first (late move reductions), not in check.
        reducing = self.reductions and depth >= REDUCE_FROM_DEPTH and not game.in_check(pos)
        moves = self._order.ordered(game.legal_moves(pos), ev, pos, table_move, ply)
        for i, move in enumerate(moves):
            child = game.play(pos, move)
            if i == 0:
                score = -self._search(child, depth - 1, -beta, -alpha, ply + 1)
            else:
                reduced = (
                    reducing
                    and i >= REDUCE_AFTER_MOVES
                    and not ev.tactical(pos, move)
                    and not game.in_check(child)
                )
                score = -self._search(child, depth - 1 - reduced, -alpha - 1, -alpha, ply + 1)
                if reduced and score > alpha:
                    score = -self._search(child, depth - 1, -alpha - 1, -alpha, ply + 1)
                if alpha < score < beta:
                    score = -self._search(child, depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        self._order.cutoff(ev, pos, move, depth, ply)
                        break
        flag = UPPER if best <= original_alpha else LOWER if best >= beta else EXACT
        self._table[key] = (depth, mate_shift(best, ply), flag, best_move)
        return best

    def _quiesce(self, pos: Any, alpha: int, beta: int, ply: int, left: int) -> int:
        stand = self._eval.evaluate(pos)
        if left <= 0 or not self._eval.quiescence:
            return stand
        if self.threats and self._eval.threatened(pos):
            # Lost unless a tactical move answers: the other side's next move wins (a position
            # two plies on), and standing pat would hide it.
            stand = ply + 2 - MATE
        game, ev, lazy = self._game, self._eval, self.lazy_moves
        # Lazily, standing pat comes before generating the moves, but not in check: a king
        # with no way out would be missed.
        if stand >= beta and not (lazy and game.in_check(pos)):
            return stand
        moves = game.legal_moves(pos)
        if lazy and not moves:
            # No move: only now is the ending (no move, repetition, no progress) computed.
            return self._terminal(cast(engine.Result, game.result(pos)), pos.side, ply)
        if stand >= beta:
            return stand
        alpha = max(alpha, stand)
        tactical = [m for m in moves if ev.tactical(pos, m)]
        tactical.sort(key=lambda m: ev.victim(pos, m), reverse=True)
        best = stand
        for move in tactical:
            self._tick()
            child = game.play(pos, move)
            result = child.win if lazy else game.result(child)
            if result is not None:
                score = -self._terminal(result, child.side, ply + 1)
            else:
                score = -self._quiesce(child, -beta, -alpha, ply + 1, left - 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best


@dataclass(frozen=True)
class Level:
    """A named strength: how long a move may take and how deep the search may go."""

    name: str
    description: str
    time_budget_s: float
    max_depth: int | None  # None: the random player


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("random", "plays any legal move", 0.0, None),
        Level("easy", "searches two plies ahead", 0.1, 2),
        Level("medium", "searches four plies ahead, for at most half a second", 0.5, 4),
        Level("hard", "searches for two seconds a move", 2.0, 64),
    )
}


def make_player(level: str, seed: int | None = None) -> Player:
    """The player of a level in LEVELS (``ValueError`` for an unknown one)."""
    found = LEVELS.get(level)
    if found is None:
        raise ValueError(f"unknown level {level!r}; the levels are {', '.join(LEVELS)}")
    if found.max_depth is None:
        return RandomPlayer(seed)
    return AlphaBetaPlayer(name=found.name, max_depth=found.max_depth, seed=seed)


__all__ = [
    "LEVELS",
    "MATE",
    "MATE_BOUND",
    "AlphaBetaPlayer",
    "Level",
    "Player",
    "RandomPlayer",
    "Scoring",
    "SearchInfo",
    "make_player",
]
