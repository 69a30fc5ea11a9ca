"""One live view of a game, whatever carries it: the game WebSocket (app/api/ws.py) and the
bot/board NDJSON game stream (app/api/routes/bot.py) are two encodings of this one
subscription.

A view subscribes to the game's hub channel before it reads the game (no change can fall
between the two), counts as its player connected (or as a spectator) while it lasts, and
hands its owner typed messages: ``GameUpdate``, ``PresenceChanged`` and ``ChatPosted`` as
published, ``RESYNC`` when messages were lost (a slow reader, an outage: read the whole state
again), ``CLOSING`` when the server shuts down, None after a quiet period (a keep-alive).
The players' chat room never reaches a spectator. A watcher who gets a seat (a random-colour
creator, once someone joins) becomes that player here.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

from engine import Side

from ..db import uncancelled
from ..domain.events import ChatPosted, SeatTaken
from ..domain.players import Identity
from ..models import Game
from ..realtime.hub import RESYNC, Subscription
from ..services.streams import next_message, streaming, wait_message
from ..services.updates import GameUpdate, game_channel
from .deps import Services

_detached: set[asyncio.Task[None]] = set()


@dataclass(eq=False)
class Viewer:
    services: Services
    game_id: str
    who: Identity | None
    side: Side | None  # the seat of its player; None: a spectator
    sub: Subscription

    async def next(self, keepalive: float | None = None) -> object | None:
        """The next message for this view (see the module's docstring)."""
        while True:
            if not keepalive:  # nothing to send while quiet: no timer either
                message = await wait_message(self.sub)
            else:
                message = await next_message(self.sub, keepalive)
            if isinstance(message, ChatPosted) and message.room == "player" and self.side is None:
                continue  # the players' chat room is theirs only (docs/protocol.md, chat)
            if isinstance(message, GameUpdate) and self.side is None and self.who is not None:
                await self._take_seat(message)
            return message

    async def _take_seat(self, update: GameUpdate) -> None:
        """A watcher who just got a seat now counts as that player online."""
        assert self.who is not None
        for event in update.events:
            if isinstance(event, SeatTaken) and event.player_id == self.who.id:
                presence = self.services.presence
                presence.leave(self.game_id, None)
                presence.join(self.game_id, event.side)
                self.side = event.side
                await self.services.publish_presence(self.game_id)
                return

    async def game(self) -> Game:
        return await uncancelled(self.services.games.get(self.game_id))


@contextlib.asynccontextmanager
async def view(
    services: Services, game: Game, who: Identity | None, side: Side | None
) -> AsyncIterator[Viewer]:
    """A view of ``game`` (already read once: it exists) by ``who`` in ``side``; the first
    state is to be read through ``Viewer.game`` after entering (subscribed by then)."""
    presence = services.presence
    async with services.hub.subscribe(game_channel(game.id)) as sub:
        viewer = Viewer(services, game.id, who, side, sub)
        streaming(sub)
        presence.ply[game.id] = game.ply
        presence.join(game.id, side)
        try:
            await services.publish_presence(game.id)
            yield viewer
        finally:
            presence.leave(game.id, viewer.side)
            message = presence.message(game.id)
            presence.forget_if_idle(game.id)
            # Detached: the view's task may be cancelled (shutdown, a client gone) right now.
            task = asyncio.get_running_loop().create_task(
                services.publish_presence(game.id, message)
            )
            _detached.add(task)
            task.add_done_callback(_detached.discard)


__all__ = ["RESYNC", "Viewer", "view"]
