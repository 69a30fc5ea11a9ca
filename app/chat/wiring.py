"""A game's chat, with flood control per person on the app's clock."""

from __future__ import annotations

from app.chat.flood import ChatFlood
from app.chat.service import Chat
from app.core.config import Settings
from app.core.time import Clock
from app.db.wiring import Database
from app.realtime.wiring import Realtime


def wire(settings: Settings, clock: Clock, db: Database, realtime: Realtime) -> Chat:
    flood = ChatFlood(settings.chat_flood_lines, settings.chat_flood_seconds, clock.monotonic)
    return Chat(db.sessions, realtime.hub, flood)
