"""Telling a rated game's viewers what its end did to the ratings, once that is committed:
an ``after`` hook of the outbox consumer (app/outbox/consumer.py), so the message leaves
after the transaction that changed the ratings, on every instance (the hub), whether the
change was made right after the game ended or later by a sweep (a crash in between)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Game
from app.domain.events import GameEnded, GameEvent
from app.ratings.reading import changes_json, game_changes
from app.realtime.hub import LocalHub
from app.realtime.messages import RatingsChanged, game_channel


class RatingsAnnouncer:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], hub: LocalHub) -> None:
        self.sessions = sessions
        self.hub = hub

    async def consumed(self, event: GameEvent) -> None:
        if not isinstance(event, GameEnded):
            return
        async with self.sessions() as session:
            game = await session.get(Game, event.game_id)
        if game is None or not game.rated:
            return
        ratings = changes_json((await game_changes(self.sessions, [game])).get(game.id))
        if ratings is not None:
            await self.hub.publish(
                game_channel(game.id), RatingsChanged(game.id, event.ply, ratings)
            )
