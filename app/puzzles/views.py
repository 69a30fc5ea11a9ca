"""A puzzle in lichess's shape (``GET /api/puzzle/{id}``): ``{game, puzzle}``, with Kodama's
record in ``game.pgn`` (the moves from the start in Kodama's notation, separated by spaces,
as lichess's ``pgn`` holds its SAN moves), and ``positions``, Kodama's addition for its page:
the position before the opponent's last move, then after it and after each move of the
solution, each with its legal moves (app/analysis/positions.py's view)."""

from __future__ import annotations

from typing import Any

import engine
from app.analysis.positions import PositionView, view
from app.ratings.glicko2 import Rating

from .tables import Puzzle

PERF = {"key": "dobutsu", "name": "Dōbutsu"}
COLORS = ("white", "black")  # lichess's names of the first and second players


def positions(puzzle: Puzzle) -> list[PositionView]:
    game = engine.get_game(puzzle.variant, ruleset=puzzle.ruleset)
    moves = puzzle.moves.split()
    pos = game.start()
    for move in moves[:-1]:
        pos = game.play(pos, move)
    shown = [view(game, pos)]
    for move in [*moves[-1:], *puzzle.solution.split()]:
        pos = game.play(pos, move)
        shown.append(view(game, pos))
    return shown


def puzzle_json(
    puzzle: Puzzle, players: list[dict[str, Any]] | None = None, with_positions: bool = True
) -> dict[str, Any]:
    moves = puzzle.moves.split()
    out: dict[str, Any] = {
        "game": {
            "id": puzzle.game_id,
            "perf": PERF,
            "rated": False,
            "players": players or [],
            "pgn": puzzle.moves,
            "clock": None,
            "variant": puzzle.variant,
            "rules": {"ruleset": puzzle.ruleset},
        },
        "puzzle": {
            "id": puzzle.id,
            "rating": round(puzzle.rating),
            "plays": puzzle.plays,
            "solution": puzzle.solution.split(),
            "themes": puzzle.themes.split(),
            # The ply of the opponent's last move, counted from 0: game.pgn holds
            # initialPly + 1 moves, the solution starts after them (as lichess's).
            "initialPly": len(moves) - 1,
            "fen": puzzle.fen,
        },
    }
    if with_positions:
        out["positions"] = positions(puzzle)
    return out


def rating_json(rating: Rating, plays: int) -> dict[str, Any]:
    return {
        "rating": round(rating.rating),
        "deviation": round(rating.deviation),
        "provisional": rating.provisional,
        "plays": plays,
    }
