"""Accounts: passwords hashed at the configured argon2 cost, tokens, per-player counts."""

from __future__ import annotations

from argon2 import PasswordHasher

from app.accounts.service import AccountService, Limits
from app.core.config import Settings
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
