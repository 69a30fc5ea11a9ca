"""Answers from the stored tables, in lichess's tablebase shape (docs/api.md, "Tablebase").

The engine reads the position and lists its legal moves and their results; the table only
gives each position's value. A table is opened (memory-mapped) the first time it is asked
for, and again when the build has replaced it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import engine
from app.core.errors import ServiceError

from .encoding import RULESETS, from_position
from .store import Table, Value

DEFAULT_RULESET = RULESETS[0]


def _order(move: dict[str, Any]) -> tuple[int, int, str]:
    """Best first, from the mover's side: the opponent's losses fastest first, then draws,
    then the opponent's wins slowest first; ties by move text."""
    category, dtm = move["category"], move["dtm"]
    if category == "loss":
        return (0, -dtm, move["uci"])  # dtm <= 0: the fastest loss has the largest dtm
    if category == "draw":
        return (1, 0, move["uci"])
    return (2, -dtm, move["uci"])


def _signed(value: Value) -> int | None:
    if value.plies is None:
        return None
    return -value.plies if value.category == "loss" else value.plies


@dataclass
class _Opened:
    table: Table
    stamp: float


class Tablebases:
    """The tables under one folder (``<folder>/<ruleset>/``), looked up on demand."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._opened: dict[str, _Opened] = {}

    def table(self, ruleset: str) -> Table | None:
        """The ruleset's table, or None when it has not been built."""
        where = self.folder / ruleset
        try:
            stamp = (where / "table.json").stat().st_mtime
        except OSError:
            self._opened.pop(ruleset, None)
            return None
        opened = self._opened.get(ruleset)
        if opened is None or opened.stamp != stamp:
            opened = self._opened[ruleset] = _Opened(Table(where), stamp)
        return opened.table

    def probe(self, fen: str, ruleset: str | None = None) -> dict[str, Any]:
        """The lichess-shaped answer for a position string (ServiceError when refused)."""
        ruleset = ruleset or DEFAULT_RULESET
        if ruleset not in RULESETS:
            raise ServiceError(
                "tablebase.ruleset",
                f"no tablebase ruleset {ruleset!r}: the rulesets are {', '.join(RULESETS)}",
            )
        game = engine.get_game("dobutsu", ruleset=ruleset)
        try:
            pos = game.from_text(fen)
        except engine.EngineError as exc:
            raise ServiceError("position.invalid", str(exc)) from None
        # The value is the position's own: a history field (repetitions) is not read.
        pos = game.from_text(" ".join(game.to_text(pos).split(" ")[: game.TEXT_FIELDS]))
        table = self.table(ruleset)
        if table is None:
            raise ServiceError(
                "tablebase.unavailable",
                f"the {ruleset} tablebase is not built on this server: "
                f"python -m app tablebase build --ruleset {ruleset} (README)",
                status=503,
            )
        unreachable = ServiceError(
            "tablebase.unreachable",
            f"{fen!r} cannot be reached from the start under the {ruleset} rules: "
            "the tablebase holds only positions that can",
            status=404,
        )
        value = table.value(from_position(pos))
        if value is None:
            raise unreachable
        moves = []
        for text in game.legal_moves(pos):
            after = table.value(from_position(game.play(pos, text)))
            # A reachable position's moves all lead to reachable ones: a move to a position
            # the table lacks shows this one (whose value the position alone gave) cannot
            # be reached either.
            if after is None:
                raise unreachable
            moves.append({"uci": text, "category": after.category, "dtm": _signed(after)})
        moves.sort(key=_order)
        return {"category": value.category, "dtm": _signed(value), "moves": moves}
