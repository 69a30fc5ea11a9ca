"""Database tables (SQLAlchemy 2 typed mappings). Statuses are stored as stable slugs.

Times are epoch milliseconds (BIGINT): clocks are arithmetic on them, and SQLite and
PostgreSQL store them alike.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Player(Base):
    """Anyone who takes a seat: an anonymous visitor (cookie) to begin with."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    created_ms: Mapped[int] = mapped_column(BigInteger)


class Game(Base):
    __tablename__ = "games"
    __table_args__ = (Index("ix_games_status_public", "status", "public"),)

    id: Mapped[str] = mapped_column(String(12), primary_key=True)
    variant: Mapped[str] = mapped_column(String(16))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    public: Mapped[bool] = mapped_column(Boolean)
    # created (waiting for the second player), started, or one of the ending slugs
    # (aborted, noStart, mate, resign, outoftime, timeout, draw, variantEnd).
    status: Mapped[str] = mapped_column(String(16))
    creator_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    creator_color: Mapped[str] = mapped_column(String(8))  # first | second | random
    first_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    second_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    invite_token: Mapped[str] = mapped_column(String(64), unique=True)
    # The move list, canonical texts separated by spaces; ply = its length = the version.
    moves: Mapped[str] = mapped_column(Text, default="")
    ply: Mapped[int] = mapped_column(Integer, default=0)
    fen: Mapped[str] = mapped_column(Text)
    # Fischer clock (None: no clock). Remaining times are as of turn_started_ms.
    clock_initial_ms: Mapped[int | None] = mapped_column(BigInteger)
    clock_increment_ms: Mapped[int | None] = mapped_column(BigInteger)
    first_ms: Mapped[int | None] = mapped_column(BigInteger)
    second_ms: Mapped[int | None] = mapped_column(BigInteger)
    turn_started_ms: Mapped[int | None] = mapped_column(BigInteger)
    draw_offer: Mapped[str | None] = mapped_column(String(8))  # first | second
    winner: Mapped[str | None] = mapped_column(String(8))  # first | second; None: draw
    reason: Mapped[str | None] = mapped_column(String(24))
    created_ms: Mapped[int] = mapped_column(BigInteger)
    started_ms: Mapped[int | None] = mapped_column(BigInteger)
    finished_ms: Mapped[int | None] = mapped_column(BigInteger)

    # Every UPDATE says "WHERE ply = <the ply read>": a change that lost a race to another
    # matches no row and fails (StaleDataError) instead of overwriting it.
    __mapper_args__ = {"version_id_col": ply, "version_id_generator": False}  # noqa: RUF012
