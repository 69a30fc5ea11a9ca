"""A game's chat: two rooms, ``player`` (the two players only) and ``spectator``; lines are
kept (they survive a reload) and told on the game's channel as ``ChatPosted`` events.

Who writes where (docs/decisions/chat.md): the game's players in both
rooms; anyone else watching, in the spectators' room; accounts only, whatever the room or the
way in (app/chat/safety.py). The bot/board API lets only the game's players write
(``require_player``). Which lines reach whom: app/chat/delivery.py."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.chat.delivery import ChatDelivery
from app.chat.flood import ChatFlood
from app.chat.kept import KeptLines
from app.chat.safety import ChatSafety
from app.core.errors import ServiceError
from app.db.models import ChatLine, ChatSanction, GameRow
from app.domain.enums import ChatRoom
from app.domain.events import ChatHidden, ChatPosted
from app.domain.players import Identity
from app.games.endings import seat_of
from app.realtime.hub import LocalHub
from app.realtime.messages import game_channel

CHAT_MAX = 140
HISTORY_MAX = 100  # the kept lines a page is sent when it connects (the newest)
# Characters that break a line or are controls: Cc (C0, DEL, C1: newline, tab, NEL), Zl and
# Zp (U+2028, U+2029); and Cs, a lone surrogate (JSON's "\ud800"), which is no text at all.
_REFUSED = frozenset(("Cc", "Cs", "Zl", "Zp"))


def clean(text: str) -> str:
    """The line as kept: one line of plain text, 1 to 140 characters once trimmed."""
    text = text.strip()
    if not text or len(text) > CHAT_MAX:
        raise ServiceError("chat.invalid", f"a chat line has 1 to {CHAT_MAX} characters")
    if any(unicodedata.category(c) in _REFUSED for c in text):
        raise ServiceError("chat.invalid", "a chat line is one line of plain text")
    return text


def require_player(game: GameRow, who: Identity) -> None:
    if seat_of(game, who.id) is None:
        raise ServiceError("game.not_player", "you are not playing in this game", 403)


def may_write(game: GameRow, who: Identity | None, room: ChatRoom, account: bool) -> None:
    """The browser's rule: the players write in both rooms; a spectator in the spectators'
    room only, and only with an account (``account``: ``who`` is one)."""
    if who is not None and seat_of(game, who.id) is not None:
        return
    if room == ChatRoom.PLAYER:
        raise ServiceError(
            "chat.forbidden", "the players' room is for the game's two players only", 403
        )
    if who is None or not account:
        raise ServiceError(
            "chat.needs_account", "sign in to an account to write in the spectators' room", 403
        )


class Chat:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        hub: LocalHub,
        flood: ChatFlood,
        safety: ChatSafety,
        delivery: ChatDelivery,
    ) -> None:
        self.sessions = sessions
        self.hub = hub
        self.flood = flood
        self.safety = safety  # who may write, and what (app/chat/safety.py)
        self.delivery = delivery  # which lines reach whom (app/chat/delivery.py)
        self._kept = KeptLines(hub, self._read_recent)

    async def post(
        self, game: GameRow, who: Identity, room: ChatRoom, text: str, now: int
    ) -> ChatPosted:
        """Keep a cleaned line by ``who`` (allowed to write there), then tell it; refused
        (``chat.too_fast``) if they write faster than the flood control allows, and
        (``chat.muted``) while a moderator's mute holds. A line written while their chat is
        visible only to themselves (app/moderation) is kept and told as theirs alone."""
        await self.safety.check(who, text, now)  # an account, no listed word, a new one's pace
        async with self.sessions() as session, session.begin():
            sanction = await session.get(ChatSanction, who.id)
            muted = sanction.muted_until_ms if sanction is not None else None
            if muted is not None and muted > now:
                raise ServiceError(
                    "chat.muted", "a moderator muted your chat for now", 403, until=muted
                )
            self.flood.hit(who.id)
            entry = ChatLine(
                game_id=game.id,
                room=room,
                player_id=who.id,
                username=who.name,
                text=text,
                created_ms=now,
                author_only=sanction is not None and sanction.troll,
            )
            session.add(entry)
            await session.flush()  # its id
            line_id, author_only = entry.id, entry.author_only
        event = ChatPosted(game.id, game.ply, room, who.id, who.name, text, line_id, author_only)
        await self.hub.publish(game_channel(game.id), event)
        return event

    async def hide(self, line_id: int, ply: int) -> None:
        """Serve the kept line ``line_id`` to nobody from now on, and tell the pages showing
        it (``ply``: its game's, as every message says it)."""
        async with self.sessions() as session, session.begin():
            line = await session.get(ChatLine, line_id)
            if line is None:
                raise ServiceError("chat.line_not_found", f"no chat line {line_id}", 404)
            line.hidden = True
            game_id = line.game_id
        await self.hub.publish(game_channel(game_id), ChatHidden(game_id, ply, line_id))

    async def lines(self, game_id: str) -> list[ChatLine]:
        """The game's kept lines not hidden by a moderator, oldest first."""
        async with self.sessions() as session:
            rows = await session.execute(
                select(ChatLine)
                .where(ChatLine.game_id == game_id, ChatLine.hidden.is_(False))
                .order_by(ChatLine.id)
            )
            return list(rows.scalars())

    async def recent(self, game_id: str, rooms: Iterable[ChatRoom]) -> list[ChatLine]:
        """The newest ``HISTORY_MAX`` lines of these rooms, oldest first: a read shared by
        the sockets of a crowd while no line is told (app/chat/kept.py)."""
        return await self._kept.recent(game_id, tuple(rooms))

    async def _read_recent(self, game_id: str, rooms: Iterable[ChatRoom]) -> list[ChatLine]:
        async with self.sessions() as session:
            rows = await session.execute(
                select(ChatLine)
                .where(
                    ChatLine.game_id == game_id,
                    ChatLine.room.in_(list(rooms)),
                    ChatLine.hidden.is_(False),
                )
                .order_by(ChatLine.id.desc())
                .limit(HISTORY_MAX)
            )
            return list(reversed(rows.scalars().all()))
