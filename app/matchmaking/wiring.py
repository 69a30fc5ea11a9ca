"""Quick pairing: the pools' entries and their pairing rounds."""

from __future__ import annotations

from app.core.config import Settings
from app.core.time import Clock
from app.db.wiring import Database
from app.games.service import GameService
from app.matchmaking.service import PoolService
from app.realtime.wiring import Realtime


def wire(
    settings: Settings, clock: Clock, db: Database, games: GameService, realtime: Realtime
) -> PoolService:
    return PoolService(
        db.sessions,
        games,
        realtime.hub,
        clock,
        is_postgres=db.is_postgres,
        round_seconds=settings.pool_round_seconds,
        beat_seconds=settings.pool_beat_seconds,
        expire_seconds=settings.pool_expire_seconds,
    )
