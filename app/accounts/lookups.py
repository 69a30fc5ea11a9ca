"""The account a route names by its username, shared by the user and rating routes."""

from __future__ import annotations

from app.core.errors import ServiceError
from app.db.models import Player
from app.http.deps import Services


async def account_by_name(services: Services, username: str) -> Player:
    player = await services.accounts.by_username(username) if len(username) <= 20 else None
    if player is None or player.username is None:
        raise ServiceError("user.not_found", f"no user {username!r}", 404)
    return player
