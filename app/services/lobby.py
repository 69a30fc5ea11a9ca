"""The lobby feed: after any change to the lists, everyone on the lobby page gets them anew.

Changes are coalesced: at most one recomputation every ``interval`` seconds, however many
games change meanwhile."""

from __future__ import annotations

import asyncio
import json
import logging

from ..models import Game
from .games import LOBBY_CHANNEL, GameService

log = logging.getLogger(__name__)


class LobbyFeed:
    def __init__(self, service: GameService, interval: float = 0.2) -> None:
        self.service = service
        self.interval = interval
        self._pending: asyncio.Task[None] | None = None
        service.listeners.append(self.changed)

    def changed(self, game: Game) -> None:
        if game.status == "started" and game.ply > 0:
            return  # a move changes neither list: only creation, start and end do
        if self._pending is None or self._pending.done():
            self._pending = asyncio.get_running_loop().create_task(self._publish())

    async def message(self) -> str:
        lists = await self.service.lobby()
        return json.dumps({"type": "lobby", **lists}, separators=(",", ":"))

    async def _publish(self) -> None:
        await asyncio.sleep(self.interval)
        try:
            await self.service.hub.publish(LOBBY_CHANNEL, await self.message())
        except Exception:
            log.exception("lobby update failed")

    async def stop(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
