"""Who may write a chat line, and what it may say, before it is kept
(docs/decisions/blocking-and-chat-safety.md):

- **accounts only**, in every room and every way of writing (the game page, the bot/board
  API): an anonymous identity is a cookie anyone can throw away, so neither blocking nor
  flood control would hold it (``403 chat.needs_account``);
- **no listed word** (app/chat/words.py: ``400 chat.refused_words``);
- **a new account writes slowly**: younger than ``chat_new_account_hours``, or with fewer
  than ``chat_new_account_games`` games played to the end, one line every
  ``chat_new_account_seconds`` (``429 chat.too_fast``), on top of everyone's flood control.

A refused line is kept nowhere and told to nobody.
"""

from __future__ import annotations

from sqlalchemy import func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.chat.flood import ChatFlood
from app.chat.words import BlockedWords
from app.core.errors import ServiceError
from app.db.models import Game, Player
from app.domain.enums import ENDED, GameStatus
from app.domain.players import Identity

PLAYED = tuple(s for s in ENDED if s != GameStatus.ABORTED)  # games that count as played


def needs_account() -> ServiceError:
    return ServiceError("chat.needs_account", "sign in to an account to write in the chat", 403)


class ChatSafety:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        words: BlockedWords,
        new_flood: ChatFlood,
        *,
        new_ms: int,
        new_games: int,
    ) -> None:
        self.sessions = sessions
        self.words = words
        self.new_flood = new_flood
        self.new_ms = new_ms
        self.new_games = new_games
        # Accounts seen past both limits: they never become new again (no read for them).
        self._established: set[str] = set()

    async def check(self, who: Identity, text: str, now: int) -> None:
        """Refuse ``text`` by ``who`` (a ``ServiceError``) unless it may be kept."""
        if who.id in self._established:
            self.words.check(text)
            return
        async with self.sessions() as session:
            player = await session.get(Player, who.id)
            if player is None or player.username is None:
                raise needs_account()
            self.words.check(text)
            new = now - player.created_ms < self.new_ms or (
                await self._played(session, who.id) < self.new_games
            )
        if new:
            self.new_flood.hit(who.id)
        elif len(self._established) < 100_000:  # a bound: past it, established ones are read
            self._established.add(who.id)

    async def _played(self, session: AsyncSession, player_id: str) -> int:
        """How many games ``player_id`` played to the end, counted up to ``new_games``."""
        if self.new_games == 0:
            return 0
        played = (
            select(Game.id)
            .where(
                or_(Game.first_id == player_id, Game.second_id == player_id),
                Game.status.in_(PLAYED),
            )
            .limit(self.new_games)
            .subquery()
        )
        return int((await session.execute(select(func.count()).select_from(played))).scalar_one())
