"""Ratings kept in the database: the outbox's consumer of ``GameEnded`` that changes both
players' Glicko-2 ratings exactly once per rated game, and their reading.

A rated game changes ratings when it ended after both players moved (an abort, a first move
never made, a game resigned before the second player's first move change nothing), between
two accounts. It is its own rating period: both players are updated from the values both
had before it, after the whole days each went without a rated game in that game (empty
rating periods, ``glicko2.idle``), as of the game's end — not of its consumption, so a
consumption delayed by a crash computes the same numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core import faults
from app.db.models import Game, Player, PlayerRating, RatingChange
from app.domain.enums import GameStatus, Side
from app.domain.events import GameEnded, GameEvent
from app.ratings import glicko2
from app.ratings.glicko2 import Rating

DAY_MS = 86_400_000
NOT_RATED = frozenset({GameStatus.ABORTED, GameStatus.NO_START})


@dataclass(frozen=True, slots=True)
class Perf:
    """A player's rating in one game as of now, and how many rated games made it."""

    rating: Rating
    games: int


def as_of(row: PlayerRating | None, now_ms: int) -> Perf:
    """The stored rating with the whole idle days since its last rated game applied."""
    if row is None:
        return Perf(Rating(), 0)
    stored = Rating(row.rating, row.deviation, row.volatility)
    return Perf(glicko2.idle(stored, max(0, now_ms - row.rated_ms) // DAY_MS), row.games)


def score_of(winner: Side | None, side: Side) -> float:
    if winner is None:
        return glicko2.DRAW
    return glicko2.WIN if winner == side else glicko2.LOSS


class RatingsConsumer:
    """Runs in the transaction that marks the ``GameEnded`` outbox row consumed."""

    def __init__(self, *, is_postgres: bool) -> None:
        self.is_postgres = is_postgres
        self._insert = postgresql_insert if is_postgres else sqlite_insert

    async def apply(self, session: AsyncSession, event: GameEvent) -> None:
        if not isinstance(event, GameEnded) or event.status in NOT_RATED:
            return
        game = (
            await session.execute(
                select(
                    Game.rated, Game.variant, Game.first_id, Game.second_id, Game.finished_ms
                ).where(Game.id == event.game_id)
            )
        ).one_or_none()
        if game is None or not game.rated or event.ply < 2:
            return  # casual, or ended before both players moved
        seats = {Side.FIRST: game.first_id, Side.SECOND: game.second_id}
        if None in seats.values():
            return
        accounts = await session.execute(
            select(Player.id).where(
                Player.id.in_(list(seats.values())), Player.username.is_not(None)
            )
        )
        if len(accounts.all()) != 2:
            return  # only games between two accounts are rated
        at = game.finished_ms or 0
        before = await self._locked(session, game.variant, list(seats.values()), at)
        faults.reached("ratings_locked")
        first, second = before[seats[Side.FIRST]], before[seats[Side.SECOND]]
        new_first, new_second = glicko2.game(
            first.rating, second.rating, score_of(event.winner, Side.FIRST)
        )
        for side, old, new in (
            (Side.FIRST, first, new_first),
            (Side.SECOND, second, new_second),
        ):
            player_id = seats[side]
            assert player_id is not None
            await session.execute(
                self._insert(PlayerRating)
                .values(
                    player_id=player_id,
                    variant=game.variant,
                    rating=new.rating,
                    deviation=new.deviation,
                    volatility=new.volatility,
                    games=old.games + 1,
                    rated_ms=at,
                )
                .on_conflict_do_update(
                    index_elements=[PlayerRating.player_id, PlayerRating.variant],
                    set_={
                        "rating": new.rating,
                        "deviation": new.deviation,
                        "volatility": new.volatility,
                        "games": old.games + 1,
                        "rated_ms": at,
                    },
                )
            )
            session.add(
                RatingChange(
                    game_id=event.game_id,
                    player_id=player_id,
                    variant=game.variant,
                    before=old.rating.rating,
                    after=new.rating,
                    deviation=new.deviation,
                    at_ms=at,
                )
            )
            if side == Side.FIRST:
                await session.flush()
                faults.reached("ratings_one_side")

    async def _locked(
        self, session: AsyncSession, variant: str, player_ids: list[str], at: int
    ) -> dict[str, Perf]:
        """Both players' ratings before the game, their rows locked until the transaction
        ends (PostgreSQL), so two games of one player ending at once are applied one after
        the other, never both from the same value. A missing row is made first (default
        rating): ``FOR UPDATE`` locks only rows that exist."""
        default = Rating()
        for player_id in player_ids:
            await session.execute(
                self._insert(PlayerRating)
                .values(
                    player_id=player_id,
                    variant=variant,
                    rating=default.rating,
                    deviation=default.deviation,
                    volatility=default.volatility,
                    games=0,
                    rated_ms=at,
                )
                .on_conflict_do_nothing(
                    index_elements=[PlayerRating.player_id, PlayerRating.variant]
                )
            )
        statement = (
            select(PlayerRating)
            .where(PlayerRating.variant == variant, PlayerRating.player_id.in_(player_ids))
            .order_by(PlayerRating.player_id)  # one lock order: no deadlock between games
            .execution_options(populate_existing=True)
        )
        if self.is_postgres:
            statement = statement.with_for_update()
        rows = (await session.execute(statement)).scalars().all()
        return {row.player_id: as_of(row, at) for row in rows}


async def perfs(
    sessions: async_sessionmaker[AsyncSession], player_id: str, now_ms: int
) -> Mapping[str, Perf]:
    """The player's rating in every game they have played rated, as of now."""
    async with sessions() as session:
        rows = (
            await session.execute(
                select(PlayerRating).where(
                    PlayerRating.player_id == player_id, PlayerRating.games > 0
                )
            )
        ).scalars()
        return {row.variant: as_of(row, now_ms) for row in rows}


async def changes_of_game(
    sessions: async_sessionmaker[AsyncSession], game_id: str
) -> Mapping[str, RatingChange]:
    """What the game did to its players' ratings, by player id (empty: not rated, or not
    yet consumed)."""
    async with sessions() as session:
        rows = (
            await session.execute(select(RatingChange).where(RatingChange.game_id == game_id))
        ).scalars()
        return {row.player_id: row for row in rows}
