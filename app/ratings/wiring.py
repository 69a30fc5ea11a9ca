"""Ratings: the outbox consumer that rates a finished game once, and the announcer that tells
its viewers what it did."""

from __future__ import annotations

from dataclasses import dataclass

from app.db.wiring import Database
from app.ratings.announce import RatingsAnnouncer
from app.ratings.service import RatingsConsumer
from app.realtime.wiring import Realtime


@dataclass(frozen=True)
class Ratings:
    consumer: RatingsConsumer
    announcer: RatingsAnnouncer


def wire(db: Database, realtime: Realtime) -> Ratings:
    return Ratings(
        RatingsConsumer(is_postgres=db.is_postgres), RatingsAnnouncer(db.sessions, realtime.hub)
    )
