"""Arena and Swiss tournaments: the services (the arenas' waves, the site's schedule and
the Swiss rounds start with the instance), and the outbox's consumers of their games' ends
(given to the outbox with the others)."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.config import Settings
from app.core.time import Clock
from app.db.wiring import Database
from app.games.wiring import Games
from app.tournaments import schedule
from app.tournaments.results import ArenaResults
from app.tournaments.service import Tournaments
from app.tournaments.swiss import SwissTournaments
from app.tournaments.swissresults import SwissResults


@dataclass(frozen=True)
class Arenas:
    service: Tournaments
    results: ArenaResults
    swiss: SwissTournaments
    swiss_results: SwissResults


def wire(settings: Settings, clock: Clock, db: Database, games: Games) -> Arenas:
    service = Tournaments(db.sessions, games.service, clock, is_postgres=db.is_postgres)
    # A malformed schedule stops the instance's start, with what is wrong with it.
    entries = schedule.parse(settings.tournament_schedule or [])
    service.scheduler = schedule.Scheduler(db.sessions, clock, entries, is_postgres=db.is_postgres)
    # A berserk changed a clock without an event: its game's timer is armed again.
    service.berserk_listeners.append(games.timekeeper.schedule)
    # A consumed arena game: its players are paired again at once, not at the next wave.
    games.service.subscribers.consumed.add("arena waves", service.consumed)
    swiss = SwissTournaments(db.sessions, games.service, clock)
    # A Swiss round's last game consumed: the next round starts at once (no interval).
    games.service.subscribers.consumed.add("swiss rounds", swiss.consumed)
    return Arenas(service, ArenaResults(), swiss, SwissResults())
