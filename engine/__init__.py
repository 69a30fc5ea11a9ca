"""Kodama's rules engine: the games of engine/variants.py, pure Python, no I/O, no dependencies.

>>> import engine
>>> game = engine.get_game("dobutsu")
>>> pos = game.play(game.start(), "b2b3")
>>> game.side_to_move(pos)
'second'
"""

from . import variants
from .core import SIDES, CaptureMarks, Game, Position, Result, RuleReason, Side
from .errors import (
    EngineError,
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    UnknownGameError,
)
from .registry import describe, game_ids, get_game

__all__ = [
    "SIDES",
    "CaptureMarks",
    "EngineError",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "Position",
    "Result",
    "RuleReason",
    "Side",
    "UnknownGameError",
    "describe",
    "game_ids",
    "get_game",
    "variants",
]
