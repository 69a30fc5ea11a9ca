"""Ratings as players and clients read them: a seat's rating at a game's start, what a rated
game did to both players, a player's perfs (lichess's ``perfs``), rating history and the
leaderboards. Every rating read is "as of" a time: the idle days since the player's last
rated game in that game are applied (``service.as_of``). Numbers shown are rounded, as
lichess shows them.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

import engine
from app.db.models import GameRow, Player, PlayerRating, RatingChange
from app.domain.enums import Side
from app.ratings.glicko2 import PROVISIONAL_DEVIATION, Rating
from app.ratings.service import Perf, as_of

PROGRESS_GAMES = 12  # lichess's progress: the change over the last 12 rated games
LEADERBOARD_GAMES = 10  # rated games a player needs to be on a leaderboard
MAX_LEADERBOARD = 200  # lichess's cap of /api/player/top/{nb}/…


@dataclass(frozen=True, slots=True)
class Change:
    """What a rated game did to one player's rating, rounded as shown."""

    before: int
    after: int
    provisional: bool  # the rating after the game

    @property
    def diff(self) -> int:
        return self.after - self.before

    def json(self) -> dict[str, Any]:
        return {
            "before": self.before,
            "after": self.after,
            "diff": self.diff,
            "provisional": self.provisional,
        }


def change_of(row: RatingChange) -> Change:
    return Change(round(row.before), round(row.after), row.deviation > PROVISIONAL_DEVIATION)


async def at_start(
    sessions: async_sessionmaker[AsyncSession],
    variant: str,
    player_ids: Iterable[str | None],
    now_ms: int,
) -> dict[str, Rating]:
    """The ratings in ``variant`` of those players who are accounts, as of ``now_ms`` (a
    game's start); anonymous players have none."""
    if not any(player_ids := list(player_ids)):
        return {}
    async with sessions() as session:
        return await read_at_start(session, variant, player_ids, now_ms)


async def read_at_start(
    session: AsyncSession, variant: str, player_ids: Iterable[str | None], now_ms: int
) -> dict[str, Rating]:
    """``at_start`` in a transaction of the caller's (a pairing round's)."""
    wanted = {i for i in player_ids if i}
    if not wanted:
        return {}
    rows = (
        await session.execute(
            select(Player.id, PlayerRating)
            .outerjoin(
                PlayerRating,
                (PlayerRating.player_id == Player.id) & (PlayerRating.variant == variant),
            )
            .where(Player.id.in_(wanted), Player.username.is_not(None))
        )
    ).all()
    return {player_id: as_of(row, now_ms).rating for player_id, row in rows}


def seat_columns(game: GameRow, ratings: Mapping[str, Rating]) -> None:
    """Keep each seated account's rating (as of now: the game starts) in the game's row."""
    for side, player_id in ((Side.FIRST, game.first_id), (Side.SECOND, game.second_id)):
        found = ratings.get(player_id or "")
        value = None if found is None else round(found.rating)
        provisional = None if found is None else found.provisional
        if side == Side.FIRST:
            game.first_rating, game.first_provisional = value, provisional
        else:
            game.second_rating, game.second_provisional = value, provisional


def seat_rating(game: GameRow, side: Side) -> tuple[int, bool] | None:
    """A seat's rating at the game's start and whether it was provisional (None: none)."""
    if side == Side.FIRST:
        rating, provisional = game.first_rating, game.first_provisional
    else:
        rating, provisional = game.second_rating, game.second_provisional
    return None if rating is None else (rating, bool(provisional))


async def game_changes(
    sessions: async_sessionmaker[AsyncSession], games: Sequence[GameRow]
) -> dict[str, dict[Side, Change]]:
    """What each of these games did to its players' ratings, by game id then side (a game
    absent: casual, not over, or its end not yet consumed)."""
    rated = {g.id: g for g in games if g.rated}
    if not rated:
        return {}
    async with sessions() as session:
        rows = (
            await session.execute(select(RatingChange).where(RatingChange.game_id.in_(list(rated))))
        ).scalars()
        found: dict[str, dict[Side, Change]] = {}
        for row in rows:
            game = rated[row.game_id]
            side = Side.FIRST if row.player_id == game.first_id else Side.SECOND
            found.setdefault(row.game_id, {})[side] = change_of(row)
    return {game_id: sides for game_id, sides in found.items() if len(sides) == 2}


def changes_json(changes: Mapping[Side, Change] | None) -> dict[str, Any] | None:
    """The browser protocol's ``ratings`` object (docs/protocol.md)."""
    if not changes:
        return None
    return {str(side): changes[side].json() for side in (Side.FIRST, Side.SECOND)}


# ---- a player's ratings ------------------------------------------------------------------------
async def progress(
    sessions: async_sessionmaker[AsyncSession], player_ids: Sequence[str], variant: str | None
) -> dict[tuple[str, str], int]:
    """lichess's ``prog``: the rating change over each player's last 12 rated games in each
    game (or in ``variant``), by (player id, game)."""
    if not player_ids:
        return {}
    latest = func.row_number().over(
        partition_by=(RatingChange.player_id, RatingChange.variant),
        order_by=(RatingChange.at_ms.desc(), RatingChange.game_id.desc()),
    )
    recent = select(
        RatingChange.player_id,
        RatingChange.variant,
        RatingChange.before,
        RatingChange.after,
        latest.label("n"),
    ).where(RatingChange.player_id.in_(list(player_ids)))
    if variant is not None:
        recent = recent.where(RatingChange.variant == variant)
    ranked = recent.subquery()
    statement = (
        select(ranked.c.player_id, ranked.c.variant, ranked.c.before, ranked.c.after)
        .where(ranked.c.n <= PROGRESS_GAMES)
        .order_by(ranked.c.player_id, ranked.c.variant, ranked.c.n)
    )
    newest: dict[tuple[str, str], float] = {}
    oldest: dict[tuple[str, str], float] = {}
    async with sessions() as session:
        for player_id, game, before, after in (await session.execute(statement)).all():
            newest.setdefault((player_id, game), after)
            oldest[(player_id, game)] = before
    return {key: round(newest[key]) - round(oldest[key]) for key in newest}


def perf_json(perf: Perf, prog: int) -> dict[str, Any]:
    """One of lichess's ``perfs``: ``{"games", "rating", "rd", "prog", "prov"?}``."""
    data: dict[str, Any] = {
        "games": perf.games,
        "rating": round(perf.rating.rating),
        "rd": round(perf.rating.deviation),
        "prog": prog,
    }
    if perf.rating.provisional:
        data["prov"] = True
    return data


async def perfs_json(
    sessions: async_sessionmaker[AsyncSession], player_id: str, now_ms: int
) -> dict[str, Any]:
    """The player's ``perfs``: one per game played rated, in the games' order."""
    async with sessions() as session:
        rows = {
            row.variant: row
            for row in (
                await session.execute(
                    select(PlayerRating).where(
                        PlayerRating.player_id == player_id, PlayerRating.games > 0
                    )
                )
            ).scalars()
        }
    progs = await progress(sessions, [player_id], None)
    return {
        game: perf_json(as_of(rows[game], now_ms), progs.get((player_id, game), 0))
        for game in engine.game_ids()
        if game in rows
    }


async def history(sessions: async_sessionmaker[AsyncSession], player_id: str) -> list[Any]:
    """lichess's rating history: per game, a point per UTC day with a rated game,
    ``[year, month - 1, day, rating after that day's last one]``, oldest first."""
    async with sessions() as session:
        rows = (
            await session.execute(
                select(RatingChange.variant, RatingChange.after, RatingChange.at_ms)
                .where(RatingChange.player_id == player_id)
                .order_by(RatingChange.at_ms, RatingChange.game_id)
            )
        ).all()
    days: dict[str, dict[tuple[int, int, int], int]] = {game: {} for game in engine.game_ids()}
    for variant, after, at_ms in rows:
        day = datetime.datetime.fromtimestamp(at_ms / 1000, datetime.UTC)
        days.setdefault(variant, {})[(day.year, day.month - 1, day.day)] = round(after)
    return [
        {
            "name": engine.get_game(game).name,
            "points": [[*day, rating] for day, rating in days[game].items()],
        }
        for game in engine.game_ids()
    ]


@dataclass(frozen=True, slots=True)
class Leader:
    player: Player
    rating: int
    progress: int


async def leaderboard(
    sessions: async_sessionmaker[AsyncSession], variant: str, nb: int, now_ms: int
) -> list[Leader]:
    """The best ``nb`` accounts in ``variant``: at least 10 rated games, and a rating not
    provisional as of now (idle days can make it provisional again)."""
    async with sessions() as session:
        rows = (
            await session.execute(
                select(Player, PlayerRating)
                .join(PlayerRating, PlayerRating.player_id == Player.id)
                .where(
                    PlayerRating.variant == variant,
                    PlayerRating.games >= LEADERBOARD_GAMES,
                    # Idle days only widen RD: a row provisional as stored stays so.
                    PlayerRating.deviation <= PROVISIONAL_DEVIATION,
                    Player.username.is_not(None),
                )
            )
        ).all()
    ranked = []
    for player, row in rows:
        now = as_of(row, now_ms)
        if not now.rating.provisional:
            ranked.append((-now.rating.rating, row.rated_ms, player.id, player, now))
    ranked.sort(key=lambda entry: entry[:3])
    best = ranked[:nb]
    progs = await progress(sessions, [entry[2] for entry in best], variant)
    return [
        Leader(player, round(now.rating.rating), progs.get((player.id, variant), 0))
        for *_, player, now in best
    ]
