"""A game's chat: two rooms, ``player`` (the two players only) and ``spectator``; lines are
kept (they survive a reload) and told on the game's channel as ``ChatPosted`` events."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..domain.events import ChatPosted
from ..domain.players import Identity
from ..models import ChatLine, Game
from ..realtime.hub import LocalHub
from .errors import ServiceError
from .games.transitions import seat_of
from .updates import game_channel

CHAT_MAX = 140


def clean(text: str) -> str:
    """The line as kept: one line of plain text, 1 to 140 characters once trimmed."""
    text = text.strip()
    if not text or len(text) > CHAT_MAX:
        raise ServiceError("chat.invalid", f"a chat line has 1 to {CHAT_MAX} characters")
    if any(ord(c) < 32 for c in text):
        raise ServiceError("chat.invalid", "a chat line is one line of plain text")
    return text


def require_player(game: Game, who: Identity) -> None:
    if seat_of(game, who.id) is None:
        raise ServiceError("game.not_player", "you are not playing in this game", 403)


class Chat:
    def __init__(self, sessions: async_sessionmaker[AsyncSession], hub: LocalHub) -> None:
        self.sessions = sessions
        self.hub = hub

    async def post(self, game: Game, who: Identity, room: str, text: str, now: int) -> None:
        """Keep a cleaned line of a player of ``game``, then tell it."""
        entry = ChatLine(
            game_id=game.id,
            room=room,
            player_id=who.id,
            username=who.name,
            text=text,
            created_ms=now,
        )
        async with self.sessions() as session, session.begin():
            session.add(entry)
        event = ChatPosted(game.id, game.ply, room, who.id, who.name, text)
        await self.hub.publish(game_channel(game.id), event)

    async def lines(self, game_id: str) -> list[ChatLine]:
        async with self.sessions() as session:
            rows = await session.execute(
                select(ChatLine).where(ChatLine.game_id == game_id).order_by(ChatLine.id)
            )
            return list(rows.scalars())
