"""What every game shares: the position base, results, history hashing and the game protocol.

A game subclass supplies five hooks (``_start``, ``_generate``, ``_apply``, ``_encode``,
``_decode``) plus its ``describe`` data; this module turns them into the public interface
(``legal_moves``, ``play``, ``result``, ``to_text``, ``from_text``) with the same error
handling, caching and end-of-game order (rules/README.md, "When several endings hold") for all.
"""

from __future__ import annotations

import base64
import hashlib
import re
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Generic, TypeVar

from .errors import (
    EngineError,
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
)


class Side(StrEnum):
    """A player's side. A ``StrEnum``: equal to its text, and JSON writes it as the text."""

    FIRST = "first"
    SECOND = "second"

    @property
    def other(self) -> Side:
        return Side.SECOND if self is Side.FIRST else Side.FIRST


SIDES = (Side.FIRST, Side.SECOND)
SIDE_LETTERS = ("f", "s")


class RuleReason(StrEnum):
    """Why the rules ended a game, as the rules pages name it."""

    CHECKMATE = "checkmate"
    CAPTURE = "capture"
    TRY = "try"
    DEN = "den"
    NO_PIECES = "no_pieces"
    NO_MOVES = "no_moves"
    REPETITION = "repetition"
    REPETITION_TIEBREAK = "repetition_tiebreak"
    NO_PROGRESS = "no_progress"


REASONS = tuple(RuleReason)

HASH_CHARS = 8  # 48-bit digests, base64url: 8 characters each in the history field


@dataclass(frozen=True, slots=True)
class Result:
    """The end of a game by the rules: ``winner`` is a side, or None (a draw)."""

    winner: Side | None
    reason: RuleReason

    def to_dict(self) -> dict[str, str | None]:
        return {"winner": self.winner, "reason": self.reason}


def digest(data: bytes) -> str:
    """A stable 8-character digest of a position key (the same in every process and version)."""
    return base64.urlsafe_b64encode(hashlib.blake2b(data, digest_size=6).digest()).decode()


class Position:
    """Base of every game's immutable position value.

    ``history`` holds the digests of the earlier positions that can still recur (those since
    the last irreversible move), oldest first; ``digest`` is this position's own.
    ``win`` is the result the move that led here made by itself (try, capture, den,
    no_pieces), which outranks every other ending. ``_table`` caches the legal moves.
    """

    __slots__ = ("_result", "_table", "digest", "history", "side", "win")

    side: int
    history: tuple[str, ...]
    digest: str
    win: Result | None
    _table: dict[str, Any] | None
    _result: Result | bool | None

    def repetitions(self) -> int:
        """How many times this position has occurred, this time included."""
        return self.history.count(self.digest) + 1

    def __setattr__(self, name: str, value: object) -> None:
        if name in ("_table", "_result"):
            object.__setattr__(self, name, value)
            return
        raise AttributeError(f"positions are immutable: cannot set {name!r}")

    def _init(self, **fields: Any) -> None:
        for name, value in fields.items():
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_table", None)
        object.__setattr__(self, "_result", False)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, s) == getattr(other, s) for s in self._value_slots())

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, s) for s in self._value_slots()))

    def _value_slots(self) -> list[str]:
        names: list[str] = []
        for klass in type(self).__mro__:
            for s in getattr(klass, "__slots__", ()):
                if not s.startswith("_"):
                    names.append(s)
        return names

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.side} {self.digest}>"


P = TypeVar("P", bound=Position)


@dataclass(frozen=True, slots=True)
class CaptureMarks:
    """The squares a move captured with, besides its own origin and target (for showing
    the last move): the stone a yote jump took (``jumped``), the line of three a wali step
    made to take a stone (``line``, the target included); empty in the other games."""

    jumped: tuple[str, ...] = ()
    line: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, list[str]]:
        return {"jumped": list(self.jumped), "line": list(self.line)}


@dataclass(frozen=True, slots=True)
class Option:
    """A rule option: allowed values, the first being the default."""

    name: str
    values: tuple[str, ...]
    description: str

    @property
    def default(self) -> str:
        return self.values[0]

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "default": self.default,
            "values": list(self.values),
            "description": self.description,
        }


class Game(ABC, Generic[P]):
    """The public interface shared by all five games (its names are fixed)."""

    id: ClassVar[str]
    name: ClassVar[str]
    files: ClassVar[int]
    ranks: ClassVar[int]
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    POSITION: ClassVar[type[Position]]
    # Number of fields of the position string, the optional history field not counted.
    TEXT_FIELDS: ClassVar[int]
    # Matches any syntactically valid move text of this game (legal or not).
    MOVE_SYNTAX: ClassVar[re.Pattern[str]]
    # Plies without progress that end the game as a draw; 0 = no such rule.
    NO_PROGRESS_LIMIT: ClassVar[int] = 0

    def __init__(self, options: Mapping[str, str]) -> None:
        self.options: dict[str, str] = dict(options)
        self.square_names: tuple[str, ...] = tuple(
            chr(ord("a") + i % self.files) + str(i // self.files + 1)
            for i in range(self.files * self.ranks)
        )
        self.square_index: dict[str, int] = {n: i for i, n in enumerate(self.square_names)}

    # ---- hooks for the games -------------------------------------------------------------
    @abstractmethod
    def _start(self) -> P: ...

    @abstractmethod
    def _generate(self, pos: P) -> dict[str, Any]:
        """Every legal move of the side to move: canonical text -> internal move."""
        ...

    @abstractmethod
    def _apply(self, pos: P, move: Any) -> P: ...

    def _no_move_result(self, pos: P) -> Result:
        """The result when the side to move has no legal move (default: it loses)."""
        return Result(SIDES[1 - pos.side], RuleReason.NO_MOVES)

    def _repetition_result(self, pos: P) -> Result:
        return Result(None, RuleReason.REPETITION)

    def _progress(self, pos: P) -> int:
        """Plies counted towards the no-progress draw (games with such a rule override)."""
        return 0

    @abstractmethod
    def _encode(self, pos: P) -> list[str]:
        """The position's fields, without the history field."""
        ...

    @abstractmethod
    def _decode(self, fields: list[str], history: tuple[str, ...]) -> P: ...

    @abstractmethod
    def _describe(self) -> dict[str, Any]: ...

    # ---- public interface ----------------------------------------------------------------
    def start(self) -> P:
        return self._start()

    def side_to_move(self, pos: P) -> Side:
        self._check_position(pos)
        return SIDES[pos.side]

    def legal_moves(self, pos: P) -> list[str]:
        """Every legal move, as canonical texts, sorted; [] when the game is over."""
        self._check_position(pos)
        if self.result(pos) is not None:
            return []
        return sorted(self._moves(pos))

    def play(self, pos: P, text: str) -> P:
        """The position after ``text``; ``pos`` is unchanged."""
        self._check_position(pos)
        if not isinstance(text, str):
            raise InvalidMoveError(f"not a move text: {text!r} (expected a string)")
        result = self.result(pos)
        if result is not None:
            raise GameOverError(
                f"cannot play {text!r}: the game is over ({self._result_words(result)})"
                f" in {self.to_text(pos)}"
            )
        move = self._moves(pos).get(text)
        if move is None:
            if self.MOVE_SYNTAX.fullmatch(text) is None:
                raise InvalidMoveError(
                    f"not a {self.id} move text: {text!r} in {self.to_text(pos)}"
                )
            raise IllegalMoveError(f"illegal move: {text!r} in {self.to_text(pos)}")
        return self._apply(pos, move)

    def capture_marks(self, after: P, text: str) -> CaptureMarks:
        """What ``text``, the move that led to ``after``, captured with (CaptureMarks)."""
        self._check_position(after)
        if not isinstance(text, str) or self.MOVE_SYNTAX.fullmatch(text) is None:
            raise InvalidMoveError(f"not a {self.id} move text: {text!r}")
        return self._capture_marks(after, text)

    def _capture_marks(self, after: P, text: str) -> CaptureMarks:
        return CaptureMarks()

    def in_check(self, pos: P) -> bool:
        """Whether the side to move's royal piece is attacked (shogi games; else False)."""
        self._check_position(pos)
        return False

    def result(self, pos: P) -> Result | None:
        """None while the game goes on, else its Result (rules/README.md order)."""
        self._check_position(pos)
        cached = pos._result
        if cached is not False:
            return cached  # type: ignore[return-value]
        result: Result | None
        if pos.win is not None:
            result = pos.win
        elif not self._moves(pos):
            result = self._no_move_result(pos)
        elif pos.repetitions() >= 3:
            result = self._repetition_result(pos)
        elif self.NO_PROGRESS_LIMIT and self._progress(pos) >= self.NO_PROGRESS_LIMIT:
            result = Result(None, RuleReason.NO_PROGRESS)
        else:
            result = None
        pos._result = result
        return result

    def to_text(self, pos: P) -> str:
        self._check_position(pos)
        fields = self._encode(pos)
        if pos.history:
            fields.append("".join(pos.history))
        return " ".join(fields)

    def from_text(self, text: str) -> P:
        if not isinstance(text, str):
            raise InvalidPositionError(f"not a position string: {text!r}")
        fields = text.split(" ")
        if not text or any(not f for f in fields) or text != text.strip():
            raise InvalidPositionError(
                f"not a {self.id} position string: {text!r} (fields are separated by one space)"
            )
        count = self.TEXT_FIELDS
        if len(fields) == count + 1:
            history = self._decode_history(fields.pop(), text)
        elif len(fields) == count:
            history = ()
        else:
            raise InvalidPositionError(
                f"not a {self.id} position string: {text!r} "
                f"(expected {count} fields, and a history field after them when there is one)"
            )
        try:
            return self._decode(fields, history)
        except EngineError:
            raise
        except (ValueError, IndexError, KeyError) as exc:  # defensive: never leak
            raise InvalidPositionError(f"invalid {self.id} position {text!r}: {exc}") from None

    def describe(self) -> dict[str, Any]:
        """JSON-ready metadata for clients: board, special squares, pieces, options, start."""
        data: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "board": {"files": self.files, "ranks": self.ranks},
            "sides": list(SIDES),
            "options": [o.describe() for o in self.OPTIONS],
            "rules": dict(self.options),
            "start": self.to_text(self.start()),
        }
        data.update(self._describe())
        return data

    # ---- shared helpers ------------------------------------------------------------------
    def _moves(self, pos: P) -> dict[str, Any]:
        table = pos._table
        if table is None:
            table = {} if pos.win is not None else self._generate(pos)
            pos._table = table
        return table

    def _check_position(self, pos: object) -> None:
        if type(pos) is not self.POSITION:
            raise InvalidPositionError(f"not a {self.id} position: {pos!r}")

    @staticmethod
    def _result_words(result: Result) -> str:
        if result.winner is None:
            return f"draw by {result.reason}"
        return f"{result.winner} won by {result.reason}"

    def _decode_history(self, field: str, text: str) -> tuple[str, ...]:
        if len(field) % HASH_CHARS or re.fullmatch(r"[A-Za-z0-9_-]+", field) is None:
            raise InvalidPositionError(
                f"invalid history field {field!r} in {text!r} "
                f"(expected {HASH_CHARS}-character base64url position digests)"
            )
        return tuple(field[i : i + HASH_CHARS] for i in range(0, len(field), HASH_CHARS))

    def _square(self, name: str, text: str) -> int:
        index = self.square_index.get(name)
        if index is None:
            raise InvalidPositionError(f"no square {name!r} on the {self.id} board in {text!r}")
        return index

    @staticmethod
    def _side_letter(field: str, text: str) -> int:
        if field not in SIDE_LETTERS:
            raise InvalidPositionError(
                f"side to move must be 'f' (first) or 's' (second), not {field!r} in {text!r}"
            )
        return SIDE_LETTERS.index(field)

    @staticmethod
    def _counter(field: str, what: str, text: str, limit: int) -> int:
        if not field.isdigit() or not field.isascii() or (len(field) > 1 and field[0] == "0"):
            raise InvalidPositionError(f"{what} must be a number, not {field!r} in {text!r}")
        value = int(field)
        if value > limit:
            raise InvalidPositionError(f"{what} must be at most {limit}, not {value} in {text!r}")
        return value


def parse_board(
    field: str, files: int, ranks: int, tokens: re.Pattern[str], text: str, game: str
) -> list[str | None]:
    """Split a FEN-style board field (highest rank first) into squares a1..; None = empty.

    ``tokens`` matches one piece token (e.g. ``\\+?[A-Za-z]``).
    """
    rows = field.split("/")
    if len(rows) != ranks:
        raise InvalidPositionError(
            f"the {game} board has {ranks} ranks, not {len(rows)}, in {text!r}"
        )
    squares: list[str | None] = []
    for row_index, row in enumerate(rows):
        cells: list[str | None] = []
        i = 0
        while i < len(row):
            ch = row[i]
            if ch in "123456789":  # ASCII only: str.isdigit() also takes other scripts' digits
                j = i
                while j < len(row) and row[j] in "0123456789":
                    j += 1
                cells.extend([None] * int(row[i:j]))
                i = j
                continue
            match = tokens.match(row, i)
            if match is None:
                raise InvalidPositionError(
                    f"unknown piece {row[i:]!r} on rank {ranks - row_index} in {text!r}"
                )
            cells.append(match.group(0))
            i = match.end()
        if len(cells) != files:
            raise InvalidPositionError(
                f"rank {ranks - row_index} has {len(cells)} squares, not {files}, in {text!r}"
            )
        squares[0:0] = cells  # ranks come highest first; squares go a1 upwards
    return squares


def format_board(squares: list[str | None] | tuple[str | None, ...], files: int) -> str:
    """The inverse of parse_board."""
    rows: list[str] = []
    for start in range(len(squares) - files, -1, -files):
        row = ""
        empty = 0
        for cell in squares[start : start + files]:
            if cell is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += cell
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows)
