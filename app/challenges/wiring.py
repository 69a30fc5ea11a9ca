"""Challenges (to a player, open, to the computer) and the board API's seeks."""

from __future__ import annotations

from app.accounts.service import AccountService
from app.challenges.service import ChallengeService
from app.core.config import Settings
from app.core.time import Clock
from app.db.wiring import Database
from app.games.service import GameService
from app.realtime.wiring import Realtime


def wire(
    settings: Settings,
    clock: Clock,
    db: Database,
    games: GameService,
    accounts: AccountService,
    realtime: Realtime,
) -> ChallengeService:
    return ChallengeService(db.sessions, games, accounts, realtime.hub, settings, clock)
