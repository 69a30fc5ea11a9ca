"""A game's chat, with flood control per person on the app's clock, its write rules
(accounts, words, new accounts' pace) and its per-recipient delivery (blocks)."""

from __future__ import annotations

from app.chat.delivery import BlockedBy, ChatDelivery
from app.chat.flood import ChatFlood
from app.chat.safety import ChatSafety
from app.chat.service import Chat
from app.chat.words import BlockedWords
from app.core.config import Settings
from app.core.time import Clock
from app.db.wiring import Database
from app.realtime.wiring import Realtime


def wire(
    settings: Settings, clock: Clock, db: Database, realtime: Realtime, blocked_by: BlockedBy
) -> Chat:
    flood = ChatFlood(settings.chat_flood_lines, settings.chat_flood_seconds, clock.monotonic)
    safety = ChatSafety(
        db.sessions,
        BlockedWords.from_file(settings.chat_blocked_words_file),
        ChatFlood(1, settings.chat_new_account_seconds, clock.monotonic),
        new_ms=round(settings.chat_new_account_hours * 3_600_000),
        new_games=settings.chat_new_account_games,
    )
    return Chat(db.sessions, realtime.hub, flood, safety, ChatDelivery(blocked_by))
