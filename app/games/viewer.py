"""One live view of a game, whatever carries it: the game WebSocket (app/games/socket.py) and the
bot/board NDJSON game stream (app/botapi/routes.py) are two encodings of this one
subscription.

A view subscribes to the game's hub channel before it reads the game (no change can fall
between the two), counts as its player connected (or as a spectator) while it lasts, and
hands its owner typed messages: ``GameUpdate`` and ``ChatPosted`` as published,
``PresenceChanged`` (its own arrival first, then the game's presence as app/realtime/presencefeed.py
tells it), ``RESYNC`` when messages were lost (a slow reader, an outage: read the whole state
again), ``CLOSING`` when the server shuts down, None after a quiet period (a keep-alive).
The players' chat room never reaches a spectator, and a line reaches only those the chat's
per-recipient filter lets it reach (app/chat/delivery.py). A watcher who gets a seat (a
random-colour creator, once someone joins) becomes that player here.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

from app.botapi.streams import next_message, streaming, wait_message
from app.db.engine import uncancelled
from app.db.models import GameRow
from app.domain.events import ChatPosted, SeatTaken
from app.domain.players import Identity
from app.games.endings import seat_of
from app.http.deps import Services
from app.realtime.hub import RESYNC, Subscription
from app.realtime.messages import GameUpdate, game_channel
from engine import Side


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
            if isinstance(message, ChatPosted) and not await self._reaches(message):
                continue  # e.g. a line by someone this viewer blocks (app/chat/delivery.py)
            if isinstance(message, GameUpdate) and self.side is None and self.who is not None:
                await self._take_seat(message)
            return message

    async def _reaches(self, line: ChatPosted) -> bool:
        reader = await self.services.chat.delivery.reader(self.who)
        return reader.sees(line)

    async def _take_seat(self, update: GameUpdate) -> None:
        """A watcher who just got a seat now counts as that player online."""
        assert self.who is not None
        for event in update.events:
            if isinstance(event, SeatTaken) and event.player_id == self.who.id:
                self.services.crowd.seated(self.game_id, event.side)
                self.side = event.side
                return

    async def game(self) -> GameRow:
        return await uncancelled(self.services.games.reads.get(self.game_id))


@contextlib.asynccontextmanager
async def view(
    services: Services, game: GameRow, who: Identity | None, side: Side | None
) -> AsyncIterator[Viewer]:
    """A view of ``game`` (already read once: it exists) by ``who`` in ``side``; the first
    state is to be read through ``Viewer.game`` after entering (subscribed by then)."""
    async with (
        services.hub.subscribe(game_channel(game.id)) as sub,
        _present(Viewer(services, game.id, who, side, sub), game) as viewer,
    ):
        yield viewer


@contextlib.asynccontextmanager
async def view_of(
    services: Services, game_id: str, who: Identity | None
) -> AsyncIterator[tuple[Viewer, GameRow]]:
    """A view of a game by ``who`` in their seat (a spectator without one), and the game as
    read once subscribed: its first state (one read of the game per view, not two).
    ``ServiceError`` (``game.not_found``) if there is no such game."""
    async with services.hub.subscribe(game_channel(game_id)) as sub:
        game = await uncancelled(services.games.reads.get_shared(game_id))
        side = None if who is None else seat_of(game, who.id)
        async with _present(Viewer(services, game.id, who, side, sub), game) as viewer:
            yield viewer, game


@contextlib.asynccontextmanager
async def _present(viewer: Viewer, game: GameRow) -> AsyncIterator[Viewer]:
    """The view's player (or spectator) counted as present while it lasts."""
    services = viewer.services
    streaming(viewer.sub)  # ended by the server's shutdown (wait_message sets no timer)
    services.presence.ply[game.id] = game.ply
    # Told to the others later (a player's arrival at once, a spectator's coalesced); the
    # joiner gets the presence line now, after its first state. Nothing here awaits: a
    # view's task may be cancelled (shutdown, a client gone) at any moment.
    services.crowd.join(game.id, viewer.side)
    viewer.sub.deliver(services.presence.message(game.id))
    try:
        yield viewer
    finally:
        services.crowd.leave(game.id, viewer.side)


__all__ = ["RESYNC", "Viewer", "view", "view_of"]
