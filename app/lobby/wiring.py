"""The lobby: its lists sent as diffs, and the seeks kept alive while their maker is here."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.config import Settings
from app.core.time import Clock
from app.games.service import GameService
from app.lobby.feed import LobbyFeed
from app.lobby.seeks import SeekKeeper
from app.realtime.wiring import Realtime


@dataclass(frozen=True)
class Lobby:
    feed: LobbyFeed
    seeks: SeekKeeper


def wire(settings: Settings, clock: Clock, games: GameService, realtime: Realtime) -> Lobby:
    return Lobby(
        LobbyFeed(games.reads.lobby, realtime.hub, settings.lobby_interval_seconds, clock),
        SeekKeeper(games, settings, clock),
    )
