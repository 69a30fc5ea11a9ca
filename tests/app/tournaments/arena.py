"""Playing arena games to a chosen length and result, as their players would through the
board API: quiet moves (the engine checks that none ends the game nor lets the opponent end
it, nor repeats a position), then a resignation or an agreed draw."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import engine

RULES = engine.get_game("dobutsu")

# post(player, path) -> the response's status code
Post = Callable[[Any, str], int]


def quiet_moves(plies: int) -> list[str]:
    """``plies`` moves from the start after which the game is still on."""
    pos = RULES.start()
    seen = {RULES.to_text(pos)}
    moves: list[str] = []
    for _ in range(plies):
        for move in sorted(RULES.legal_moves(pos)):
            after = RULES.play(pos, move)
            if RULES.result(after) is not None or RULES.to_text(after) in seen:
                continue
            replies = RULES.legal_moves(after)
            if any(RULES.result(RULES.play(after, r)) is not None for r in replies):
                continue
            pos = after
            break
        else:
            raise AssertionError(f"no quiet move at ply {len(moves)}")
        seen.add(RULES.to_text(pos))
        moves.append(move)
    return moves


def play_out(
    post: Post, game_id: str, first: Any, second: Any, plies: int, won: str | None
) -> None:
    """``won``: "first", "second", or None for a draw (offered and accepted)."""
    for ply, move in enumerate(quiet_moves(plies)):
        mover = first if ply % 2 == 0 else second
        assert post(mover, f"/api/board/game/{game_id}/move/{move}") == 200
    if won is None:
        assert post(first, f"/api/board/game/{game_id}/draw/yes") == 200
        assert post(second, f"/api/board/game/{game_id}/draw/yes") == 200
    else:
        loser = second if won == "first" else first
        assert post(loser, f"/api/board/game/{game_id}/resign") == 200
