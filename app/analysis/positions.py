"""The analysis board's rules: the engine asked about a position and a few moves, with no
game stored (``POST /api/analysis/moves``, docs/api.md "Analysis board").

The pages carry no rules (docs/decisions/analysis-board.md): the
analysis page sends the record's start and moves, or the position shown and the move played by
hand, and shows what comes back. Nothing here reads or writes the database.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

import engine
from app.core.errors import ServiceError
from engine import EngineError, Side

MAX_MOVES = 1000  # a record's moves at most, in one request
# What each engine refusal is over HTTP, as for a game's moves (docs/protocol.md).
STATUS = {"move.illegal": 422, "game.over": 409}


class ResultView(TypedDict):
    winner: Side | None
    reason: str


class PositionView(TypedDict):
    """One position as the analysis board shows it."""

    fen: str  # the engine's position string, history included (repetitions carry on)
    turn: Side
    check: bool
    legalMoves: list[str]
    result: ResultView | None


@dataclass(frozen=True)
class Line:
    """The start, then the position after each move."""

    variant: str
    rules: dict[str, str]  # every rule option in force, defaults included
    positions: list[PositionView]


def view(game: engine.Game[Any], pos: Any) -> PositionView:
    result = game.result(pos)
    return {
        "fen": game.to_text(pos),
        "turn": game.side_to_move(pos),
        "check": game.in_check(pos),
        "legalMoves": game.legal_moves(pos),
        "result": None
        if result is None
        else {"winner": result.winner, "reason": str(result.reason)},
    }


def line(variant: str, rules: Mapping[str, str], fen: str | None, moves: Sequence[str]) -> Line:
    """Every position from ``fen`` (the game's start when None) through ``moves``. A bad game,
    option or position is a 400 with the engine's code; a bad move says which one (``index``,
    from 0) with the engine's code: ``move.invalid`` 400, ``move.illegal`` 422, ``game.over``
    409 (a move after the end)."""
    if len(moves) > MAX_MOVES:
        raise ServiceError("request.invalid", f"at most {MAX_MOVES} moves at once")
    try:
        game = engine.get_game(variant, **rules)
        pos = game.start() if fen is None else game.from_text(fen)
    except EngineError as exc:
        raise ServiceError(exc.code, str(exc)) from None
    positions = [view(game, pos)]
    for index, text in enumerate(moves):
        try:
            pos = game.play(pos, text)
        except EngineError as exc:
            raise ServiceError(
                exc.code,
                f"move {index + 1} of {len(moves)}, {text!r}: {exc}",
                STATUS.get(exc.code, 400),
                index=index,
            ) from None
        positions.append(view(game, pos))
    return Line(variant, dict(game.options), positions)
