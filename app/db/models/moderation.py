"""Moderation: moderators, reports, their audit log, chat sanctions and warnings."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    ForeignKey,
    Index,
    Integer,
    String,
    false,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base


class Moderator(Base):
    """An account the site's operator named a moderator (``python -m app moderators``)."""

    __tablename__ = "moderators"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    added_ms: Mapped[int] = mapped_column(BigInteger)


class Report(Base):
    """A player's report of another (app/moderation), open until a moderator closes it."""

    __tablename__ = "reports"
    __table_args__ = (
        # The moderators' queue: the open reports, oldest first.
        Index(
            "ix_reports_open",
            "id",
            postgresql_where=text("closed_ms IS NULL"),
            sqlite_where=text("closed_ms IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    reported_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    reason: Mapped[str] = mapped_column(String(16))  # cheat | abuse | sandbag | other
    text: Mapped[str] = mapped_column(String(500))
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id"), default=None)
    chat_line_id: Mapped[int | None] = mapped_column(ForeignKey("chat_lines.id"), default=None)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    closed_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)
    closed_by: Mapped[str | None] = mapped_column(ForeignKey("players.id"), default=None)
    outcome: Mapped[str | None] = mapped_column(String(16), default=None)  # the action taken


class ModAction(Base):
    """The audit log: every moderator's action, who did what to whom and why."""

    __tablename__ = "mod_actions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    moderator_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    action: Mapped[str] = mapped_column(String(16))
    target_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    reason: Mapped[str] = mapped_column(String(500))
    report_id: Mapped[int | None] = mapped_column(ForeignKey("reports.id"), default=None)
    chat_line_id: Mapped[int | None] = mapped_column(ForeignKey("chat_lines.id"), default=None)
    until_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)  # a mute's end
    created_ms: Mapped[int] = mapped_column(BigInteger)


class ChatSanction(Base):
    """What a moderator put on a player's chat: a mute until a time, and the restriction
    to lines visible only to themselves (read on every line they write)."""

    __tablename__ = "chat_sanctions"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    muted_until_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)
    troll: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class ModWarning(Base):
    """A moderator's warning: shown to its player on their pages until they acknowledge it."""

    __tablename__ = "warnings"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    text: Mapped[str] = mapped_column(String(500))
    created_ms: Mapped[int] = mapped_column(BigInteger)
    seen_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)
