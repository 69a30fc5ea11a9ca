"""Accounts: passwords hashed at the configured argon2 cost, tokens, per-player counts; the
owner's control of the account (password, e-mail through the configured SMTP server)."""

from __future__ import annotations

from argon2 import PasswordHasher

from app.accounts.control import AccountControl, MailLimits
from app.accounts.mail import Mailer
from app.accounts.service import AccountService, Limits
from app.core.config import Settings
from app.core.running import Running
from app.core.time import Clock
from app.db.wiring import Database


def wire(settings: Settings, clock: Clock, db: Database) -> AccountService:
    return AccountService(
        db.sessions,
        clock,
        hasher=PasswordHasher(
            time_cost=settings.argon2_time_cost,
            memory_cost=settings.argon2_memory_kib,
            parallelism=settings.argon2_parallelism,
        ),
        limits=Limits.default(clock.monotonic),
    )


def control(
    settings: Settings, clock: Clock, accounts: AccountService, running: Running
) -> AccountControl:
    mailer = Mailer(settings)
    running.on_stop(mailer.drain)  # the mails under way are sent before the instance stops
    return AccountControl(accounts, mailer, MailLimits.default(clock.monotonic))
