"""What must happen once per ended game (docs/decisions/outbox.md): consumed right after the
change commits, and what a crash left, at start-up and by a sweep."""

from __future__ import annotations

from collections.abc import Sequence

from app.core.time import Clock
from app.db.wiring import Database
from app.games.service import GameService
from app.outbox.consumer import Consumer, OutboxConsumer


def wire(
    clock: Clock, db: Database, games: GameService, consumers: Sequence[Consumer]
) -> OutboxConsumer:
    """``consumers``: each acts once on every durable event (player counts, ratings)."""
    return OutboxConsumer(db.sessions, consumers, clock, after=games.subscribers.consumed)
