"""The tables of puzzles (migration 0021): the puzzles with their Glicko-2 ratings, each
player's attempts (one a puzzle: the first is the rated one), and each player's puzzle
rating.

Times are epoch milliseconds, as everywhere (app/db/models/)."""

from __future__ import annotations

from sqlalchemy import BigInteger, Boolean, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base


class Puzzle(Base):
    """One puzzle: the moves from the start to the position the solver faces (the last one
    the opponent's), and the solver's line to the end of the game, opponent's replies
    included (app/puzzles/generate.py)."""

    __tablename__ = "puzzles"
    __table_args__ = (Index("ix_puzzles_rating", "rating"),)

    id: Mapped[str] = mapped_column(String(8), primary_key=True)
    variant: Mapped[str] = mapped_column(String(16))
    ruleset: Mapped[str] = mapped_column(String(16))
    # "game": a position of a finished game on the site (game_id); "table": of a game
    # played out by the generator through positions the tablebase reaches.
    source: Mapped[str] = mapped_column(String(8))
    game_id: Mapped[str | None] = mapped_column(String(12))
    moves: Mapped[str] = mapped_column(Text)  # from the start, separated by spaces
    fen: Mapped[str] = mapped_column(Text)  # the position after them: the solver to move
    solution: Mapped[str] = mapped_column(Text)  # separated by spaces
    themes: Mapped[str] = mapped_column(Text)  # separated by spaces
    plies: Mapped[int] = mapped_column(Integer)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    plays: Mapped[int] = mapped_column(Integer)


class PuzzleRound(Base):
    """A player's attempt at a puzzle: the first one, whether they solved it, and what it
    did to their rating (0 when it was not rated)."""

    __tablename__ = "puzzle_rounds"
    __table_args__ = (Index("ix_puzzle_rounds_player", "player_id", "created_ms"),)

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    puzzle_id: Mapped[str] = mapped_column(ForeignKey("puzzles.id"), primary_key=True)
    win: Mapped[bool] = mapped_column(Boolean)
    rated: Mapped[bool] = mapped_column(Boolean)
    rating_diff: Mapped[int] = mapped_column(Integer)
    created_ms: Mapped[int] = mapped_column(BigInteger)


class PuzzleRating(Base):
    """A player's Glicko-2 puzzle rating (app/ratings/glicko2.py); no row: the default."""

    __tablename__ = "puzzle_ratings"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    plays: Mapped[int] = mapped_column(Integer)
    updated_ms: Mapped[int] = mapped_column(BigInteger)
