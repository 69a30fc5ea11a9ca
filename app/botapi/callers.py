"""Who may call the bot and board API's game routes, and their rate limits."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.core.errors import ServiceError
from app.http.auth import Caller, caller, client_ip
from app.http.deps import Services

BotCaller = caller("bot:play")
BoardCaller = caller("board:play")


def subject(who: Caller) -> str:
    return f"token:{who.token_id}" if who.token_id else f"player:{who.identity.id}"


def limit(
    services: Services, kind: str, who: Caller, request: Request, game_id: str | None = None
) -> None:
    services.limits.hit(kind, subject(who), client_ip(request), game_id)


async def bot_player(who: Annotated[Caller, Depends(BotCaller)]) -> Caller:
    if not who.bot:
        raise ServiceError(
            "bot.required",
            "this endpoint is for BOT accounts (POST /api/bot/account/upgrade); "
            "people playing through a program use /api/board/...",
            403,
        )
    return who


async def board_player(who: Annotated[Caller, Depends(BoardCaller)]) -> Caller:
    if who.bot:
        raise ServiceError("bot.forbidden", "a BOT account plays through /api/bot/...", 403)
    return who
