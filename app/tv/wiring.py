"""TV: the channels' choice, kept up to date from the hub's lobby channel."""

from __future__ import annotations

import engine
from app.games.service import GameService
from app.realtime.wiring import Realtime
from app.tv.service import Television


def wire(games: GameService, realtime: Realtime) -> Television:
    """Started by the composition root (app/main.py) with the other services."""
    return Television(games.sessions, realtime.hub, engine.game_ids())
