"""Per-player game counts (played, won, lost, drawn): an outbox consumer of ``GameEnded``
(app/outbox/consumer.py), and their reading for ``GET /api/me``, ``GET /api/user/{name}``
and the account page.

Aborted games and games whose first move never came (``aborted``, ``noStart``) count
nothing, as on lichess; every other ending counts once for each of the two players.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, or_, select, true
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Game, PlayerStats, RatingChange
from app.domain.enums import GameStatus, Side
from app.domain.events import GameEnded, GameEvent

NOT_COUNTED = frozenset({GameStatus.ABORTED, GameStatus.NO_START})


class PlayerCounts:
    """The consumer: both seated players' counts, in the transaction that marks the
    ``GameEnded`` row consumed."""

    def __init__(self, *, is_postgres: bool) -> None:
        self._insert = postgresql_insert if is_postgres else sqlite_insert

    async def apply(self, session: AsyncSession, event: GameEvent) -> None:
        if not isinstance(event, GameEnded) or event.status in NOT_COUNTED:
            return
        found = await session.execute(
            select(Game.first_id, Game.second_id).where(Game.id == event.game_id)
        )
        seats = found.one_or_none()
        if seats is None:  # pragma: no cover - the outbox row's foreign key keeps the game
            return
        for player_id, side in zip(seats, (Side.FIRST, Side.SECOND), strict=True):
            if player_id is None:  # pragma: no cover - a started game has both seats
                continue
            row = {
                "player_id": player_id,
                "played": 1,
                "won": int(event.winner == side),
                "lost": int(event.winner == side.other),
                "drawn": int(event.winner is None),
            }
            statement = self._insert(PlayerStats).values(row)
            added = statement.excluded
            await session.execute(
                statement.on_conflict_do_update(
                    index_elements=[PlayerStats.player_id],
                    set_={
                        "played": PlayerStats.played + added.played,
                        "won": PlayerStats.won + added.won,
                        "lost": PlayerStats.lost + added.lost,
                        "drawn": PlayerStats.drawn + added.drawn,
                    },
                )
            )


@dataclass(frozen=True, slots=True)
class Counts:
    played: int
    won: int
    lost: int
    drawn: int
    playing: int  # games on now
    current: str | None  # the id of one of them (the greatest), None: none
    rated: int = 0  # finished games that changed the player's ratings

    def lichess(self) -> dict[str, int]:
        """lichess's ``count`` object, the fields that apply here."""
        return {
            "all": self.played,
            "rated": self.rated,
            "win": self.won,
            "loss": self.lost,
            "draw": self.drawn,
            "playing": self.playing,
        }


async def counts(sessions: async_sessionmaker[AsyncSession], player_id: str) -> Counts:
    """The player's counts and the games on now, in one query (the aggregate of live games
    is always one row; the player's stats row, joined to it, may be missing: zeros)."""
    stats = (
        select(PlayerStats.played, PlayerStats.won, PlayerStats.lost, PlayerStats.drawn)
        .where(PlayerStats.player_id == player_id)
        .subquery()
    )
    live = (
        select(func.count().label("playing"), func.max(Game.id).label("current"))
        .where(
            Game.status == GameStatus.STARTED,
            or_(Game.first_id == player_id, Game.second_id == player_id),
        )
        .subquery()
    )
    rated = (
        select(func.count())
        .select_from(RatingChange)
        .where(RatingChange.player_id == player_id)
        .scalar_subquery()
    )
    statement = select(
        func.coalesce(stats.c.played, 0),
        func.coalesce(stats.c.won, 0),
        func.coalesce(stats.c.lost, 0),
        func.coalesce(stats.c.drawn, 0),
        live.c.playing,
        live.c.current,
        rated,
    ).select_from(live.outerjoin(stats, true()))
    async with sessions() as session:
        found = (await session.execute(statement)).one()
    played, won, lost, drawn, playing, current, rated_games = found
    return Counts(played, won, lost, drawn, playing, current, rated_games)
