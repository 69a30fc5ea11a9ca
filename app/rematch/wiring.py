"""Rematches of finished games: offers, answers and lapses."""

from __future__ import annotations

from app.builtin.service import local_url
from app.challenges.service import ChallengeService
from app.core.config import Settings
from app.core.time import Clock
from app.games.service import GameService
from app.realtime.wiring import Realtime
from app.rematch.service import Rematches


def wire(
    settings: Settings,
    clock: Clock,
    games: GameService,
    challenges: ChallengeService,
    realtime: Realtime,
) -> Rematches:
    # A bot's rematch is a challenge; its links name the server's own address until a
    # request tells the public one.
    own_url = local_url(settings.host, settings.port)
    return Rematches(games, challenges, realtime.presence, clock, settings, own_url)
