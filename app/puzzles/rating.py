"""Puzzle ratings as lichess keeps them: a player's first attempt at a puzzle is one rating
period for both, Glicko-2 (app/ratings/glicko2.py), the player against the puzzle: solved,
the player won; failed, the puzzle did. Each is updated from the values both had before.
Replays, and guests' attempts, change nothing."""

from __future__ import annotations

from app.ratings import glicko2
from app.ratings.glicko2 import Rating

DAY_MS = 86_400_000


def attempt(player: Rating, puzzle: Rating, win: bool) -> tuple[Rating, Rating]:
    """The player's and the puzzle's ratings after the player's first attempt."""
    return glicko2.game(player, puzzle, glicko2.WIN if win else glicko2.LOSS)


def aged(player: Rating, updated_ms: int, now_ms: int) -> Rating:
    """A player's rating as of now: each whole day without a puzzle is an empty rating
    period, as for games (app/ratings/glicko2.py ``idle``)."""
    return glicko2.idle(player, max(0, (now_ms - updated_ms) // DAY_MS))
