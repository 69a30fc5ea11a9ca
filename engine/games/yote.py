"""Yoté (rules/yote.md): place or step a stone; a jump captures, then removes a second stone.

Position string: ``<board> <side> <first hand> <second hand> <first's last step>
<second's last step> <plies without placement or capture>``, e.g. the start
``6/6/6/6/6 f 12 12 - - 0``. A last step is the side's most recent move when it was a plain
step (``c3c4``), else ``-``: it is what the no-take-back rule needs.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..core import SIDES, CaptureMarks, Result
from ..errors import InvalidMoveError, InvalidPositionError
from .placement import NONE, STONE, STONES, Move, StoneGame, StonePosition

Step = tuple[int, int]  # (origin, target)


class YotePosition(StonePosition):
    """Adds each side's most recent move when it was a plain step, for the take-back rule."""

    __slots__ = ("last_steps",)

    last_steps: tuple[Step | None, Step | None]


class Yote(StoneGame[YotePosition]):
    id: ClassVar[str] = "yote"
    name: ClassVar[str] = "Yoté"
    POSITION: ClassVar[type[YotePosition]] = YotePosition
    TEXT_FIELDS: ClassVar[int] = 7
    NO_PROGRESS_LIMIT: ClassVar[int] = 50
    MOVE_FORMS: ClassVar[dict[str, str]] = {
        "placement": "*c3",
        "step": "c3c4",
        "capture": "c3c5xd2 (jump over c4, then remove d2); c3c5 when no enemy stone is left",
    }

    def _start(self) -> YotePosition:
        return self._position((0,) * len(self.square_names), 0, (STONES, STONES), (None, None), 0)

    def _generate(self, pos: YotePosition) -> dict[str, Any]:
        board = pos.board
        stone = STONE[pos.side]
        enemy = -stone
        table: dict[str, Any] = {}
        if pos.hands[pos.side]:
            self._add_placements(table, board)
        taken_back = self._take_back(board, pos.side, pos.last_steps)
        travel_texts = self.travel_texts
        neighbours = self.neighbours
        jumps = self.jumps
        enemies: list[int] | None = None
        for origin, value in enumerate(board):
            if value != stone:
                continue
            texts = travel_texts[origin]
            for target in neighbours[origin]:
                if not board[target] and (origin, target) != taken_back:
                    table[texts[target]] = (origin, target, NONE, NONE)
            for jumped, target in jumps[origin]:
                if board[jumped] == enemy and not board[target]:
                    if enemies is None:
                        enemies = [sq for sq, v in enumerate(board) if v == enemy]
                    # The second removal: any enemy stone still on the board after the jump.
                    removable = [sq for sq in enemies if sq != jumped]
                    self._add_removals(table, origin, target, jumped, removable)
        return table

    def _apply(self, pos: YotePosition, move: Move) -> YotePosition:
        origin, target, jumped, removed = move
        side = pos.side
        board = list(pos.board)
        board[target] = STONE[side]
        hands = pos.hands
        last_steps = list(pos.last_steps)
        history: tuple[str, ...] = ()
        if origin == NONE:
            hands = self._one_placed(hands, side)
            last_steps[side] = None
            quiet = 0
        elif jumped == NONE:
            board[origin] = 0
            last_steps[side] = (origin, target)
            quiet, history = pos.quiet + 1, (*pos.history, pos.digest)
        else:
            board[origin] = board[jumped] = 0
            if removed != NONE:
                board[removed] = 0
            last_steps[side] = None
            quiet = 0
        after = tuple(board)
        return self._position(
            after,
            1 - side,
            hands,
            (last_steps[0], last_steps[1]),
            quiet,
            history,
            self._no_pieces(after, hands, 1 - side),
        )

    def _capture_marks(self, after: YotePosition, text: str) -> CaptureMarks:
        """A jump (two squares along a rank or file) took the stone between its squares."""
        if text.startswith("*"):
            return CaptureMarks()
        origin, target = self.square_index[text[:2]], self.square_index[text[2:4]]
        if target in self.neighbours[origin]:
            return CaptureMarks()
        for jumped, land in self.jumps[origin]:
            if land == target:
                return CaptureMarks(jumped=(self.square_names[jumped],))
        raise InvalidMoveError(f"not a yote step or jump: {text!r}")

    # ---- helpers -------------------------------------------------------------------------
    @staticmethod
    def _take_back(
        board: tuple[int, ...], side: int, last_steps: tuple[Step | None, Step | None]
    ) -> Step | None:
        """The step ``side`` may not play: its last step reversed, if the stone can go back."""
        step = last_steps[side]
        if step is None:
            return None
        origin, target = step
        if board[target] == STONE[side] and not board[origin]:
            return (target, origin)
        return None

    def _position(
        self,
        board: tuple[int, ...],
        side: int,
        hands: tuple[int, int],
        last_steps: tuple[Step | None, Step | None],
        quiet: int,
        history: tuple[str, ...] = (),
        win: Result | None = None,
    ) -> YotePosition:
        pos = YotePosition()
        # The side to move's take-back restriction is part of the position when it forbids a
        # step (rules/yote.md); the other side's forbids nothing yet.
        taken_back = self._take_back(board, side, last_steps)
        extra = b"" if taken_back is None else bytes(taken_back)
        pos._init(
            board=board,
            side=side,
            hands=hands,
            last_steps=last_steps,
            quiet=quiet,
            history=history,
            digest=self._key(board, hands, side, extra),
            win=win,
        )
        return pos

    def _extra_fields(self, pos: YotePosition) -> list[str]:
        texts = self.travel_texts
        return ["-" if s is None else texts[s[0]][s[1]] for s in pos.last_steps]

    def _decode_rest(
        self,
        board: tuple[int, ...],
        side: int,
        hands: tuple[int, int],
        quiet: int,
        fields: list[str],
        history: tuple[str, ...],
        text: str,
    ) -> YotePosition:
        steps: list[Step | None] = []
        for s, field in enumerate(fields):
            step = None if field == "-" else self.step_by_text.get(field)
            if step is None and field != "-":
                raise InvalidPositionError(
                    f"{SIDES[s]}'s last step must be '-' or a step such as 'c3c4', not"
                    f" {field!r}, in {text!r}"
                )
            steps.append(step)
        mover_step, last_step = steps[side], steps[1 - side]
        stone = STONE[side]
        if last_step is not None:
            # The move just played: nothing has touched either square since.
            origin, target = last_step
            if board[target] != -stone or board[origin]:
                raise InvalidPositionError(
                    f"{SIDES[1 - side]}'s last step {fields[1 - side]!r} does not fit the board"
                    f" in {text!r}"
                )
        if mover_step is not None:
            # The opponent has moved once since: a placement or capture may have filled the
            # square left and a capture taken the stone; a step can only have filled it.
            origin, target = mover_step
            if last_step is None:
                fits = board[target] != -stone and board[origin] != stone
            else:
                fits = board[target] == stone and (not board[origin] or origin == last_step[1])
            if not fits:
                raise InvalidPositionError(
                    f"{SIDES[side]}'s last step {fields[side]!r} does not fit the board in {text!r}"
                )
        # A step is the one move that does not reset the counter: it runs exactly when the
        # side that just moved stepped, and then passes 1 exactly when the side to move did too.
        if (quiet > 0) != (last_step is not None) or (
            quiet > 0 and (quiet > 1) != (mover_step is not None)
        ):
            raise InvalidPositionError(
                f"the no-progress counter {quiet} does not fit the last steps"
                f" (it counts the plies since the last placement or capture) in {text!r}"
            )
        last_steps = (steps[0], steps[1])
        win = self._no_pieces(board, hands, side)
        return self._position(board, side, hands, last_steps, quiet, history, win)

    def _describe(self) -> dict[str, Any]:
        data = super()._describe()
        data["capture"] = "jump + one more enemy stone of the capturer's choice"
        return data


GAME = Yote
