"""The review's engine work, run in the review workers' processes (app/review/runner.py):
the game's positions replayed, and one position's value found by the evaluator
(app/analysis/evaluate.py), from the first player's view (app/review/judge.py's
``PositionValue``)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import engine
from app.analysis.evaluate import Budget, evaluate_position
from app.analysis.workers import ignore_interrupts
from app.review.judge import PositionValue

# Lower than the server's: on a machine the reviews share with the games, the games' moves
# get the processor first (docs/decisions/game-review.md).
NICENESS = 10


def lower_priority() -> None:
    """A worker's start: below the server in the scheduler's order, and deaf to Ctrl+C (the
    server answers it)."""
    ignore_interrupts()
    os.nice(NICENESS)


def positions(
    variant: str, rules: Mapping[str, str], start: str, moves: Sequence[str]
) -> list[str]:
    """The position string before each move and after the last (history included)."""
    game = engine.get_game(variant, **rules)
    pos = game.from_text(start)
    found = [game.to_text(pos)]
    for move in moves:
        pos = game.play(pos, move)
        found.append(game.to_text(pos))
    return found


def value_of(
    variant: str, rules: Mapping[str, str], fen: str, budget: Budget, tables: Path | None
) -> PositionValue:
    """The position's value: the rules' end if the game is over in it, else the best line
    of the evaluator (exact from the Dōbutsu table where it holds the position)."""
    game = engine.get_game(variant, **rules)
    pos = game.from_text(fen)
    ended = game.result(pos)
    if ended is not None:
        return {"end": ended.winner or "draw"}
    found = evaluate_position(game, pos, multipv=1, budget=budget, tables=tables)
    line = found.lines[0]
    sign = 1 if found.turn == "first" else -1
    value: PositionValue = {"turn": found.turn, "source": found.source}
    if line.mate is not None:
        value.update(mate=sign * line.mate, plies=line.plies)
    else:
        value["cp"] = sign * (line.cp or 0)
    value.update(best=line.moves[0], line=list(line.moves))
    return value
