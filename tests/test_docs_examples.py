"""The game examples of docs/protocol.md are true positions: the engine agrees with them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import engine

PROTOCOL = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"


def _example(heading: str) -> dict[str, Any]:
    """The first JSON block after this heading."""
    text = PROTOCOL.read_text()
    after = text[text.index(heading) :]
    block = re.search(r"```json\n(.*?)```", after, re.DOTALL)
    assert block is not None, f"no JSON example after {heading!r}"
    data: dict[str, Any] = json.loads(block.group(1))
    return data


def _shown(rules: Any, pos: Any) -> dict[str, Any]:
    return {
        "fen": rules.to_text(pos),
        "turn": rules.side_to_move(pos),
        "check": rules.in_check(pos),
        "legalMoves": sorted(rules.legal_moves(pos)),
    }


def test_the_state_and_move_examples_are_true_positions():
    game = _example("#### `state` — the full state")["game"]
    rules = engine.get_game(game["variant"], **game["rules"])
    start = rules.from_text(game["fen"])
    assert {key: game[key] for key in ("fen", "turn", "check", "legalMoves")} == _shown(
        rules, start
    )
    move = _example("#### `move` — a move was played")
    assert move["ply"] == game["ply"] + 1
    after = rules.play(start, move["move"])
    assert {key: move[key] for key in ("fen", "turn", "check", "legalMoves")} == _shown(
        rules, after
    )
