"""What yote and wali share: 12 stones a side placed on an empty 6×5 board, then stepped.

The board, the hands, the move texts (``*c3``, ``c3c4``, ``c3c5xd2``: rules/README.md), the
expansion of an extra removal into one move text per removable enemy stone, the repetition
key and the checks of position strings live here once; yote.py and wali.py keep only the
rules that differ (rules/yote.md, rules/wali.md).
"""

from __future__ import annotations

import re
from abc import abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar, TypeVar

from ..core import (
    SIDE_LETTERS,
    SIDES,
    Game,
    Position,
    Result,
    RuleReason,
    digest,
    format_board,
    parse_board,
)
from ..errors import InvalidPositionError

# (origin, target, jumped, removed): squares from a1 = 0; NONE where the move has no such
# square. A placement has no origin, a step no jumped or removed square.
Move = tuple[int, int, int, int]
NONE = -1

STONES = 12  # each side's stones, all in hand at the start
STONE = (1, -1)  # the board value of each side's stone; 0 is an empty square
LETTERS = {1: "S", -1: "s"}
_TOKEN = re.compile("[Ss]")


class StonePosition(Position):
    """The board of stones from a1 (1 first, -1 second, 0 empty), both hands, one counter."""

    __slots__ = ("board", "hands", "quiet")

    board: tuple[int, ...]
    hands: tuple[int, int]  # stones each side still has to place
    quiet: int  # plies counted towards the no-progress draw


SP = TypeVar("SP", bound=StonePosition)


class StoneGame(Game[SP]):
    """The board, hands, move texts and position strings of the two stone games."""

    files: ClassVar[int] = 6
    ranks: ClassVar[int] = 5
    MOVE_SYNTAX: ClassVar[re.Pattern[str]] = re.compile(
        r"\*[a-f][1-5]|[a-f][1-5][a-f][1-5](?:x[a-f][1-5])?"
    )
    # What _describe tells a client, besides what the two games share.
    MOVE_FORMS: ClassVar[dict[str, str]]

    def __init__(self, options: Mapping[str, str]) -> None:
        super().__init__(options)
        size = self.files * self.ranks
        names = self.square_names
        orthogonal = ((0, 1), (1, 0), (0, -1), (-1, 0))
        # Orthogonal neighbours of each square, and (jumped, landing) pairs of each jump.
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(n for d in orthogonal if (n := self.offset(sq, *d, 1)) != NONE)
            for sq in range(size)
        )
        self.jumps: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple(
                (self.offset(sq, *d, 1), land)
                for d in orthogonal
                if (land := self.offset(sq, *d, 2)) != NONE
            )
            for sq in range(size)
        )
        # Move texts, built once: a placement, a step or jump by its two squares, a removal.
        self.placements: tuple[tuple[str, Move], ...] = tuple(
            ("*" + names[sq], (NONE, sq, NONE, NONE)) for sq in range(size)
        )
        self.travel_texts: tuple[tuple[str, ...], ...] = tuple(
            tuple(names[a] + names[b] for b in range(size)) for a in range(size)
        )
        self.removal_texts: tuple[str, ...] = tuple("x" + n for n in names)
        self.step_by_text: dict[str, tuple[int, int]] = {
            self.travel_texts[a][b]: (a, b) for a in range(size) for b in self.neighbours[a]
        }

    def offset(self, sq: int, file_step: int, rank_step: int, distance: int) -> int:
        """The square ``distance`` steps of (file_step, rank_step) away from ``sq``, or NONE."""
        file = sq % self.files + file_step * distance
        rank = sq // self.files + rank_step * distance
        if 0 <= file < self.files and 0 <= rank < self.ranks:
            return rank * self.files + file
        return NONE

    # ---- move generation shared by both games --------------------------------------------
    def _add_placements(
        self, table: dict[str, Any], board: tuple[int, ...], barred: set[int] | None = None
    ) -> None:
        """Every placement on an empty square not in ``barred``."""
        placements = self.placements
        for sq, value in enumerate(board):
            if not value and (barred is None or sq not in barred):
                text, move = placements[sq]
                table[text] = move

    def _add_removals(
        self,
        table: dict[str, Any],
        origin: int,
        target: int,
        jumped: int,
        removable: list[int],
    ) -> None:
        """The move with one text per removable enemy stone, or plain when there is none."""
        text = self.travel_texts[origin][target]
        if not removable:
            table[text] = (origin, target, jumped, NONE)
            return
        suffixes = self.removal_texts
        for sq in removable:
            table[text + suffixes[sq]] = (origin, target, jumped, sq)

    @staticmethod
    def _one_placed(hands: tuple[int, int], side: int) -> tuple[int, int]:
        """The hands after ``side`` placed a stone."""
        return (hands[0] - 1, hands[1]) if side == 0 else (hands[0], hands[1] - 1)

    # ---- results and the repetition key ---------------------------------------------------
    @staticmethod
    def _no_pieces(board: tuple[int, ...], hands: tuple[int, int], side: int) -> Result | None:
        """The win of the other side when ``side`` has no stone left, on the board or in hand."""
        if hands[side] or STONE[side] in board:
            return None
        return Result(SIDES[1 - side], RuleReason.NO_PIECES)

    @staticmethod
    def _key(board: tuple[int, ...], hands: tuple[int, int], side: int, extra: bytes) -> str:
        """The digest of the repetition key: board, hands, side to move, the game's ``extra``."""
        return digest(bytes([v + 1 for v in board]) + bytes((*hands, side)) + extra)

    def _progress(self, pos: SP) -> int:
        return pos.quiet

    # ---- position strings -----------------------------------------------------------------
    def _encode(self, pos: SP) -> list[str]:
        board = format_board([LETTERS.get(v) for v in pos.board], self.files)
        hands = [str(n) for n in pos.hands]
        return [board, SIDE_LETTERS[pos.side], *hands, *self._extra_fields(pos), str(pos.quiet)]

    def _extra_fields(self, pos: SP) -> list[str]:
        """The game's own fields between the hands and the counter."""
        return []

    def _decode(self, fields: list[str], history: tuple[str, ...]) -> SP:
        # The input, rebuilt for messages (core has checked that one space separates fields).
        text = " ".join(fields + (["".join(history)] if history else []))
        cells = parse_board(fields[0], self.files, self.ranks, _TOKEN, text, self.id)
        board = tuple(0 if c is None else 1 if c == "S" else -1 for c in cells)
        side = self._side_letter(fields[1], text)
        hands = (
            self._counter(fields[2], "first's hand", text, STONES),
            self._counter(fields[3], "second's hand", text, STONES),
        )
        for s in (0, 1):
            if board.count(STONE[s]) + hands[s] > STONES:
                raise InvalidPositionError(
                    f"{SIDES[s]} has more than {STONES} stones on the board and in hand in {text!r}"
                )
        quiet = self._counter(fields[-1], "the no-progress counter", text, self.NO_PROGRESS_LIMIT)
        if len(history) > quiet:
            raise InvalidPositionError(
                f"the history holds {len(history)} positions, more than the {quiet} plies of the"
                f" no-progress counter (both start again at each irreversible move) in {text!r}"
            )
        if not any(board):
            if side or hands != (STONES, STONES):
                raise InvalidPositionError(
                    f"the board is empty only at the start, with first to move and"
                    f" {STONES} stones in each hand, in {text!r}"
                )
        elif STONE[1 - side] not in board:
            raise InvalidPositionError(
                f"{SIDES[1 - side]} has just moved, so it has a stone on the board, in {text!r}"
            )
        return self._decode_rest(board, side, hands, quiet, fields[4:-1], history, text)

    @abstractmethod
    def _decode_rest(
        self,
        board: tuple[int, ...],
        side: int,
        hands: tuple[int, int],
        quiet: int,
        fields: list[str],
        history: tuple[str, ...],
        text: str,
    ) -> SP:
        """The game's own checks and fields (those between the hands and the counter)."""
        ...

    def _describe(self) -> dict[str, Any]:
        return {
            "family": "stones",
            "pieces": [
                {"letter": "S", "side": "first", "name": "stone", "color": "light"},
                {"letter": "s", "side": "second", "name": "stone", "color": "dark"},
            ],
            "piece_case": {"first": "upper", "second": "lower"},
            "hands": {"first": STONES, "second": STONES},
            "move_forms": dict(self.MOVE_FORMS),
        }
