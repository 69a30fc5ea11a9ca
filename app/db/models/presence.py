"""Who is here: server instances, their players' sockets, and quick pairing's entries."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base


class PoolEntry(Base):
    """A player waiting in a quick-pairing pool (app/matchmaking/pools.py): one pool at a
    time per player. Held by a socket or a board seek on ``instance``, which renews
    ``seen_ms``; an entry not renewed expires (its instance died). A pairing round sets
    ``game_id`` (in the transaction that creates the game); the holder then deletes it."""

    __tablename__ = "pool_entries"
    __table_args__ = (Index("ix_pool_entries_pool", "pool", "game_id"),)

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    pool: Mapped[str] = mapped_column(String(24))
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), unique=True)
    rated: Mapped[bool] = mapped_column(Boolean)  # an account's rated search; else casual
    rating: Mapped[float] = mapped_column(Float)  # at entry (1500 for an anonymous player)
    range_low: Mapped[int | None] = mapped_column(Integer, default=None)
    range_high: Mapped[int | None] = mapped_column(Integer, default=None)
    joined_ms: Mapped[int] = mapped_column(BigInteger)
    seen_ms: Mapped[int] = mapped_column(BigInteger)
    instance: Mapped[str] = mapped_column(String(32))
    game_id: Mapped[str | None] = mapped_column(String(12), default=None)


class ServerInstance(Base):
    """A server instance sharing the database, and when it last said it was alive."""

    __tablename__ = "instances"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    beat_ms: Mapped[int] = mapped_column(BigInteger)


class PlayerSocket(Base):
    """An identity with a socket (page, or a bot's event stream) open on an instance."""

    __tablename__ = "player_sockets"

    instance: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True, index=True)
