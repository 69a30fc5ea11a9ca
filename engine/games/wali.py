"""Wali (rules/wali.md): place without making three in a row, then step to form lines of three.

Position string: ``<board> <side> <first hand> <second hand> <plies without removal>``, e.g.
the start ``6/6/6/6/6 f 12 12 0``. Phase 2 (moving) is exactly when both hands are 0: the
stones still in hand when neither side can place are set aside for good.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ..core import SIDES, CaptureMarks, Result
from ..errors import InvalidMoveError, InvalidPositionError
from .placement import NONE, STONE, STONES, Move, StoneGame, StonePosition

PLACEMENT, MOVING = 1, 2


class WaliPosition(StonePosition):
    """The phase is not stored: it is phase 2 (moving) exactly when both hands are empty."""

    __slots__ = ()

    @property
    def phase(self) -> int:
        return PLACEMENT if any(self.hands) else MOVING


class Wali(StoneGame[WaliPosition]):
    id: ClassVar[str] = "wali"
    name: ClassVar[str] = "Wali"
    POSITION: ClassVar[type[WaliPosition]] = WaliPosition
    TEXT_FIELDS: ClassVar[int] = 5
    NO_PROGRESS_LIMIT: ClassVar[int] = 100
    MOVE_FORMS: ClassVar[dict[str, str]] = {
        "placement": "*c3 (phase 1)",
        "step": "c3c4 (phase 2)",
        "capture": "c3c4xd5 (phase 2: the step forms a line of 3+, then d5 is removed)",
    }

    def __init__(self, options: Mapping[str, str]) -> None:
        super().__init__(options)
        size = self.files * self.ranks
        # Every three contiguous squares of a rank or a file: the lines of three.
        self.triples: tuple[tuple[int, int, int], ...] = tuple(
            (sq, self.offset(sq, *d, 1), self.offset(sq, *d, 2))
            for d in ((1, 0), (0, 1))
            for sq in range(size)
            if self.offset(sq, *d, 2) != NONE
        )
        # For each square, the two other squares of every triple through it.
        self.triples_at: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple(
                (a, b) if sq == c else (a, c) if sq == b else (b, c)
                for a, b, c in self.triples
                if sq in (a, b, c)
            )
            for sq in range(size)
        )

    def _start(self) -> WaliPosition:
        return self._position((0,) * len(self.square_names), 0, (STONES, STONES), 0)

    def _generate(self, pos: WaliPosition) -> dict[str, Any]:
        board = pos.board
        stone = STONE[pos.side]
        table: dict[str, Any] = {}
        if pos.phase == PLACEMENT:
            self._add_placements(table, board, self._barred(board, stone))
            return table
        travel_texts = self.travel_texts
        neighbours = self.neighbours
        enemies: list[int] | None = None
        for origin, value in enumerate(board):
            if value != stone:
                continue
            texts = travel_texts[origin]
            for target in neighbours[origin]:
                if board[target]:
                    continue
                if self._forms_line(board, stone, origin, target):
                    if enemies is None:
                        enemies = [sq for sq, v in enumerate(board) if v == -stone]
                    self._add_removals(table, origin, target, NONE, enemies)
                else:
                    table[texts[target]] = (origin, target, NONE, NONE)
        return table

    def _apply(self, pos: WaliPosition, move: Move) -> WaliPosition:
        origin, target, _, removed = move
        side = pos.side
        board = list(pos.board)
        board[target] = STONE[side]
        if origin == NONE:
            hands = self._one_placed(pos.hands, side)
            after = tuple(board)
            # Automatic passes (rules/wali.md, Decision): the turn goes to whoever can place,
            # the other side first; when neither can, phase 2 begins with the other side.
            if self._can_place(after, hands, 1 - side):
                return self._position(after, 1 - side, hands, 0)
            if self._can_place(after, hands, side):
                return self._position(after, side, hands, 0)
            return self._position(after, 1 - side, (0, 0), 0)
        board[origin] = 0
        if removed == NONE:
            after = tuple(board)
            return self._position(
                after, 1 - side, pos.hands, pos.quiet + 1, (*pos.history, pos.digest)
            )
        board[removed] = 0
        after = tuple(board)
        win = self._no_pieces(after, pos.hands, 1 - side)
        return self._position(after, 1 - side, pos.hands, 0, (), win)

    def _capture_marks(self, after: WaliPosition, text: str) -> CaptureMarks:
        """A step that took a stone made a line: every line of three through its target
        whose squares all hold the mover's stone (the mover's stone stands on the target)."""
        if "x" not in text:
            return CaptureMarks()
        target = self.square_index[text[2:4]]
        stone = after.board[target]
        if not stone:
            raise InvalidMoveError(f"{text!r} did not lead to this position")
        line = {target}
        for a, b in self.triples_at[target]:
            if after.board[a] == stone and after.board[b] == stone:
                line.update((a, b))
        names = self.square_names
        return CaptureMarks(line=tuple(names[sq] for sq in sorted(line)))

    # ---- helpers -------------------------------------------------------------------------
    def _barred(self, board: tuple[int, ...], stone: int) -> set[int]:
        """The empty squares where a placed ``stone`` would make three in a row."""
        two = 2 * stone
        barred: set[int] = set()
        for a, b, c in self.triples:
            # Two own stones and an empty square: no other mix of values sums to 2 * stone.
            if board[a] + board[b] + board[c] == two:
                barred.add(a if not board[a] else b if not board[b] else c)
        return barred

    def _forms_line(self, board: tuple[int, ...], stone: int, origin: int, target: int) -> bool:
        """Whether the stone stepping from ``origin`` to ``target`` ends in a line of 3+."""
        for a, b in self.triples_at[target]:
            if board[a] == stone and board[b] == stone and origin not in (a, b):
                return True
        return False

    def _can_place(self, board: tuple[int, ...], hands: tuple[int, int], side: int) -> bool:
        """Whether ``side`` has a stone in hand and an empty square that makes no line of 3."""
        if not hands[side]:
            return False
        # Every barred square is empty, so some empty square is left exactly when there are
        # more empty squares than barred ones.
        return board.count(0) > len(self._barred(board, STONE[side]))

    def _position(
        self,
        board: tuple[int, ...],
        side: int,
        hands: tuple[int, int],
        quiet: int,
        history: tuple[str, ...] = (),
        win: Result | None = None,
    ) -> WaliPosition:
        pos = WaliPosition()
        phase = PLACEMENT if any(hands) else MOVING
        pos._init(
            board=board,
            side=side,
            hands=hands,
            quiet=quiet,
            history=history,
            digest=self._key(board, hands, side, bytes((phase,))),
            win=win,
        )
        return pos

    def _decode_rest(
        self,
        board: tuple[int, ...],
        side: int,
        hands: tuple[int, int],
        quiet: int,
        fields: list[str],
        history: tuple[str, ...],
        text: str,
    ) -> WaliPosition:
        if any(hands):
            for s in (0, 1):
                if board.count(STONE[s]) + hands[s] != STONES:
                    raise InvalidPositionError(
                        f"no stone is removed in phase 1: {SIDES[s]} must have {STONES} stones"
                        f" on the board and in hand in {text!r}"
                    )
            for a, b, c in self.triples:
                if abs(board[a] + board[b] + board[c]) == 3:
                    names = self.square_names
                    raise InvalidPositionError(
                        f"three stones in a row on {names[a]} {names[b]} {names[c]} cannot be"
                        f" placed in phase 1, in {text!r}"
                    )
            if not self._can_place(board, hands, side):
                raise InvalidPositionError(
                    f"{SIDES[side]} cannot place a stone, so it would have passed"
                    f" (and with neither side able to place, phase 2 has both hands 0)"
                    f" in {text!r}"
                )
            # Sides alternate until one can no longer place, which lasts (stones never leave
            # in phase 1); from then on the other places alone and gets ahead.
            ahead = hands[1 - side] - hands[side] + side  # placements beyond alternation
            if ahead < 0 or (ahead > 0 and self._can_place(board, hands, 1 - side)):
                raise InvalidPositionError(
                    f"{SIDES[side]} is not to move after {STONES - hands[0]} placements by"
                    f" first and {STONES - hands[1]} by second, in {text!r}"
                )
            if quiet:
                raise InvalidPositionError(
                    f"the no-progress counter runs in phase 2 only, not {quiet}, in {text!r}"
                )
        return self._position(
            board, side, hands, quiet, history, self._no_pieces(board, hands, side)
        )

    def _describe(self) -> dict[str, Any]:
        data = super()._describe()
        data["phases"] = [
            {
                "phase": PLACEMENT,
                "name": "placement",
                "moves": ["placement"],
                "when": "while a hand is not empty",
            },
            {
                "phase": MOVING,
                "name": "moving",
                "moves": ["step", "capture"],
                "when": "both hands 0 (stones that cannot be placed are set aside)",
            },
        ]
        data["capture"] = (
            "a step that makes a line of 3+ removes one enemy stone of the mover's choice"
        )
        return data


GAME = Wali
