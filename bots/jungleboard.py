"""A jungle position for jungle's own search (junglesearch.py): one mutable board whose moves
are made and unmade in place.

A move is an int, ``origin << 6 | target`` (squares numbered as the engine numbers them,
a1 = 0 … g9 = 62). The board keeps, as they change, where each piece stands, each side's
piece count, a Zobrist key of the board and side to move (the transposition table's and
the repetition check's key), and the hand-set evaluation (bots/jungle.py) from ``first``'s
side. The geometry comes from the game's description (water, dens, the squares where a piece
is weak under the ``traps`` option); tests hold the moves equal to the engine's.
"""

from __future__ import annotations

import random
import struct
from typing import Any

import engine
from engine.core import digest
from engine.games.jungle import ELEPHANT, LION, RAT, TIGER

from .jungle import JUNGLE_VALUES, JungleEvaluator

SHIFT = 6  # move = origin << SHIFT | target
TARGET = (1 << SHIFT) - 1
PIECES = 17  # piece + 8 indexes the per-piece tables: -8 (second's elephant) … 8
ZOBRIST_SEED = 0x4A554E47  # any fixed seed: keys are the same in every process
RECALLED_LIMIT = 10_000  # earlier positions remembered before the memory is emptied
# VICTIM[piece]: the value of the piece (of either side: negative indexes read the end).
VICTIM = (*JUNGLE_VALUES, *reversed(JUNGLE_VALUES[1:]))


class JungleBoard:
    """The position being searched; ``load`` sets it from an engine position."""

    def __init__(self, game: engine.Game[Any], ev: JungleEvaluator) -> None:
        data = game.describe()
        files: int = data["board"]["files"]
        ranks: int = data["board"]["ranks"]
        size = files * ranks
        index = self.index = game.square_index
        self.names = game.square_names
        water = [False] * size
        for name in data["squares"]["water"]:
            water[index[name]] = True
        self.water = tuple(water)
        self.dens = tuple(index[data["squares"]["dens"][side]] for side in engine.SIDES)
        # weak[mover][sq]: an enemy of the mover standing on sq has rank 0.
        self.weak = tuple(
            tuple(name in data["weak_squares"][engine.SIDES[1 - mover]] for name in self.names)
            for mover in (0, 1)
        )
        # takes[attacker][defender], off the traps, for every attacker but the rat.
        self.takes = tuple(
            tuple(a >= d and not (a == ELEPHANT and d == RAT) for d in range(9)) for a in range(9)
        )

        def neighbours(s: int) -> list[int]:
            f, r = s % files, s // files
            return [
                s + df + dr * files
                for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0))
                if 0 <= f + df < files and 0 <= r + dr < ranks
            ]

        self.around = tuple(tuple(neighbours(s)) for s in range(size))
        # (target, move) per square and mover: land steps (every piece but the rat) and the
        # rat's steps (water too); nobody enters its own den.
        self.walks = tuple(
            tuple(
                tuple(
                    (to, s << SHIFT | to)
                    for to in neighbours(s)
                    if not water[to] and to != self.dens[side]
                )
                for s in range(size)
            )
            for side in (0, 1)
        )
        self.swims = tuple(
            tuple(
                tuple((to, s << SHIFT | to) for to in neighbours(s) if to != self.dens[side])
                for s in range(size)
            )
            for side in (0, 1)
        )
        # The lion's and tiger's lake jumps: (landing square, move, the water jumped over).
        jumps: list[tuple[tuple[int, int, tuple[int, ...]], ...]] = []
        for s in range(size):
            found = []
            for to in neighbours(s):
                if water[s] or not water[to]:
                    continue
                over, land = [], to
                while water[land]:
                    over.append(land)
                    land += to - s
                found.append((land, s << SHIFT | land, tuple(over)))
            jumps.append(tuple(found))
        self.jumps = tuple(jumps)
        # jumped_from[sq]: the squares a lion's or tiger's jump lands on sq from.
        jumped_from: list[list[int]] = [[] for _ in range(size)]
        for s, found_jumps in enumerate(jumps):
            for land, _, _ in found_jumps:
                jumped_from[land].append(s)
        self.jumped_from = tuple(tuple(f) for f in jumped_from)
        # The evaluation per piece and square, from first's side (bots/jungle.py's terms).
        psq = [[0] * size for _ in range(PIECES)]
        for rank in range(1, 9):
            for sq in range(size):
                psq[8 + rank][sq] = JUNGLE_VALUES[rank] + ev.advance[0][sq]
                psq[8 - rank][sq] = -(JUNGLE_VALUES[rank] + ev.advance[1][sq])
        self.psq = psq
        rng = random.Random(ZOBRIST_SEED)
        self.zobrist = [[rng.getrandbits(64) for _ in range(size)] for _ in range(PIECES)]
        self.side_key = rng.getrandbits(64)
        self._pack = struct.Struct(f"{size + 1}b").pack
        self.board: list[int] = []
        self.loc = [-1] * PIECES  # piece + 8 -> its square, -1 once taken
        self.left = [0, 0]  # pieces on the board per side
        self.side = 0
        self.plies = 0  # plies since the last capture
        self.key = 0
        self.score = 0  # the evaluation from first's side
        # The game's earlier positions found from their digests: digest -> (board, side).
        self._recalled: dict[str, tuple[tuple[int, ...], int]] = {}

    def load(self, pos: Any) -> None:
        self.board = list(pos.board)
        self.side = pos.side
        self.plies = pos.plies
        self.loc = [-1] * PIECES
        self.left = [0, 0]
        score = 0
        for sq, p in enumerate(self.board):
            if p:
                self.loc[p + 8] = sq
                self.left[p < 0] += 1
                score += self.psq[p + 8][sq]
        self.key, self.score = self.key_of(pos.board, pos.side), score

    def key_of(self, board: Any, side: int) -> int:
        key = self.side_key if side else 0
        for sq, p in enumerate(board):
            if p:
                key ^= self.zobrist[p + 8][sq]
        return key

    def earlier_keys(self, history: tuple[str, ...]) -> tuple[set[int], frozenset[str]]:
        """The keys of the game's earlier positions, given by the engine's digests since the
        last capture (oldest first), and the digests it could not place.

        Each is found from the one after it (the loaded position first) by taking back the
        move that led there: no capture came between, so one of the mover's pieces stepped
        or jumped from an empty square, and the candidate whose digest matches is it.
        """
        if len(self._recalled) > RECALLED_LIMIT:
            self._recalled = {}
        keys: set[int] = set()
        board, side = tuple(self.board), self.side
        for i in range(len(history) - 1, -1, -1):
            found = self._recalled.get(history[i]) or self._taken_back(board, side, history[i])
            if found is None:
                return keys, frozenset(history[: i + 1])
            self._recalled[history[i]] = found
            board, side = found
            keys.add(self.key_of(board, side))
        return keys, frozenset()

    def _taken_back(
        self, board: tuple[int, ...], side: int, wanted: str
    ) -> tuple[tuple[int, ...], int] | None:
        mover = 1 - side
        sign = 1 - 2 * mover
        for sq, piece in enumerate(board):
            if piece * sign <= 0:
                continue
            rank = piece * sign
            origins = self.around[sq]
            if rank in (TIGER, LION):
                origins += self.jumped_from[sq]
            for origin in origins:
                if board[origin] or origin == self.dens[mover]:
                    continue
                if self.water[origin] and rank != RAT:
                    continue
                before = list(board)
                before[origin], before[sq] = piece, 0
                if digest(self._pack(*before, mover)) == wanted:
                    return tuple(before), mover
        return None

    def text(self, move: int) -> str:
        return self.names[move >> SHIFT] + self.names[move & TARGET]

    def move(self, text: str) -> int:
        """The move of an engine move text (``a3a4``)."""
        index = self.index
        return index[text[:2]] << SHIFT | index[text[2:]]

    def engine_digest(self) -> str:
        """The engine's digest of this position (for the repetitions before the search)."""
        return digest(self._pack(*self.board, self.side))

    def moves(self, tactical: bool = False) -> list[int]:
        """The side to move's legal moves (the engine's rules, rules/jungle.md); only the
        captures and the den entries when ``tactical``."""
        board, side, loc = self.board, self.side, self.loc
        every = not tactical
        den = self.dens[1 - side]
        sign = 1 - 2 * side
        weak, takes = self.weak[side], self.takes
        found: list[int] = []
        add = found.append
        sq = loc[8 + sign * RAT]
        if sq >= 0:
            # The rat takes the rat anywhere, the elephant from land only.
            from_land = not self.water[sq]
            for to, move in self.swims[side][sq]:
                target = board[to] * sign
                if target == 0:
                    if every or to == den:
                        add(move)
                elif target < 0 and (
                    target == -RAT or weak[to] or (target == -ELEPHANT and from_land)
                ):
                    add(move)
        walks = self.walks[side]
        for rank in range(2, 9):
            sq = loc[8 + sign * rank]
            if sq < 0:
                continue
            can = takes[rank]
            steps = walks[sq]
            if rank in (TIGER, LION):
                # Lake jumps, unless a rat (of either side) swims in the way.
                steps += tuple(
                    (to, move)
                    for to, move, over in self.jumps[sq]
                    if not any(board[w] for w in over)
                )
            for to, move in steps:
                target = board[to] * sign
                if target == 0:
                    if every or to == den:
                        add(move)
                elif target < 0 and (weak[to] or can[-target]):
                    add(move)
        return found

    def make(self, move: int) -> tuple[int, int, int, int]:
        """Plays ``move``; returns what ``unmake`` needs: (captured, key, score, plies)."""
        undo = (0, self.key, self.score, self.plies)
        origin, target = move >> SHIFT, move & TARGET
        board = self.board
        piece, captured = board[origin], board[target]
        board[target], board[origin] = piece, 0
        self.loc[piece + 8] = target
        zobrist, psq = self.zobrist, self.psq
        self.key ^= zobrist[piece + 8][origin] ^ zobrist[piece + 8][target] ^ self.side_key
        self.score += psq[piece + 8][target] - psq[piece + 8][origin]
        if captured:
            self.key ^= zobrist[captured + 8][target]
            self.score -= psq[captured + 8][target]
            self.loc[captured + 8] = -1
            self.left[captured < 0] -= 1
            self.plies = 0
            undo = (captured, *undo[1:])
        else:
            self.plies += 1
        self.side ^= 1
        return undo

    def unmake(self, move: int, undo: tuple[int, int, int, int]) -> None:
        origin, target = move >> SHIFT, move & TARGET
        board = self.board
        captured, self.key, self.score, self.plies = undo
        piece = board[target]
        board[origin], board[target] = piece, captured
        self.loc[piece + 8] = origin
        if captured:
            self.loc[captured + 8] = target
            self.left[captured < 0] += 1
        self.side ^= 1

    def threatened(self) -> bool:
        """Whether an enemy stands beside the side to move's den (it walks in next move)."""
        board, side = self.board, self.side
        sign = 1 - 2 * side
        # A loop, not any() over a generator: this runs at every quiescence node.
        for sq in self.around[self.dens[side]]:  # noqa: SIM110
            if board[sq] * sign < 0:
                return True
        return False

    def won(self, move: int, captured: int) -> bool:
        """Whether ``move``, just made, won: into the enemy den, or the last enemy taken."""
        mover = self.side ^ 1
        return (move & TARGET) == self.dens[1 - mover] or (
            captured != 0 and self.left[1 - mover] == 0
        )

    def evaluate(self) -> int:
        """The hand-set evaluation, for the side to move."""
        return -self.score if self.side else self.score
