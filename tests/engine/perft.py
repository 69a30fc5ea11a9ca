"""Perft: the number of leaves of the legal-move tree, to pin move generators to counts."""

from __future__ import annotations

from typing import Any


def perft(game: Any, pos: Any, depth: int) -> int:
    """Positions ``depth`` plies below ``pos``; a game that ends sooner adds nothing."""
    if depth <= 1:
        return len(game.legal_moves(pos)) if depth == 1 else 1
    return sum(perft(game, game.play(pos, move), depth - 1) for move in game.legal_moves(pos))
