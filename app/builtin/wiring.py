"""The built-in opponents, run by one instance per database (a lease)."""

from __future__ import annotations

from app.accounts.service import AccountService
from app.builtin.seats import Seats
from app.builtin.service import BuiltinBots, fairy_command, local_url, offered
from app.core.config import Settings
from app.core.time import Clock
from app.db.wiring import Database
from app.games.service import GameService
from app.realtime.hub import asyncpg_dsn
from app.realtime.lease import BUILTIN_BOTS_LOCK, AdvisoryLease, Lease, SoleHolder
from app.realtime.presence import Presence


def wire(
    settings: Settings,
    clock: Clock,
    db: Database,
    accounts: AccountService,
    games: GameService,
    presence: Presence,
) -> BuiltinBots | None:
    """None unless the settings ask for them (``python -m app serve`` does)."""
    if not settings.builtin_bots:
        return None
    lease: Lease = (
        AdvisoryLease(
            asyncpg_dsn(settings.resolved_database_url),
            BUILTIN_BOTS_LOCK,
            settings.builtin_lease_retry_seconds,
        )
        if db.is_postgres
        else SoleHolder()
    )
    seats = Seats(db.sessions, games, presence, settings.builtin_seats)
    return BuiltinBots(
        accounts,
        local_url(settings.host, settings.port),
        clock,
        levels=offered(settings),
        lease=lease,
        seats=seats,
        tables=settings.resolved_tablebase_path,
        fairy=fairy_command(settings),
    )
