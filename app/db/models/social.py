"""Players and players: who follows whom, and who blocks whom."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    ForeignKey,
    Index,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base


class Follow(Base):
    """One account following another (app/relations/): who follows, whom, and since when.
    Never oneself (a CHECK, as the service refuses it first)."""

    __tablename__ = "follows"
    __table_args__ = (CheckConstraint("follower_id <> followed_id", name="ck_follows_not_self"),)

    # The primary key's order serves the one question asked: whom does this account follow.
    follower_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    followed_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    created_ms: Mapped[int] = mapped_column(BigInteger)


class Block(Base):
    """One account blocking another (app/relations/blocks.py): who blocks, whom, and since
    when. Never oneself (a CHECK, as the service refuses it first)."""

    __tablename__ = "blocks"
    __table_args__ = (
        CheckConstraint("blocker_id <> blocked_id", name="ck_blocks_not_self"),
        # "Who blocks this player?": asked with "whom do they block" before two people meet.
        Index("ix_blocks_blocked", "blocked_id"),
    )

    # The primary key's order serves the question asked most: whom does this account block.
    blocker_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    blocked_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    created_ms: Mapped[int] = mapped_column(BigInteger)
