"""Moderation: the reports and the moderators' actions, acting on the chat's lines."""

from __future__ import annotations

from app.chat.service import Chat
from app.core.time import Clock
from app.db.wiring import Database
from app.moderation.service import Moderation


def wire(clock: Clock, db: Database, chat: Chat) -> Moderation:
    return Moderation(db.sessions, clock, chat)
