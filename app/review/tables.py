"""The table of reviews (migration 0022): one row a game, its queue state and, as the
positions are evaluated, their values; once done, the judged review.

Times are epoch milliseconds, as everywhere (app/db/models/)."""

from __future__ import annotations

from sqlalchemy import BigInteger, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
WAITING = (QUEUED, RUNNING)  # a review someone still waits for


class GameReview(Base):
    """A game's review. ``evals``: a JSON list, one value per position from the start
    (app/review/judge.py ``PositionValue``), as far as evaluated (``plies_done``); ``result``:
    the judged review once ``done`` (marks, accuracies). ``owner``/``heartbeat_ms``: the
    instance running it and when it last reported (a stale one is queued again)."""

    __tablename__ = "game_reviews"
    __table_args__ = (
        Index("ix_game_reviews_queue", "status", "requested_ms"),
        Index("ix_game_reviews_requester", "requested_by", "status"),
    )

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    requested_by: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(8))
    requested_ms: Mapped[int] = mapped_column(BigInteger)
    started_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)
    heartbeat_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)
    finished_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)
    owner: Mapped[str | None] = mapped_column(String(32), default=None)
    plies: Mapped[int] = mapped_column(Integer)  # the game's moves
    plies_done: Mapped[int] = mapped_column(Integer, default=0)  # positions evaluated
    evals: Mapped[str] = mapped_column(Text, default="[]")
    result: Mapped[str | None] = mapped_column(Text, default=None)
    error: Mapped[str | None] = mapped_column(String(64), default=None)
