"""A position's evaluation: its best moves, each with its line and its score for the side to
move, from the bots' search within a budget, or exact from the Dōbutsu table where it holds
the position (docs/decisions/engine-evaluation.md).

Pure computation, for a worker process (app/analysis/workers.py): nothing here reads the
database or the app's clock; the search's own budget is a node count and a time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import engine
from app.core.errors import ServiceError
from app.tablebase.lookup import Tablebases
from bots.multipv import PV_PLIES, analyse

MAX_MULTIPV = 5  # the best moves asked at most, as lichess's cloud evaluation


@dataclass(frozen=True)
class Budget:
    """What one evaluation may spend: the search stops at whichever comes first (its first
    iteration always finishes)."""

    nodes: int = 50_000
    seconds: float = 1.0


@dataclass(frozen=True)
class EvalLine:
    """One move of the position and the line that follows it, scored for the side to move
    of the evaluated position: ``cp`` (the evaluation's centi-units, about 100 a chick, pawn
    or stone) or, when the line ends the game, ``mate`` in moves as lichess counts them (the
    winner's moves to the end; > 0 the side to move wins, < 0 it loses) and ``plies``."""

    moves: list[str]
    cp: int | None
    mate: int | None
    plies: int | None


@dataclass(frozen=True)
class Evaluation:
    """A position's best lines, best first. ``source`` "table": exact values from the
    Dōbutsu tablebase (a draw is ``cp`` 0); "search": the bots' search, ``depth`` plies deep."""

    variant: str
    rules: dict[str, str]
    fen: str  # the position string as the engine writes it, history included
    turn: engine.Side
    source: Literal["search", "table"]
    depth: int
    nodes: int
    lines: list[EvalLine]


def mate_moves(plies: int, won: bool) -> int:
    """lichess's mate count from the plies to the end: the winner's moves (ceil(plies/2)),
    negative when the side to move loses."""
    moves = (plies + 1) // 2
    return moves if won else -moves


_TABLES: dict[Path, Tablebases] = {}


def _tables(folder: Path) -> Tablebases:
    found = _TABLES.get(folder)
    if found is None:
        found = _TABLES[folder] = Tablebases(folder)
    return found


def evaluate(
    variant: str,
    rules: Mapping[str, str],
    fen: str,
    *,
    multipv: int = 1,
    budget: Budget | None = None,
    tables: Path | None = None,
) -> Evaluation:
    """The ``multipv`` best lines of the position ``fen`` (history field read) of ``variant``
    under ``rules``. A bad game, option or position is a 400 ServiceError with the engine's
    code; a finished position is 404 ``eval.none``."""
    try:
        game = engine.get_game(variant, **rules)
        pos = game.from_text(fen)
    except engine.EngineError as exc:
        raise ServiceError(exc.code, str(exc)) from None
    return evaluate_position(game, pos, multipv=multipv, budget=budget, tables=tables)


def evaluate_position(
    game: engine.Game[Any],
    pos: engine.Position,
    *,
    multipv: int = 1,
    budget: Budget | None = None,
    tables: Path | None = None,
) -> Evaluation:
    """``evaluate`` for a position the caller already holds."""
    if game.result(pos) is not None:
        raise ServiceError(
            "eval.none",
            "No cloud evaluation available for that position: the game is over in it",
            404,
        )
    multipv = max(1, multipv)
    if game.id == "dobutsu" and tables is not None:
        exact = _from_table(game, pos, multipv, _tables(tables))
        if exact is not None:
            return exact
    budget = budget or Budget()
    found = analyse(game, pos, multipv=multipv, max_nodes=budget.nodes, seconds=budget.seconds)
    lines = []
    for line in found.lines:
        if line.plies is None:
            lines.append(EvalLine(list(line.moves), line.score, None, None))
        else:
            mate = mate_moves(line.plies, line.score > 0)
            lines.append(EvalLine(list(line.moves), None, mate, line.plies))
    return _evaluation(game, pos, "search", found.depth, found.nodes, lines)


def _evaluation(
    game: engine.Game[Any],
    pos: engine.Position,
    source: Literal["search", "table"],
    depth: int,
    nodes: int,
    lines: list[EvalLine],
) -> Evaluation:
    return Evaluation(
        game.id,
        dict(game.options),
        game.to_text(pos),
        game.side_to_move(pos),
        source,
        depth,
        nodes,
        lines,
    )


# ---- the Dōbutsu table ----------------------------------------------------------------------
def _probe(base: Tablebases, game: engine.Game[Any], pos: Any) -> dict[str, Any] | None:
    """The table's answer for ``pos`` (its history not read), None when the table is not
    built or does not hold the position."""
    try:
        return base.probe(game.to_text(pos), game.options["ruleset"])
    except ServiceError:
        return None


def _table_line(base: Tablebases, game: engine.Game[Any], pos: Any, move: str) -> list[str]:
    """``move``, then each side's best move by the table, to the end or PV_PLIES."""
    line = [move]
    pos = game.play(pos, move)
    while len(line) < PV_PLIES and game.result(pos) is None:
        found = _probe(base, game, pos)
        if found is None or not found["moves"]:
            break
        best = found["moves"][0]["uci"]
        line.append(best)
        pos = game.play(pos, best)
    return line


def _from_table(
    game: engine.Game[Any], pos: Any, multipv: int, base: Tablebases
) -> Evaluation | None:
    found = _probe(base, game, pos)
    if found is None:
        return None
    lines = []
    for move in found["moves"][:multipv]:
        # The move's figures are the position after it, for the opponent.
        category, dtm = move["category"], move["dtm"]
        moves = _table_line(base, game, pos, move["uci"])
        if category == "draw":
            lines.append(EvalLine(moves, 0, None, None))
        else:
            plies = abs(dtm) + 1
            lines.append(EvalLine(moves, None, mate_moves(plies, category == "loss"), plies))
    depth = len(lines[0].moves) if lines else 0
    return _evaluation(game, pos, "table", depth, 0, lines)


# ---- lichess's shape ------------------------------------------------------------------------
def cloud_eval(found: Evaluation) -> dict[str, Any]:
    """``GET /api/cloud-eval``'s answer, in lichess's shape: the scores from the first
    player's view, as lichess gives them from white's."""
    sign = 1 if found.turn == "first" else -1
    pvs: list[dict[str, Any]] = []
    for line in found.lines:
        pv: dict[str, Any] = {"moves": " ".join(line.moves)}
        if line.mate is not None:
            pv["mate"] = sign * line.mate
        else:
            pv["cp"] = sign * (line.cp or 0)
        pvs.append(pv)
    return {
        "fen": found.fen,
        "knodes": found.nodes // 1000,
        "depth": found.depth,
        "pvs": pvs,
        "variant": found.variant,
        "rules": found.rules,
        "source": found.source,
    }
