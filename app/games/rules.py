"""A stored game's rules and positions: its engine rules object, where it started, who
moved when, and an LRU of current positions so that a move is not a replay."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import engine
from app.db.models import GameRow
from app.domain.enums import GameStatus
from engine import Side


def rules_of(game: GameRow) -> Any:
    """The game's rules object (the engine keeps one per game and options)."""
    return engine.get_game(game.variant, **game.rules)


def start_of(game: GameRow) -> Any:
    """The position the game started from: its ``initial_fen``, else its game's start."""
    rules = rules_of(game)
    return rules.start() if game.initial_fen is None else rules.from_text(game.initial_fen)


def initial_text(game: GameRow) -> str:
    """The position string the game started from (lichess's ``initialFen``)."""
    if game.initial_fen is not None:
        return game.initial_fen
    rules = rules_of(game)
    return str(rules.to_text(rules.start()))


def opening_side(game: GameRow) -> Side:
    """Who moves first in this game: ``first`` but from a position with second to move."""
    if game.initial_fen is None:
        return Side.FIRST
    return Side.FIRST if game.initial_fen.split(" ", 2)[1] == "f" else Side.SECOND


def has_moved(game: GameRow, side: str) -> bool:
    """Whether ``side`` has made its first move (the side that opens moves at ply 0)."""
    return game.ply >= (1 if side == opening_side(game) else 2)


def status_of(result: engine.Result) -> GameStatus:
    return GameStatus.MATE if result.reason == "checkmate" else GameStatus.VARIANT_END


def replay(game: GameRow, *, positions: bool) -> tuple[list[str] | None, list[Side]]:
    """The side that made each move (not always alternating: wali's automatic passes)
    and, if asked, the position after each ply (0 = the start) without the history field."""
    rules = rules_of(game)
    pos = start_of(game)
    seen = [pos]
    movers = []
    for text in game.moves.split():
        movers.append(rules.side_to_move(pos))
        pos = rules.play(pos, text)
        seen.append(pos)
    if not positions:
        return None, movers
    fields = rules.TEXT_FIELDS
    return [" ".join(rules.to_text(p).split(" ")[:fields]) for p in seen], movers


class Positions:
    """An LRU of each game's current engine position, so a move is not a replay.

    Keyed by the whole move list, not the ply: a position cached by a transaction that
    then failed can never stand in for another game history of the same length.
    """

    def __init__(self, size: int = 10_000) -> None:
        self._items: OrderedDict[str, tuple[str, Any]] = OrderedDict()
        self._size = size

    def get(self, game: GameRow) -> Any:
        item = self._items.get(game.id)
        if item is not None and item[0] == game.moves:
            self._items.move_to_end(game.id)
            return item[1]
        rules = rules_of(game)
        pos = start_of(game)
        for text in game.moves.split():
            pos = rules.play(pos, text)
        self.put(game.id, game.moves, pos)
        return pos

    def put(self, game_id: str, moves: str, pos: Any) -> None:
        self._items[game_id] = (moves, pos)
        self._items.move_to_end(game_id)
        while len(self._items) > self._size:
            self._items.popitem(last=False)
