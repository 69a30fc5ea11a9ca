"""Ratings: each player's per-game rating and its history, and the game counts."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base


class PlayerStats(Base):
    """A player's finished games (aborted ones and those never started not counted): kept
    by the outbox's consumer of ``GameEnded``, one row per player who has finished one."""

    __tablename__ = "player_stats"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    played: Mapped[int] = mapped_column(Integer, default=0)
    won: Mapped[int] = mapped_column(Integer, default=0)
    lost: Mapped[int] = mapped_column(Integer, default=0)
    drawn: Mapped[int] = mapped_column(Integer, default=0)


class PlayerRating(Base):
    """A player's Glicko-2 rating in one game (app/ratings/glicko2.py), as of its last rated
    game (``rated_ms``): the idle days since are applied when it is read or used. Kept by
    the outbox's consumer of ``GameEnded``; no row: the default rating."""

    __tablename__ = "ratings"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    variant: Mapped[str] = mapped_column(String(16), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)  # rated games played in this game
    rated_ms: Mapped[int] = mapped_column(BigInteger)


class RatingChange(Base):
    """What one rated game did to one player's rating: the history (profiles, charts) and
    the ``ratingDiff`` of the end panel and the bot API."""

    __tablename__ = "rating_changes"
    __table_args__ = (Index("ix_rating_changes_player", "player_id", "variant", "at_ms"),)

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    variant: Mapped[str] = mapped_column(String(16))
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)  # after the game
    at_ms: Mapped[int] = mapped_column(BigInteger)
