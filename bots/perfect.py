"""The perfect Dōbutsu player: every move from the solved table (app/tablebase), which this
process reads itself, memory-mapped.

It wins as fast as the table allows and loses as slowly. In a drawn position it keeps the
draw and, among the moves that do, plays one after which the opponent has the fewest
replies that keep the draw: the fewer the drawing replies, the likelier a mistake
(docs/decisions/strongest-opponents.md). A move that ends the game, a repetition included, is
judged by the engine's result, not by the table (which knows no history).

The built-in ``kodama-perfect`` plays it (bots/builtin.py): Dōbutsu only, and only under a
ruleset whose table is built; other challenges are declined (``variant``).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import engine
from app.tablebase.encoding import from_position
from app.tablebase.lookup import Tablebases
from app.tablebase.store import Table, Value

from .client import Client
from .players import MATE, Player, make_player
from .runner import Runner, Settings

log = logging.getLogger(__name__)

GAME = "dobutsu"
# The level a position the table does not hold is searched at (it should never happen in
# an accepted game: every move from a stored position leads to a stored one).
FALLBACK_LEVEL = "hard"


class NotInTable(LookupError):
    """The ruleset's table is not built, or does not hold the position."""


@dataclass(frozen=True)
class Choice:
    """Why a move was chosen: its value for the side that played it."""

    move: str
    category: str  # "win", "draw" or "loss", for the side that moved
    plies: int | None  # plies to the end with best play, the move counted (None: a draw)
    drawing_replies: int | None = None  # of a drawing move: the opponent's replies that draw


def ruleset_of(game: engine.Game[Any]) -> str:
    return str(game.options.get("ruleset", "dobutsu"))


class PerfectPlayer:
    """Plays Dōbutsu from the tables under one folder (``<folder>/<ruleset>/``)."""

    name = "perfect"

    def __init__(
        self,
        tables: Tablebases,
        seed: int | None = None,
        fallback: Callable[[], Player] | None = None,
    ) -> None:
        self.tables = tables
        self.rng = random.Random(seed)
        self.fallback = fallback
        self._fallback: Player | None = None
        self.last: Choice | None = None

    def has_table(self, ruleset: str) -> bool:
        return self.tables.table(ruleset) is not None

    def holds(self, game: engine.Game[Any], position: Any) -> bool:
        """Whether the table of the game's ruleset has the position."""
        table = self.tables.table(ruleset_of(game))
        return table is not None and table.value(from_position(position)) is not None

    def table(self, game: engine.Game[Any]) -> Table:
        """The table of the game's ruleset (NotInTable when it is not built)."""
        table = self.tables.table(ruleset_of(game))
        if table is None:
            raise NotInTable(f"the {ruleset_of(game)} table is not built")
        return table

    def value(self, game: engine.Game[Any], position: Any, table: Table | None = None) -> Value:
        """The position's value for its side to move: the engine's if the game is over
        there (history counted), else the table's (``table``: the game's, looked up once
        by a caller that values many positions)."""
        result = game.result(position)
        if result is not None:
            if result.winner is None:
                return Value("draw", None)
            won = result.winner == engine.SIDES[position.side]
            return Value("win" if won else "loss", 0)
        found = (table or self.table(game)).value(from_position(position))
        if found is None:
            raise NotInTable(f"{game.to_text(position)} is not in the table")
        return found

    def choices(self, game: engine.Game[Any], position: engine.Position) -> list[Choice]:
        """The best moves, all equally good by the rules of this module's docstring."""
        moves = game.legal_moves(position)
        if not moves:
            raise ValueError(f"no legal move: the game is over in {game.to_text(position)}")
        table = self.table(game)
        after = {move: self.value(game, game.play(position, move), table) for move in moves}
        wins = [(v.plies or 0, m) for m, v in after.items() if v.category == "loss"]
        if wins:
            fastest = min(plies for plies, _ in wins)
            return [Choice(m, "win", p + 1) for p, m in wins if p == fastest]
        draws = [m for m, v in after.items() if v.category == "draw"]
        if draws:
            counted = [
                (self.drawing_replies(game, game.play(position, m), table), m) for m in draws
            ]
            fewest = min(n for n, _ in counted)
            return [Choice(m, "draw", None, n) for n, m in counted if n == fewest]
        slowest = max(v.plies or 0 for v in after.values())
        return [Choice(m, "loss", slowest + 1) for m, v in after.items() if v.plies == slowest]

    def drawing_replies(
        self, game: engine.Game[Any], position: engine.Position, table: Table | None = None
    ) -> int:
        """How many of the opponent's moves from a drawn ``position`` keep the draw."""
        if game.result(position) is not None:
            return 0  # the move ended the game (a repetition): nothing left to get wrong
        table = table or self.table(game)
        return sum(
            self.value(game, game.play(position, reply), table).category == "draw"
            for reply in game.legal_moves(position)
        )

    def choose(
        self, game: engine.Game[Any], position: engine.Position, time_budget_s: float
    ) -> str:
        try:
            choice = self.rng.choice(self.choices(game, position))
        except NotInTable as exc:
            if self.fallback is None:
                raise
            log.warning("perfect: %s; searching instead", exc)
            if self._fallback is None:
                self._fallback = self.fallback()
            self.last = None
            return self._fallback.choose(game, position, time_budget_s)
        self.last = choice
        return choice.move

    def last_score(self) -> int | None:
        """The last move's value for the side that played it, in the search's units: a
        draw offer is accepted unless the position is won (bots/runner.py)."""
        if self.last is None:
            return None
        if self.last.category == "draw":
            return 0
        plies = self.last.plies or 0
        return MATE - plies if self.last.category == "win" else plies - MATE


class PerfectRunner(Runner):
    """The runner of the perfect player: it accepts only the games its tables hold."""

    def __init__(
        self,
        client: Client,
        tables: Tablebases,
        settings: Settings,
        seed: int | None = None,
    ) -> None:
        self.tables = tables
        self.seed = seed
        super().__init__(client, self.player, settings)

    def player(self) -> PerfectPlayer:
        return PerfectPlayer(self.tables, self.seed, lambda: make_player(FALLBACK_LEVEL))

    def decline_reason(self, challenge: Mapping[str, Any]) -> str | None:
        reason = super().decline_reason(challenge)
        if reason is not None:
            return reason
        variant = str((challenge.get("variant") or {}).get("key") or "")
        game = engine.get_game(variant, **(challenge.get("rules") or {}))
        player = self.player()
        if not player.has_table(ruleset_of(game)):
            return "variant"  # no table for these rules on this server
        start = challenge.get("initialFen")
        if start:
            try:
                position = game.from_text(str(start))
            except engine.EngineError:
                return "variant"
            if not player.holds(game, position):
                return "variant"  # not reachable from the start: the table does not hold it
        return None


def runner(client: Client, folder: Path, settings: Settings) -> PerfectRunner:
    """``kodama-perfect``'s runner over the tables under ``folder``."""
    return PerfectRunner(client, Tablebases(folder), settings)


__all__ = ["Choice", "NotInTable", "PerfectPlayer", "PerfectRunner", "runner"]
