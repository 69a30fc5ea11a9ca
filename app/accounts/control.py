"""An account its owner controls: change the password, set and verify an e-mail address,
reset a forgotten password by a mailed link (docs/decisions/account-control.md).

A mailed link carries a random token (256 bits) of which only the SHA-256 is stored; it
works once, before it expires. "Forgot password" gives the same answer whether the address
belongs to an account or not, and mails in the background (app/accounts/mail.py), so that
neither its answer nor its delay tells.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.mail import Mailer
from app.accounts.passwords import check_password
from app.accounts.service import AccountService, token_hash
from app.core.errors import ServiceError
from app.core.words import DEFAULT, say
from app.db.models import MailToken, Player
from app.limits.ratelimit import RateLimiter

VERIFY = "verify"
RESET = "reset"
VERIFY_TTL_MS = 24 * 3600_000
RESET_TTL_MS = 3600_000
MAX_EMAIL = 254
EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


@dataclass(frozen=True)
class MailLimits:
    """Mailing costs the server's sending reputation and fills inboxes: per IP, per
    address asked for and per account."""

    forgot_ip: RateLimiter
    forgot_address: RateLimiter
    verify_account: RateLimiter

    @staticmethod
    def default(clock: Callable[[], float]) -> MailLimits:
        return MailLimits(
            # 5 at once, then one every 2 minutes; 3 mails to one address, then one every
            # 10 minutes; 3 verification mails per account, then one every 10 minutes
            forgot_ip=RateLimiter(rate_per_s=1 / 120, burst=5, clock=clock),
            forgot_address=RateLimiter(rate_per_s=1 / 600, burst=3, clock=clock),
            verify_account=RateLimiter(rate_per_s=1 / 600, burst=3, clock=clock),
        )


def normal_email(email: str) -> str:
    """The address as stored and looked up: trimmed, lower-cased, checked."""
    email = email.strip().lower()
    if len(email) > MAX_EMAIL or not EMAIL.fullmatch(email):
        raise ServiceError("account.email_invalid", "not an e-mail address")
    return email


def _link_invalid() -> ServiceError:
    return ServiceError(
        "account.link_invalid", "this link is not valid: used already, expired or unknown", 400
    )


class AccountControl:
    def __init__(self, accounts: AccountService, mailer: Mailer, limits: MailLimits) -> None:
        self.accounts = accounts
        self.mailer = mailer
        self.limits = limits

    def _require_mail(self) -> None:
        if not self.mailer.enabled:
            raise ServiceError(
                "mail.unavailable", "this server sends no mail (no SMTP server is set)", 503
            )

    async def _owner(self, player_id: str, password: str) -> Player:
        """The open account, if ``password`` is its password (403 ``account.password_wrong``)."""
        player = await self.accounts.by_id(player_id)
        if player is None or player.username is None or player.password_hash is None:
            raise ServiceError("account.required", "log in to an account", 401)
        if player.closed_ms is not None:
            raise ServiceError("account.closed", "this account is closed", 401)
        if not await self.accounts.verify_password(player.password_hash, password):
            raise ServiceError("account.password_wrong", "the current password is wrong", 403)
        return player

    # ---- passwords -----------------------------------------------------------------------
    async def change_password(self, player_id: str, current: str, new: str) -> Player:
        """Set a new password; every browser session of the account ends (the caller gives
        its own a new cookie), its API tokens stay. The account as changed."""
        player = await self._owner(player_id, current)
        assert player.username is not None
        check_password(player.username, new)
        return await self._set_password(player_id, await self.accounts.hash_password(new))

    async def _set_password(self, player_id: str, new_hash: str) -> Player:
        now = self.accounts.now()
        async with self.accounts.sessions() as session, session.begin():
            await session.execute(
                update(Player)
                .where(Player.id == player_id)
                .values(password_hash=new_hash, session_gen=Player.session_gen + 1)
            )
            # A reset link mailed before is for the old password: it goes with it.
            await session.execute(
                update(MailToken)
                .where(
                    MailToken.player_id == player_id,
                    MailToken.kind == RESET,
                    MailToken.used_ms.is_(None),
                )
                .values(used_ms=now)
            )
            player = await session.get(Player, player_id, populate_existing=True)
            assert player is not None
        self.accounts.session_gens.changed(player_id, player.session_gen)
        return player

    # ---- e-mail --------------------------------------------------------------------------
    async def set_email(
        self, player_id: str, password: str, email: str, base_url: str, lang: str = DEFAULT
    ) -> Player:
        """Set the account's address (unverified until its link is followed: a mail is
        sent, in ``lang``), or remove it with ``""``."""
        player = await self._owner(player_id, password)
        address = normal_email(email) if email.strip() else None
        if address is not None:
            self._require_mail()
            self.limits.verify_account.hit(f"verify:{player_id}")
        async with self.accounts.sessions() as session, session.begin():
            await session.execute(
                update(Player)
                .where(Player.id == player_id)
                .values(email=address, email_verified_ms=None)
            )
            await session.execute(
                update(MailToken)
                .where(MailToken.player_id == player_id, MailToken.used_ms.is_(None))
                .values(used_ms=self.accounts.now())
            )
            token = None if address is None else self._new_token(session, player, VERIFY, address)
        if address is not None and token is not None:
            self.mailer.send_later(
                address,
                say(lang, "mail.verify.subject"),
                say(
                    lang,
                    "mail.verify.body",
                    name=player.username,
                    link=f"{base_url}/account?verify={token}",
                ),
            )
        player.email, player.email_verified_ms = address, None
        return player

    async def verify_email(self, token: str) -> Player:
        """Follow a verification link: its address becomes the account's verified one."""
        now = self.accounts.now()
        async with self.accounts.sessions() as session, session.begin():
            entry = await self._use(session, token, VERIFY, now)
            player = await session.get(Player, entry.player_id)
            if player is None or player.closed_ms is not None or player.email != entry.email:
                raise _link_invalid()
            player.email_verified_ms = now
        return player

    async def forgot_password(
        self, email: str, ip: str, base_url: str, lang: str = DEFAULT
    ) -> None:
        """Mail a reset link (in ``lang``) to each open account whose verified address this
        is; the same answer (none) whether there is one or not."""
        self._require_mail()
        self.limits.forgot_ip.hit(f"forgot:{ip}")
        address = normal_email(email)
        self.limits.forgot_address.hit(f"forgot:{address}")
        async with self.accounts.sessions() as session, session.begin():
            found = list(
                (
                    await session.execute(
                        select(Player).where(
                            Player.email == address,
                            Player.email_verified_ms.is_not(None),
                            Player.closed_ms.is_(None),
                            Player.username.is_not(None),
                        )
                    )
                ).scalars()
            )
            links = [(p, self._new_token(session, p, RESET, address)) for p in found]
        for player, token in links:
            self.mailer.send_later(
                address,
                say(lang, "mail.reset.subject"),
                say(
                    lang,
                    "mail.reset.body",
                    name=player.username,
                    link=f"{base_url}/account?reset={token}",
                ),
            )

    async def reset_password(self, token: str, new: str) -> Player:
        """Follow a reset link: set the new password; every session of the account ends
        (the caller logs the browser in). The account as changed."""
        now = self.accounts.now()
        if len(token) > 100:
            raise _link_invalid()
        async with self.accounts.sessions() as session:
            entry = (
                await session.execute(
                    select(MailToken).where(MailToken.token_hash == token_hash(token))
                )
            ).scalar_one_or_none()
            if entry is None or entry.kind != RESET or entry.used_ms is not None:
                raise _link_invalid()
            if entry.expires_ms <= now:
                raise _link_invalid()
            player = await session.get(Player, entry.player_id)
        if player is None or player.username is None or player.closed_ms is not None:
            raise _link_invalid()
        check_password(player.username, new)
        new_hash = await self.accounts.hash_password(new)
        async with self.accounts.sessions() as session, session.begin():
            # Spent in the same transaction as the password is set: of two uses at once,
            # one finds it used.
            await self._use(session, token, RESET, now)
        return await self._set_password(player.id, new_hash)

    # ---- mailed tokens -------------------------------------------------------------------
    def _new_token(self, session: AsyncSession, player: Player, kind: str, email: str) -> str:
        token = secrets.token_urlsafe(32)
        now = self.accounts.now()
        ttl = VERIFY_TTL_MS if kind == VERIFY else RESET_TTL_MS
        session.add(
            MailToken(
                token_hash=token_hash(token),
                player_id=player.id,
                kind=kind,
                email=email,
                created_ms=now,
                expires_ms=now + ttl,
            )
        )
        return token

    @staticmethod
    async def _use(session: AsyncSession, token: str, kind: str, now: int) -> MailToken:
        """Mark the link used, if it is one of ``kind``, unused and unexpired: one
        conditional UPDATE, so that it works once however many follow it at once."""
        if len(token) > 100:
            raise _link_invalid()
        result = await session.execute(
            update(MailToken)
            .where(
                MailToken.token_hash == token_hash(token),
                MailToken.kind == kind,
                MailToken.used_ms.is_(None),
                MailToken.expires_ms > now,
            )
            .values(used_ms=now)
            .returning(MailToken.player_id, MailToken.email)
        )
        row = result.one_or_none()
        if row is None:
            raise _link_invalid()
        return MailToken(token_hash=token_hash(token), player_id=row[0], email=row[1], kind=kind)
