"""Col on 3×3, the tests' toy game: an engine module as a real game's, nothing more.

Players place stones in turn, five each in hand; a stone may not go next to (orthogonally)
a stone of its own side. A player who cannot place loses. Position string:
``<board> <side> <first hand> <second hand>``, the start ``3/3/3 f 5 5``.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from engine.core import (
    SIDE_LETTERS,
    SIDES,
    Game,
    Position,
    digest,
    format_board,
    parse_board,
)
from engine.errors import InvalidPositionError

STONES = 5
STONE = (1, -1)
_TOKEN = re.compile("[Ss]")


class ColPosition(Position):
    __slots__ = ("board", "hands")

    board: tuple[int, ...]  # from a1: 1 first, -1 second, 0 empty
    hands: tuple[int, int]


class Col(Game[ColPosition]):
    id: ClassVar[str] = "col"
    name: ClassVar[str] = "Col"
    files: ClassVar[int] = 3
    ranks: ClassVar[int] = 3
    POSITION: ClassVar[type[ColPosition]] = ColPosition
    TEXT_FIELDS: ClassVar[int] = 4
    MOVE_SYNTAX: ClassVar[re.Pattern[str]] = re.compile(r"\*[a-c][1-3]")

    def _start(self) -> ColPosition:
        return self._position((0,) * 9, 0, (STONES, STONES))

    def _generate(self, pos: ColPosition) -> dict[str, Any]:
        if not pos.hands[pos.side]:
            return {}
        own = STONE[pos.side]
        return {
            "*" + name: sq
            for sq, name in enumerate(self.square_names)
            if not pos.board[sq] and own not in (pos.board[n] for n in self._neighbours(sq))
        }

    def _apply(self, pos: ColPosition, move: int) -> ColPosition:
        board = list(pos.board)
        board[move] = STONE[pos.side]
        hands = (
            (pos.hands[0] - 1, pos.hands[1]) if pos.side == 0 else (pos.hands[0], pos.hands[1] - 1)
        )
        return self._position(tuple(board), 1 - pos.side, hands)

    def _encode(self, pos: ColPosition) -> list[str]:
        board = format_board([{1: "S", -1: "s"}.get(v) for v in pos.board], self.files)
        return [board, SIDE_LETTERS[pos.side], str(pos.hands[0]), str(pos.hands[1])]

    def _decode(self, fields: list[str], history: tuple[str, ...]) -> ColPosition:
        text = " ".join(fields)
        if history:
            raise InvalidPositionError(f"a col position has no history field: {text!r}")
        cells = parse_board(fields[0], self.files, self.ranks, _TOKEN, text, self.id)
        board = tuple(0 if c is None else 1 if c == "S" else -1 for c in cells)
        hands = (
            self._counter(fields[2], "first's hand", text, STONES),
            self._counter(fields[3], "second's hand", text, STONES),
        )
        for s in (0, 1):
            if board.count(STONE[s]) + hands[s] != STONES:
                raise InvalidPositionError(f"{SIDES[s]} has not {STONES} stones in {text!r}")
        return self._position(board, self._side_letter(fields[1], text), hands)

    def _describe(self) -> dict[str, Any]:
        return {
            "family": "stones",
            "pieces": [
                {"letter": "S", "side": "first", "name": "stone", "color": "light"},
                {"letter": "s", "side": "second", "name": "stone", "color": "dark"},
            ],
            "piece_case": {"first": "upper", "second": "lower"},
            "hands": {"first": STONES, "second": STONES},
            "move_forms": {"placement": "*b2"},
        }

    def _neighbours(self, sq: int) -> list[int]:
        file, rank = sq % 3, sq // 3
        steps = ((0, 1), (0, -1), (1, 0), (-1, 0))
        return [
            (rank + dr) * 3 + file + df
            for df, dr in steps
            if 0 <= file + df < 3 and 0 <= rank + dr < 3
        ]

    @staticmethod
    def _position(board: tuple[int, ...], side: int, hands: tuple[int, int]) -> ColPosition:
        pos = ColPosition()
        key = digest(bytes([v + 1 for v in board]) + bytes((*hands, side)))
        pos._init(board=board, side=side, hands=hands, history=(), digest=key, win=None)
        return pos


GAME = Col
