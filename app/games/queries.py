"""Reads of many games at once: the lobby's lists, open games, live games."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select, union_all
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import aliased

from app.db.models import Game, Player
from app.domain.enums import GameStatus
from app.lobby import seekrange
from app.ratings.glicko2 import Rating
from app.ratings.reading import read_at_start


async def lobby(
    sessions: async_sessionmaker[AsyncSession], now_ms: int, limit: int = 100
) -> dict[str, list[dict[str, Any]]]:
    """The lobby's lists: public games waiting for an opponent, and public live games. An
    open game's creator's rating in its game is as of ``now_ms`` (idle days applied)."""
    # Both lists in one statement, so from one snapshot: as two reads (PostgreSQL's READ
    # COMMITTED, SQLite's autocommit SELECTs) a game joined between them was in both lists.
    open_listed = (
        select(Game)
        .where(
            Game.status == GameStatus.CREATED,
            Game.public.is_(True),
            Game.seek_away_ms.is_(None),  # its creator has a page open
        )
        .order_by(Game.created_ms.desc(), Game.id)
        .limit(limit)
        .subquery()
    )
    live_listed = (
        select(Game)
        .where(Game.status == GameStatus.STARTED, Game.public.is_(True))
        .order_by(Game.started_ms.desc(), Game.id)
        .limit(limit)
        .subquery()
    )
    listed = aliased(Game, union_all(select(open_listed), select(live_listed)).subquery())
    async with sessions() as session:
        games = list((await session.execute(select(listed))).scalars())
        # One order each, the same at every read: the lobby sends differences.
        open_games = sorted(
            (g for g in games if g.status == GameStatus.CREATED),
            key=lambda g: (-g.created_ms, g.id),
        )
        live_games = sorted(
            (g for g in games if g.status == GameStatus.STARTED),
            key=lambda g: (-(g.started_ms or 0), g.id),
        )
        ids = {g.creator_id for g in open_games} | {
            i for g in live_games for i in (g.first_id, g.second_id) if i
        }
        names = {
            p.id: p.name
            for p in (await session.execute(select(Player).where(Player.id.in_(ids)))).scalars()
        }
        ratings: dict[tuple[str, str], Rating] = {}
        for variant in {g.variant for g in open_games}:
            creators = [g.creator_id for g in open_games if g.variant == variant]
            found = await read_at_start(session, variant, creators, now_ms)
            ratings.update({(variant, pid): r for pid, r in found.items()})

    def summary(game: Game) -> dict[str, Any]:
        return {
            "id": game.id,
            "variant": game.variant,
            "rules": game.rules,
            "clock": None
            if game.clock_initial_ms is None
            else {
                "initial": game.clock_initial_ms,
                "increment": game.clock_increment_ms,
                "byoyomi": game.clock_byoyomi_ms,
                "periods": game.clock_periods,
            },
            "days": game.days,
            "rated": game.rated,
        }

    def creator_rating(game: Game) -> dict[str, Any] | None:
        found = ratings.get((game.variant, game.creator_id))
        if found is None:
            return None  # anonymous
        return {"rating": round(found.rating), "provisional": found.provisional}

    return {
        "open": [
            {
                **summary(g),
                "creator": names.get(g.creator_id, "?"),
                "creatorId": g.creator_id,
                "color": g.creator_color,
                "creatorRating": creator_rating(g),
                "ratingRange": None if (span := seekrange.of(g)) is None else list(span),
            }
            for g in open_games
        ],
        "live": [
            {
                **summary(g),
                "first": names.get(g.first_id or "", "?"),
                "second": names.get(g.second_id or "", "?"),
                "firstId": g.first_id,
                "secondId": g.second_id,
            }
            for g in live_games
        ],
    }


async def open_public_count(sessions: async_sessionmaker[AsyncSession], creator_id: str) -> int:
    """How many public games this player has waiting for an opponent."""
    async with sessions() as session:
        count: int = (
            await session.execute(
                select(func.count())
                .select_from(Game)
                .where(
                    Game.status == GameStatus.CREATED,
                    Game.public.is_(True),
                    Game.creator_id == creator_id,
                )
            )
        ).scalar_one()
    return count


async def still_open(sessions: async_sessionmaker[AsyncSession], game_ids: list[str]) -> list[str]:
    """Those of these games that are still waiting for an opponent, in the same order."""
    if not game_ids:
        return []
    async with sessions() as session:
        rows = await session.execute(
            select(Game.id).where(Game.id.in_(game_ids), Game.status == GameStatus.CREATED)
        )
        waiting = {row[0] for row in rows}
    return [game_id for game_id in game_ids if game_id in waiting]


async def unjoined_since(sessions: async_sessionmaker[AsyncSession], cutoff_ms: int) -> list[str]:
    """Games still waiting for an opponent, created before ``cutoff_ms``."""
    async with sessions() as session:
        rows = await session.execute(
            select(Game.id).where(Game.status == GameStatus.CREATED, Game.created_ms < cutoff_ms)
        )
        return [r[0] for r in rows]


async def invited(sessions: async_sessionmaker[AsyncSession], token: str) -> str | None:
    """The game whose invite token this is."""
    async with sessions() as session:
        found: str | None = (
            await session.execute(select(Game.id).where(Game.invite_token == token))
        ).scalar_one_or_none()
    return found
