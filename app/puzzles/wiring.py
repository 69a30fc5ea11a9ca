"""The puzzles, on the database's sessions and the app's clock."""

from __future__ import annotations

from app.core.time import Clock
from app.db.wiring import Database
from app.puzzles.service import Puzzles


def wire(clock: Clock, db: Database) -> Puzzles:
    return Puzzles(db.sessions, clock)
