"""The games of an app instance: the game service (its roles, its subscribers) and the
timekeeper that ends games on time."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.config import Settings
from app.core.running import Running
from app.core.time import Clock
from app.db.wiring import Database
from app.games.service import GameService
from app.games.timekeeper import Timekeeper
from app.realtime.wiring import Realtime


@dataclass(frozen=True)
class Games:
    service: GameService
    timekeeper: Timekeeper


def wire(
    settings: Settings, clock: Clock, db: Database, realtime: Realtime, running: Running
) -> Games:
    service = GameService(db.sessions, realtime.hub, settings, clock, is_postgres=db.is_postgres)
    service.gone_for_ms = realtime.presence.gone_for_ms
    running.on_stop(service.close)
    return Games(service, Timekeeper(service, clock))
