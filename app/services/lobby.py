"""The lobby feed: after any change to the lists, everyone on the lobby page gets them anew.

Changes are coalesced: at most one recomputation every ``interval`` seconds, however many
games change meanwhile."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from ..domain.events import GameCreated, GameEnded, GameEvent, GameStarted, SeatTaken
from ..models import Game
from .games import GameService
from .updates import LOBBY_CHANNEL, LobbyMessage

# What changes the lobby's lists: a game created, its seats, its start and its end.
LISTED = (GameCreated, SeatTaken, GameStarted, GameEnded)

log = logging.getLogger(__name__)


class LobbyFeed:
    def __init__(self, service: GameService, interval: float = 0.2) -> None:
        self.service = service
        self.interval = interval
        self._pending: asyncio.Task[None] | None = None
        service.listeners.append(self.changed)

    def changed(self, game: Game, events: Sequence[GameEvent]) -> None:
        if not any(isinstance(e, LISTED) for e in events):
            return  # moves, offers and takebacks change neither list
        if self._pending is None or self._pending.done():
            self._pending = asyncio.get_running_loop().create_task(self._publish())

    async def message(self) -> LobbyMessage:
        lists: dict[str, Any] = await self.service.lobby()
        return LobbyMessage({"type": "lobby", **lists})

    async def _publish(self) -> None:
        await asyncio.sleep(self.interval)
        try:
            await self.service.hub.publish(LOBBY_CHANNEL, await self.message())
        except Exception:
            log.exception("lobby update failed")

    async def stop(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
