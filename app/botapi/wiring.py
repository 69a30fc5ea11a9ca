"""The bot API's live parts: the players' event streams and what tells them of their games."""

from __future__ import annotations

from dataclasses import dataclass

from app.botapi.streams import EventStreams, GameEvents
from app.core.running import Running
from app.core.time import Clock
from app.games.service import GameService
from app.realtime.wiring import Realtime


@dataclass(frozen=True)
class BotApi:
    game_events: GameEvents
    event_streams: EventStreams


def wire(clock: Clock, games: GameService, realtime: Realtime, running: Running) -> BotApi:
    game_events = GameEvents(games, realtime.hub)
    running.on_stop(game_events.stop)
    return BotApi(game_events, EventStreams(clock.monotonic))
