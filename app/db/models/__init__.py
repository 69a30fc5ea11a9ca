"""Database tables (SQLAlchemy 2 typed mappings). Statuses are stored as stable slugs.

Times are epoch milliseconds (BIGINT): clocks are arithmetic on them, and SQLite and
PostgreSQL store them alike.
"""

from app.db.models.base import Base
from app.db.models.games import Challenge, ChatLine, Game, GameRow, OutboxEntry
from app.db.models.moderation import ChatSanction, ModAction, Moderator, ModWarning, Report
from app.db.models.players import ApiToken, MailToken, Player
from app.db.models.presence import PlayerSocket, PoolEntry, ServerInstance
from app.db.models.ratings import PlayerRating, PlayerStats, RatingChange
from app.db.models.social import Block, Follow

__all__ = [
    "ApiToken",
    "Base",
    "Block",
    "Challenge",
    "ChatLine",
    "ChatSanction",
    "Follow",
    "Game",
    "GameRow",
    "MailToken",
    "ModAction",
    "ModWarning",
    "Moderator",
    "OutboxEntry",
    "Player",
    "PlayerRating",
    "PlayerSocket",
    "PlayerStats",
    "PoolEntry",
    "RatingChange",
    "Report",
    "ServerInstance",
]
