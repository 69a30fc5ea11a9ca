"""Arena tournaments: the service (its clock's waves start with the instance), and the
outbox's consumer of their games' ends (given to the outbox with the others)."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.time import Clock
from app.db.wiring import Database
from app.games.wiring import Games
from app.tournaments.results import ArenaResults
from app.tournaments.service import Tournaments


@dataclass(frozen=True)
class Arenas:
    service: Tournaments
    results: ArenaResults


def wire(clock: Clock, db: Database, games: Games) -> Arenas:
    service = Tournaments(db.sessions, games.service, clock, is_postgres=db.is_postgres)
    # A berserk changed a clock without an event: its game's timer is armed again.
    service.berserk_listeners.append(games.timekeeper.schedule)
    # A consumed arena game: its players are paired again at once, not at the next wave.
    games.service.subscribers.consumed.add("arena waves", service.consumed)
    return Arenas(service, ArenaResults())
