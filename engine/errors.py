"""Typed engine errors: one base class, each subclass with a stable ``code``.

Codes are stable strings the server passes through to clients unchanged; never rename one.
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base of every error the engine raises for bad input."""

    code = "engine.error"


class InvalidMoveError(EngineError):
    """The text is not a move text of this game (syntax)."""

    code = "move.invalid"


class IllegalMoveError(EngineError):
    """A well-formed move text that is not legal in this position."""

    code = "move.illegal"


class GameOverError(EngineError):
    """A move was given in a position where the game is over."""

    code = "game.over"


class InvalidPositionError(EngineError):
    """A position string that does not describe a valid position of this game."""

    code = "position.invalid"


class UnknownGameError(EngineError):
    """No game has this id."""

    code = "game.unknown"


class InvalidOptionError(EngineError):
    """A rule option that the game does not have, or a value it does not allow."""

    code = "option.invalid"
