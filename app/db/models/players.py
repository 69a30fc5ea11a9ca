"""Players (anonymous visitors and accounts), their API tokens and mailed links."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    ForeignKey,
    Integer,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models.base import Base


class Player(Base):
    """Anyone who takes a seat: an anonymous visitor (cookie) to begin with."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))  # an account's name is its username
    created_ms: Mapped[int] = mapped_column(BigInteger)
    # A registered account (all None for an anonymous player). username_key is the
    # lower-cased username: the unique one, so "Alice" and "alice" cannot both exist.
    username: Mapped[str | None] = mapped_column(String(20), default=None)
    username_key: Mapped[str | None] = mapped_column(
        String(20), unique=True, index=True, default=None
    )
    password_hash: Mapped[str | None] = mapped_column(String(255), default=None)
    title: Mapped[str | None] = mapped_column(String(8), default=None)  # "BOT" or None
    # Account control (migration 0018; docs/decisions/account-control.md). A closed account
    # keeps its row, so its games keep their player and its username is never taken again.
    closed_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)
    # The generation of the account's browser sessions, signed into their cookies: raising
    # it ends every session issued before (a password change, a reset, closing).
    session_gen: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # An optional e-mail address, for password resets once verified.
    email: Mapped[str | None] = mapped_column(String(254), default=None, index=True)
    email_verified_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)


class ApiToken(Base):
    """A personal API token: only its SHA-256 is stored, the token is shown once."""

    __tablename__ = "api_tokens"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # public: to list/revoke
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    description: Mapped[str] = mapped_column(String(100))
    scopes: Mapped[str] = mapped_column(String(200))  # space-separated, as OAuth scopes
    created_ms: Mapped[int] = mapped_column(BigInteger)
    last_used_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)
    revoked_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)


class MailToken(Base):
    """A link mailed to an account (app/accounts/mail.py): verify an e-mail address, or reset
    the password. Only the token's SHA-256 is stored; each is used once, before it expires."""

    __tablename__ = "mail_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # verify | reset
    email: Mapped[str] = mapped_column(String(254))  # the address the link was sent to
    created_ms: Mapped[int] = mapped_column(BigInteger)
    expires_ms: Mapped[int] = mapped_column(BigInteger)
    used_ms: Mapped[int | None] = mapped_column(BigInteger, default=None)
