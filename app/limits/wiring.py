"""The API's rate limits and the caps per address, on the app's clock."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.config import Settings
from app.core.time import Clock
from app.games.service import GameService
from app.limits.api import ApiLimits
from app.limits.capacity import FileHandles
from app.limits.quotas import OpenGamesPerAddress, SocketsPerAddress


@dataclass(frozen=True)
class Limits:
    api: ApiLimits
    sockets: SocketsPerAddress
    open_games: OpenGamesPerAddress


def wire(settings: Settings, clock: Clock, games: GameService) -> Limits:
    return Limits(
        ApiLimits(settings, clock.monotonic),
        SocketsPerAddress(settings.max_sockets_per_ip, FileHandles(settings.file_handle_reserve)),
        OpenGamesPerAddress(settings.max_open_games_per_ip, games.reads.still_open),
    )
