"""All of an account's data as one JSON document (``GET /api/account/export``), streamed: a
player's games can be many, so they and the chat lines are read a page at a time and sent
as they are read, never held whole in memory.

The document: ``account`` (as ``GET /api/account``, with the e-mail address), ``ratings``
(the current Glicko-2 ratings), ``ratingHistory`` (what each rated game did), ``tokens``
(descriptions and scopes: the tokens themselves are never stored), ``games`` (as lichess's
game export JSON, ``GET /game/export/{id}``) and ``chat`` (the lines the account wrote).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.botapi import exports
from app.db.models import ApiToken, ChatLine, Player, PlayerRating, RatingChange

PAGE = 500


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def account_json(player: Player) -> dict[str, Any]:
    assert player.username is not None
    return {
        "id": player.id,
        "username": player.username,
        "title": player.title,
        "createdAt": player.created_ms,
        "email": player.email,
        "emailVerified": player.email_verified_ms is not None,
    }


async def document(
    sessions: async_sessionmaker[AsyncSession], player: Player, base_url: str
) -> AsyncIterator[bytes]:
    """The export, a piece at a time."""
    me = player.id
    async with sessions() as session:
        ratings = [
            {
                "variant": r.variant,
                "rating": r.rating,
                "deviation": r.deviation,
                "volatility": r.volatility,
                "games": r.games,
                "ratedAt": r.rated_ms,
            }
            for r in (
                await session.execute(
                    select(PlayerRating)
                    .where(PlayerRating.player_id == me)
                    .order_by(PlayerRating.variant)
                )
            ).scalars()
        ]
        history = [
            {
                "game": c.game_id,
                "variant": c.variant,
                "before": c.before,
                "after": c.after,
                "deviation": c.deviation,
                "at": c.at_ms,
            }
            for c in (
                await session.execute(
                    select(RatingChange)
                    .where(RatingChange.player_id == me)
                    .order_by(RatingChange.at_ms, RatingChange.game_id)
                )
            ).scalars()
        ]
        tokens = [
            {
                "id": t.id,
                "description": t.description,
                "scopes": t.scopes.split(),
                "createdAt": t.created_ms,
                "lastUsedAt": t.last_used_ms,
                "revokedAt": t.revoked_ms,
            }
            for t in (
                await session.execute(
                    select(ApiToken).where(ApiToken.player_id == me).order_by(ApiToken.created_ms)
                )
            ).scalars()
        ]
    head = {
        "account": account_json(player),
        "ratings": ratings,
        "ratingHistory": history,
        "tokens": tokens,
    }
    yield (_dumps(head)[:-1] + ',"games":[').encode()
    wanted = exports.GameFilter(player_id=me, finished=True, ongoing=True, newest_first=False)
    first = True
    async for games, context in exports.player_games(sessions, wanted):
        parts = [_dumps(exports.game_json(g, context, base_url, moves=True)) for g in games]
        if parts:
            yield (("" if first else ",") + ",".join(parts)).encode()
            first = False
    yield b'],"chat":['
    first = True
    async for lines in _chat_lines(sessions, me):
        parts = [
            _dumps({"game": c.game_id, "room": c.room, "text": c.text, "at": c.created_ms})
            for c in lines
        ]
        yield (("" if first else ",") + ",".join(parts)).encode()
        first = False
    yield b"]}\n"


async def _chat_lines(
    sessions: async_sessionmaker[AsyncSession], player_id: str
) -> AsyncIterator[list[ChatLine]]:
    after = 0
    while True:
        async with sessions() as session:
            lines = list(
                (
                    await session.execute(
                        select(ChatLine)
                        .where(ChatLine.player_id == player_id, ChatLine.id > after)
                        .order_by(ChatLine.id)
                        .limit(PAGE)
                    )
                ).scalars()
            )
        if not lines:
            return
        yield lines
        after = lines[-1].id
