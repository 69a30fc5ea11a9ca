"""Jungle's own search: the alpha-beta of players.py, run on a board made for the game.

The same search as ``AlphaBetaPlayer`` (principal-variation search, late move reductions,
quiescence on captures and den entries that does not stand pat beside an open den, a
transposition table, the table's move, captures, killers and history first, contempt for
draws), but its nodes are moves made and unmade in place on one ``JungleBoard`` rather than
the engine's immutable positions: no new board, digest and history per node, moves as ints,
the evaluation kept up to date move by move. A node costs about a third of the generic
search's, so at the same time per move it searches a ply or two deeper; and it reduces late
quiet moves by more than a ply, the more the later they come and the deeper the node
(docs/decisions/jungle-search.md).

The player (players.py) keeps the iterative deepening and calls ``root`` once per depth; the
root's moves are the engine's, so the move played is always legal. Used where a repeated
position is a draw (the default rule); under the ``tiebreak`` rule the generic search plays.
"""

from __future__ import annotations

import math
import time
from typing import Any

import engine

from .jungle import JungleEvaluator
from .jungleboard import SHIFT, TARGET, VICTIM, JungleBoard
from .searchbase import (
    CHECK_EVERY,
    CONTEMPT,
    EXACT,
    INFINITY,
    LOWER,
    MATE,
    REDUCE_AFTER_MOVES,
    REDUCE_FROM_DEPTH,
    TABLE_LIMIT,
    UPPER,
    _OutOfTime,
    mate_shift,
    table_score,
)

NO_PROGRESS_LIMIT = engine.get_game("jungle").NO_PROGRESS_LIMIT
TABLE_FIRST, CAPTURE_FIRST, KILLER_FIRST = 1 << 40, 1 << 30, 1 << 29
HISTORY_CAP = 1 << 28
MAX_PLY = 128
# REDUCTIONS[depth][i]: the plies a late quiet move, the i-th tried, is searched shallower.
REDUCTIONS = [
    [max(1, int(0.5 + math.log(d) * math.log(i) / 2)) if d and i else 0 for i in range(MAX_PLY)]
    for d in range(MAX_PLY)
]


class JungleSearch:
    """One game's search state: the board, the transposition table, the history."""

    def __init__(
        self,
        game: engine.Game[Any],
        ev: JungleEvaluator,
        quiescence_depth: int,
        reductions: bool,
        threats: bool,
    ) -> None:
        self.board = JungleBoard(game, ev)
        self.quiescence_depth = quiescence_depth
        self.reductions = reductions
        self.threats = threats
        self.table: dict[int, tuple[int, int, int, int]] = {}
        self.history = [0] * (1 << 2 * SHIFT)
        self.killers: list[list[int]] = []
        self.nodes = 0
        self._deadline = 0.0
        self._root_side = 0
        self._root_plies = 0
        self._seen: set[int] = set()
        self._unplaced: frozenset[str] = frozenset()
        self._unplaced_seen: dict[int, bool] = {}

    def start(self, pos: Any, deadline: float) -> None:
        """Prepares a search of ``pos`` (an engine position) until ``deadline``."""
        board = self.board
        board.load(pos)
        if len(self.table) > TABLE_LIMIT:
            self.table = {}
        self.killers = [[] for _ in range(MAX_PLY)]
        self.nodes = 0
        self._deadline = deadline
        self._root_side = pos.side
        self._root_plies = board.plies
        # The keys of the game's earlier positions (since the last capture) and of the
        # search's path: a node whose key is there repeats. Positions the board cannot place
        # from their digests (none, unless the history is not the game's) are compared by
        # digest instead, at a cost.
        earlier, self._unplaced = board.earlier_keys(pos.history)
        self._seen = {*earlier, board.key}
        self._unplaced_seen = {}

    def root(self, moves: list[str], depth: int) -> tuple[str | None, int, bool]:
        """Best move and score at ``depth``; ``complete`` is False when time ran out."""
        board = self.board
        alpha, beta = -INFINITY, INFINITY
        best: str | None = None
        for i, text in enumerate(moves):
            move = board.move(text)
            undo = board.make(move)
            try:
                if board.won(move, undo[0]):
                    score = MATE - 1
                elif i == 0:
                    score = -self._search(depth - 1, -beta, -alpha, 1)
                else:
                    score = -self._search(depth - 1, -alpha - 1, -alpha, 1)
                    if score > alpha:
                        score = -self._search(depth - 1, -beta, -alpha, 1)
            except _OutOfTime:
                # A move fully searched above alpha is better than the last iteration's. The
                # board is left as it was when time ran out: ``start`` loads it anew.
                return best, alpha, False
            board.unmake(move, undo)
            if score > alpha:
                alpha, best = score, text
        return best, alpha, True

    # ---- the tree --------------------------------------------------------------------------
    def _draw(self, side: int) -> int:
        return -CONTEMPT if side == self._root_side else CONTEMPT

    def _tick(self) -> None:
        self.nodes += 1
        if not self.nodes & CHECK_EVERY and time.perf_counter() > self._deadline:
            raise _OutOfTime

    def _repeated_unplaced(self, ply: int) -> bool:
        """Whether the position is one of the game's earlier ones that the board could not
        place (see ``start``): compared by the engine's digest, while no capture has been
        made since the root."""
        board = self.board
        if board.plies != self._root_plies + ply:
            return False
        found = self._unplaced_seen.get(board.key)
        if found is None:
            found = self._unplaced_seen[board.key] = board.engine_digest() in self._unplaced
        return found

    def _search(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if not self.nodes & CHECK_EVERY and time.perf_counter() > self._deadline:
            raise _OutOfTime
        board = self.board
        if (
            board.key in self._seen
            or (self._unplaced and self._repeated_unplaced(ply))
            or board.plies >= NO_PROGRESS_LIMIT
        ):
            return self._draw(board.side)
        if depth <= 0:
            return self._quiesce(alpha, beta, ply, self.quiescence_depth)
        key = board.key
        entry = self.table.get(key)
        table_move = 0
        if entry is not None:
            table_move = entry[3]
            stored = table_score(entry, depth, alpha, beta, ply)
            if stored is not None:
                return stored
        moves = board.moves()
        if not moves:
            return ply - MATE  # no legal move: the side to move loses
        moves = self._ordered(moves, table_move, ply)
        original_alpha = alpha
        best, best_move = -INFINITY, 0
        reducing = self.reductions and depth >= REDUCE_FROM_DEPTH
        den = board.dens[1 - board.side]
        squares = board.board
        reductions = REDUCTIONS[min(depth, MAX_PLY - 1)]
        seen = self._seen
        seen.add(key)
        for i, move in enumerate(moves):
            to = move & TARGET
            quiet = not squares[to] and to != den
            undo = board.make(move)
            if board.won(move, undo[0]):
                score = MATE - ply - 1
            elif i == 0:
                score = -self._search(depth - 1, -beta, -alpha, ply + 1)
            else:
                # Late quiet moves: the later, the shallower (by the logarithms of both).
                reduced = reducing and i >= REDUCE_AFTER_MOVES and quiet
                lower = reductions[min(i, MAX_PLY - 1)] if reduced else 0
                score = -self._search(depth - 1 - lower, -alpha - 1, -alpha, ply + 1)
                if reduced and score > alpha:
                    score = -self._search(depth - 1, -alpha - 1, -alpha, ply + 1)
                if alpha < score < beta:
                    score = -self._search(depth - 1, -beta, -alpha, ply + 1)
            board.unmake(move, undo)
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if quiet:
                            self._cutoff(move, depth, ply)
                        break
        seen.discard(key)
        flag = UPPER if best <= original_alpha else LOWER if best >= beta else EXACT
        self.table[key] = (depth, mate_shift(best, ply), flag, best_move)
        return best

    def _quiesce(self, alpha: int, beta: int, ply: int, left: int) -> int:
        board = self.board
        stand = board.evaluate()
        if left <= 0:
            return stand
        if self.threats and board.threatened():
            # Lost unless a tactical move answers: the enemy walks into the den next.
            stand = ply + 2 - MATE
        if stand >= beta:
            return stand
        # Only the tactical moves are generated: a side with no move at all (which loses) is
        # left to the full-width search a ply earlier.
        alpha = max(alpha, stand)
        squares = board.board
        tactical = [(VICTIM[squares[m & TARGET]], m) for m in board.moves(True)]
        tactical.sort(reverse=True)
        best = stand
        for _, move in tactical:
            self._tick()
            undo = board.make(move)
            if board.won(move, undo[0]):
                score = MATE - ply - 1
            else:
                score = -self._quiesce(-beta, -alpha, ply + 1, left - 1)
            board.unmake(move, undo)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best

    # ---- move order: ordering.py's, for int moves with the history in a list. MoveOrder
    # itself (its history a dict, its victims from a call per move) cost 8% of the search's
    # time here, profiled.
    def _ordered(self, moves: list[int], table_move: int, ply: int) -> list[int]:
        squares = self.board.board
        killers = self.killers[ply] if ply < MAX_PLY else []
        history = self.history
        keyed = []
        for move in moves:
            if move == table_move:
                key = TABLE_FIRST
            else:
                victim = squares[move & TARGET]
                if victim:
                    key = CAPTURE_FIRST + VICTIM[victim]
                elif move in killers:
                    key = KILLER_FIRST
                else:
                    key = history[move]
            keyed.append((key, move))
        keyed.sort(reverse=True)
        return [move for _, move in keyed]

    def _cutoff(self, move: int, depth: int, ply: int) -> None:
        if ply < MAX_PLY:
            killers = self.killers[ply]
            if move not in killers:
                killers.insert(0, move)
                del killers[2:]
        self.history[move] = min(self.history[move] + depth * depth, HISTORY_CAP)
