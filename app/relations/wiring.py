"""Relations: the follows, with "online" read as the seeks read it (an instance silent for
``instance_dead_seconds`` counts as gone with its sockets)."""

from __future__ import annotations

from app.core.config import Settings
from app.core.time import Clock
from app.db.wiring import Database
from app.relations.service import Relations


def wire(settings: Settings, clock: Clock, db: Database) -> Relations:
    return Relations(db.sessions, clock, dead_ms=round(settings.instance_dead_seconds * 1000))
