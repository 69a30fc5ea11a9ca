"""Dou shou qi, the jungle game (rules/jungle.md): race a piece into the enemy den.

Position string: ``<board> <side> <plies> <capturer>``, then the optional history field
that core adds.

- ``board``: FEN-style from rank 9 down to rank 1, ``/`` between ranks, a digit for a run of
  empty squares, ``E L T P D W C R`` (elephant 8 … rat 1) upper case for ``first``, lower
  case for ``second``.
- ``side``: the side to move, ``f`` or ``s``.
- ``plies``: plies since the last capture (0 to 100; at 100 the game is drawn).
- ``capturer``: the side that made the last capture, ``f`` or ``s``; ``-`` if none yet.
  The ``tiebreak`` repetition option needs it.

Start: ``l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L f 0 -``.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Mapping
from typing import Any, ClassVar

from ..core import (
    SIDE_LETTERS,
    SIDES,
    Game,
    Option,
    Position,
    Result,
    RuleReason,
    digest,
    format_board,
    parse_board,
)
from ..errors import InvalidPositionError

# (letter, animal, rank), strongest first (rules/jungle.md, "Pieces": dog 4 above wolf 3).
ANIMALS: tuple[tuple[str, str, int], ...] = (
    ("E", "elephant", 8),
    ("L", "lion", 7),
    ("T", "tiger", 6),
    ("P", "leopard", 5),
    ("D", "dog", 4),
    ("W", "wolf", 3),
    ("C", "cat", 2),
    ("R", "rat", 1),
)
RANK_OF: dict[str, int] = {letter: rank for letter, _, rank in ANIMALS}
LETTER_OF: dict[int, str] = {rank: letter for letter, _, rank in ANIMALS}
ANIMAL_OF: dict[int, str] = {rank: animal for _, animal, rank in ANIMALS}
RAT, TIGER, LION, ELEPHANT = 1, 6, 7, 8

DENS = ("d1", "d9")  # first's den, second's den
TRAPS = (("c1", "d2", "e1"), ("c9", "d8", "e9"))  # around first's den, around second's den
LAKES = (("b4", "c4", "b5", "c5", "b6", "c6"), ("e4", "f4", "e5", "f5", "e6", "f6"))
START = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L f 0 -"

PIECE_TOKEN = re.compile(r"[ELTPDWCRelptdwcr]")
CAPTURER_LETTERS = ("f", "s", "-")  # index = side; "-" = no capture yet

# A move is (from square, to square), squares numbered a1=0, b1=1, … g9=62.
Move = tuple[int, int]
# Per square: (destination, move text, move) for the steps; jumps add the water jumped over.
Step = tuple[int, str, Move]
Jump = tuple[int, str, Move, tuple[int, ...]]


class JunglePosition(Position):
    """Board a1..g9 as ints: 0 empty, +rank for ``first``'s pieces, -rank for ``second``'s."""

    __slots__ = ("board", "capturer", "plies")

    board: tuple[int, ...]
    plies: int  # plies since the last capture, for the no-progress draw
    capturer: int | None  # side that made the last capture (tiebreak), None: none yet


class Jungle(Game[JunglePosition]):
    id = "jungle"
    name = "Dou shou qi (Jungle)"
    files = 7
    ranks = 9
    OPTIONS: ClassVar[tuple[Option, ...]] = (
        Option(
            "traps",
            ("any", "opponent"),
            "any: a piece on any trap has rank 0 (the seed sheets); opponent: only the traps "
            "around the opponent's den weaken a piece (the usual international rule)",
        ),
        Option(
            "repetition",
            ("draw", "tiebreak"),
            "draw: the third occurrence of a position is a draw; tiebreak: at the third "
            "occurrence the side with the larger total rank loses, on equal totals the side "
            "that made the last capture loses, and with no capture ever it is a draw",
        ),
    )
    POSITION = JunglePosition
    TEXT_FIELDS = 4
    MOVE_SYNTAX: ClassVar[re.Pattern[str]] = re.compile(r"[a-g][1-9][a-g][1-9]")
    NO_PROGRESS_LIMIT = 100

    def __init__(self, options: Mapping[str, str]) -> None:
        super().__init__(options)
        index = self.square_index
        names = self.square_names
        count = len(names)
        self._dens = (index[DENS[0]], index[DENS[1]])
        water = {index[name] for lake in LAKES for name in lake}
        self._water = tuple(s in water for s in range(count))
        traps = tuple(frozenset(index[name] for name in side_traps) for side_traps in TRAPS)
        # _weak[side][square]: an enemy of ``side`` standing there has rank 0. Option
        # "opponent": a piece is weak only near its opponent's den, i.e. the mover's own den.
        if self.options.get("traps", "any") == "opponent":
            self._weak = tuple(tuple(s in traps[side] for s in range(count)) for side in (0, 1))
        else:
            every = traps[0] | traps[1]
            self._weak = tuple(tuple(s in every for s in range(count)) for _ in (0, 1))
        # _takes[attacker][defender] for attackers other than the rat, off the traps.
        self._takes = tuple(
            tuple(a >= d and not (a == ELEPHANT and d == RAT) for d in range(9)) for a in range(9)
        )

        def neighbours(s: int) -> list[int]:
            f, r = s % self.files, s // self.files
            found = []
            for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
                if 0 <= f + df < self.files and 0 <= r + dr < self.ranks:
                    found.append(s + df + dr * self.files)
            return found

        def step(s: int, to: int) -> Step:
            return (to, names[s] + names[to], (s, to))

        # _walks[side][s]: land steps for every piece but the rat; _swims: the rat's steps.
        self._walks = tuple(
            tuple(
                tuple(
                    step(s, to)
                    for to in neighbours(s)
                    if not self._water[to] and to != self._dens[side]
                )
                for s in range(count)
            )
            for side in (0, 1)
        )
        self._swims = tuple(
            tuple(
                tuple(step(s, to) for to in neighbours(s) if to != self._dens[side])
                for s in range(count)
            )
            for side in (0, 1)
        )
        # _jumps[s]: lion/tiger lake jumps from land square s, with the water jumped over.
        jumps: list[tuple[Jump, ...]] = []
        for s in range(count):
            found: list[Jump] = []
            for to in neighbours(s):
                if self._water[s] or not self._water[to]:
                    continue
                delta, over, land = to - s, [], to
                while self._water[land]:
                    over.append(land)
                    land += delta
                found.append((land, names[s] + names[land], (s, land), tuple(over)))
            jumps.append(tuple(found))
        self._jumps = tuple(jumps)
        # Repetition keys pack the board (signed ranks) and the side to move, one byte each.
        self._key = struct.Struct(f"{count + 1}b")
        self._start_position = self.from_text(START)

    # ---- hooks -----------------------------------------------------------------------------
    def _start(self) -> JunglePosition:
        return self._start_position

    def _generate(self, pos: JunglePosition) -> dict[str, Any]:
        board = pos.board
        side = pos.side
        sign = 1 - 2 * side  # own pieces times sign are > 0
        walks = self._walks[side]
        swims = self._swims[side]
        jumps = self._jumps
        weak = self._weak[side]
        water = self._water
        moves: dict[str, Any] = {}
        for s, piece in enumerate(board):
            rank = piece * sign
            if rank <= 0:
                continue
            if rank == RAT:
                # The rat takes the rat anywhere, the elephant from land only (not from water).
                for to, text, move in swims[s]:
                    target = board[to] * sign
                    if target == 0 or (
                        target < 0
                        and (target == -RAT or weak[to] or (target == -ELEPHANT and not water[s]))
                    ):
                        moves[text] = move
                continue
            takes = self._takes[rank]
            for to, text, move in walks[s]:
                target = board[to] * sign
                if target == 0 or (target < 0 and (weak[to] or takes[-target])):
                    moves[text] = move
            if rank in (TIGER, LION):
                for to, text, move, over in jumps[s]:
                    for w in over:
                        if board[w]:  # only rats swim: a rat of either side blocks the jump
                            break
                    else:
                        target = board[to] * sign
                        if target == 0 or (target < 0 and (weak[to] or takes[-target])):
                            moves[text] = move
        return moves

    def _apply(self, pos: JunglePosition, move: Any) -> JunglePosition:
        start, to = move
        board = list(pos.board)
        captured = board[to]
        board[to] = board[start]
        board[start] = 0
        mover = pos.side
        win = None
        if captured:
            # Captures are irreversible: no earlier position can recur.
            if (min(board) if mover == 0 else -max(board)) >= 0:
                win = Result(SIDES[mover], RuleReason.NO_PIECES)
            return self._position(tuple(board), 1 - mover, 0, mover, history=(), win=win)
        if to == self._dens[1 - mover]:
            win = Result(SIDES[mover], RuleReason.DEN)
        history = (*pos.history, pos.digest)
        return self._position(
            tuple(board), 1 - mover, pos.plies + 1, pos.capturer, history=history, win=win
        )

    def _repetition_result(self, pos: JunglePosition) -> Result:
        if self.options.get("repetition", "draw") != "tiebreak":
            return Result(None, RuleReason.REPETITION)
        totals = self._totals(pos.board)
        if totals[0] != totals[1]:
            # The side with the larger total is the stronger one that failed to win.
            return Result(
                SIDES[0] if totals[0] < totals[1] else SIDES[1], RuleReason.REPETITION_TIEBREAK
            )
        if pos.capturer is None:
            return Result(None, RuleReason.REPETITION)
        return Result(SIDES[1 - pos.capturer], RuleReason.REPETITION_TIEBREAK)

    def _progress(self, pos: JunglePosition) -> int:
        return pos.plies

    def _encode(self, pos: JunglePosition) -> list[str]:
        squares = [
            None if p == 0 else LETTER_OF[p] if p > 0 else LETTER_OF[-p].lower() for p in pos.board
        ]
        capturer = CAPTURER_LETTERS[2 if pos.capturer is None else pos.capturer]
        return [
            format_board(squares, self.files),
            SIDE_LETTERS[pos.side],
            str(pos.plies),
            capturer,
        ]

    def _decode(self, fields: list[str], history: tuple[str, ...]) -> JunglePosition:
        text = " ".join([*fields, "".join(history)] if history else fields)
        if not fields[0].isascii():  # int() would read other scripts' digits as runs
            raise InvalidPositionError(f"the board must be ASCII in {text!r}")
        squares = parse_board(fields[0], self.files, self.ranks, PIECE_TOKEN, text, self.id)
        board = tuple(
            0 if c is None else RANK_OF[c] if c.isupper() else -RANK_OF[c.upper()] for c in squares
        )
        self._check_pieces(board, text)
        side = self._side_letter(fields[1], text)
        plies = self._counter(
            fields[2], "plies since the last capture", text, self.NO_PROGRESS_LIMIT
        )
        if fields[3] not in CAPTURER_LETTERS:
            raise InvalidPositionError(
                f"last capturer must be 'f', 's' or '-' (no capture yet), not {fields[3]!r} "
                f"in {text!r}"
            )
        capturer = None if fields[3] == "-" else SIDE_LETTERS.index(fields[3])
        if len(history) > plies:
            raise InvalidPositionError(
                f"{len(history)} earlier positions in the history but only {plies} plies since "
                f"the last capture in {text!r}"
            )
        if plies == 0 and capturer == side:
            raise InvalidPositionError(
                f"{SIDES[side]} made the capture of the last ply but is to move again in {text!r}"
            )
        win = self._ended(board, side, plies, capturer, text)
        return self._position(board, side, plies, capturer, history=history, win=win)

    def _describe(self) -> dict[str, Any]:
        weak = self._weak
        return {
            "squares": {
                "water": [n for s, n in enumerate(self.square_names) if self._water[s]],
                "traps": {SIDES[side]: list(TRAPS[side]) for side in (0, 1)},
                "dens": {SIDES[side]: DENS[side] for side in (0, 1)},
            },
            "pieces": [
                {
                    "letter": letter,
                    "name": animal,
                    "rank": rank,
                    "swims": rank == RAT,
                    "jumps_lakes": rank in (TIGER, LION),
                }
                for letter, animal, rank in ANIMALS
            ],
            # Where each side's pieces have rank 0 (set by the ``traps`` option): a piece of
            # side X is weak where an enemy of X, moving, finds it weak.
            "weak_squares": {
                SIDES[side]: [n for s, n in enumerate(self.square_names) if weak[1 - side][s]]
                for side in (0, 1)
            },
            "piece_case": {"first": "upper", "second": "lower"},
            "move_form": "<from><to>, lake jumps included (e.g. a3a4, d5a5)",
        }

    # ---- helpers -------------------------------------------------------------------------
    def _position(
        self,
        board: tuple[int, ...],
        side: int,
        plies: int,
        capturer: int | None,
        *,
        history: tuple[str, ...],
        win: Result | None,
    ) -> JunglePosition:
        pos = JunglePosition()
        # The repetition key: board and side to move only, not the counters.
        key = self._key.pack(*board, side)
        pos._init(
            board=board,
            side=side,
            plies=plies,
            capturer=capturer,
            history=history,
            digest=digest(key),
            win=win,
        )
        return pos

    @staticmethod
    def _totals(board: tuple[int, ...]) -> tuple[int, int]:
        """Total rank on the board of each side; a piece on a trap counts its full rank."""
        return sum(p for p in board if p > 0), -sum(p for p in board if p < 0)

    def _check_pieces(self, board: tuple[int, ...], text: str) -> None:
        seen: set[int] = set()
        for s, piece in enumerate(board):
            if piece == 0:
                continue
            owner = 0 if piece > 0 else 1
            rank = abs(piece)
            what = f"{SIDES[owner]}'s {ANIMAL_OF[rank]}"
            if piece in seen:
                raise InvalidPositionError(
                    f"{SIDES[owner]} has only one {ANIMAL_OF[rank]} but the board has more "
                    f"in {text!r}"
                )
            seen.add(piece)
            if s == self._dens[owner]:
                raise InvalidPositionError(
                    f"{what} stands in its own den {self.square_names[s]} in {text!r}"
                )
            if self._water[s] and rank != RAT:
                raise InvalidPositionError(
                    f"{what} stands in the water on {self.square_names[s]} "
                    f"(only rats swim) in {text!r}"
                )

    def _ended(
        self,
        board: tuple[int, ...],
        side: int,
        plies: int,
        capturer: int | None,
        text: str,
    ) -> Result | None:
        """The win the last move made, if the board shows one (a den entry, no pieces left)."""
        totals = self._totals(board)
        if totals == (0, 0):
            raise InvalidPositionError(f"the board is empty in {text!r}")
        endings: list[tuple[int, str]] = []  # (winner, reason)
        if board[self._dens[1]] > 0:
            endings.append((0, "den"))
        if board[self._dens[0]] < 0:
            endings.append((1, "den"))
        for loser in (0, 1):
            if totals[loser] == 0:
                endings.append((1 - loser, "no_pieces"))
        if not endings:
            return None
        if len(endings) > 1:
            raise InvalidPositionError(
                f"the game cannot have ended in two ways at once "
                f"({', '.join(f'{SIDES[w]} by {r}' for w, r in endings)}) in {text!r}"
            )
        winner, reason = endings[0]
        if side == winner:
            raise InvalidPositionError(
                f"{SIDES[winner]} has won by {reason} with its last move, so {SIDES[1 - winner]} "
                f"must be to move in {text!r}"
            )
        if reason == "den" and plies == 0:
            raise InvalidPositionError(
                f"entering the den is not a capture, so the plies since the last capture "
                f"cannot be 0 in {text!r}"
            )
        if reason == "no_pieces" and (plies != 0 or capturer != winner):
            raise InvalidPositionError(
                f"{SIDES[1 - winner]} has no piece left, so the last ply was {SIDES[winner]}'s "
                f"capture (plies 0, last capturer {SIDE_LETTERS[winner]!r}) in {text!r}"
            )
        return Result(SIDES[winner], RuleReason(reason))


GAME = Jungle
