"""An independent solver for the tests: the engine alone, by brute-force minimax.

Every position reachable from a start is found with the engine's ``legal_moves`` and
``play``; then the value of each within d plies is computed for d = 0, 1, 2, ... straight from
minimax's definition (a win in n: some move to a loss in n-1; a loss in n: every move to a win,
the slowest in n-1; the game's own result at its end) until no value changes. Positions are
the engine's, keyed by their text without history: nothing of the tablebase's encoding is used.
"""

from __future__ import annotations

from typing import Any

import engine

Value = tuple[str, int] | None  # ("win" | "loss", plies) or None: no result yet (a draw)


def _key(game: engine.Game[Any], pos: Any) -> str:
    return " ".join(game.to_text(pos).split(" ")[:3])


def solve(ruleset: str, start: str) -> dict[str, Value]:
    """Each position reachable from ``start``: its value for its side to move."""
    game = engine.get_game("dobutsu", ruleset=ruleset)
    first = game.from_text(start)
    positions = {_key(game, first): first}
    moves: dict[str, list[str]] = {}
    todo = [first]
    while todo:
        pos = todo.pop()
        after = []
        for text in game.legal_moves(pos):
            nxt = game.from_text(_key(game, game.play(pos, text)))
            key = _key(game, nxt)
            if key not in positions:
                positions[key] = nxt
                todo.append(nxt)
            after.append(key)
        moves[_key(game, pos)] = after
    ends: dict[str, Value] = {}
    for key, pos in positions.items():
        result = game.result(pos)
        if result is None:
            continue
        if result.winner is None:
            ends[key] = None
        else:
            ends[key] = ("win" if result.winner == game.side_to_move(pos) else "loss", 0)
    values: dict[str, Value] = {key: ends.get(key) for key in positions}
    while True:
        changed = False
        new = dict(values)
        for key in positions:
            if key in ends:
                continue
            outcomes = [values[k] for k in moves[key]]
            losses = [v[1] for v in outcomes if v is not None and v[0] == "loss"]
            if losses:
                value: Value = ("win", 1 + min(losses))
            elif all(v is not None and v[0] == "win" for v in outcomes):
                value = ("loss", 1 + max(v[1] for v in outcomes if v is not None))
            else:
                value = None
            if value != values[key]:
                new[key] = value
                changed = True
        values = new
        if not changed:
            return values
