"""Which game a TV channel features: the channels, and the order of the live games in them.

A channel is ``best`` (every game) or one game's id (``dobutsu``...). The live games a
channel may feature are the public ones started and not over, with a clock or none, but not
correspondence games (a move a day is nothing to watch). They are ranked by the sum of both
seats' ratings as of the game's start, a seat without one (a guest) counting as
``GUEST_RATING``, the default rating every account starts with; then rated games before
casual ones, then the one that started first, then the id: the same order on every instance
(docs/decisions/tv.md)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Game
from app.domain.enums import GameStatus, Side

BEST = "best"
GUEST_RATING = 1500
# The most games a channel's list holds (lichess's ``nb`` of a channel's best games).
LISTED = 30


@dataclass(frozen=True, slots=True)
class Candidate:
    """A live game as the channels rank it."""

    id: str
    variant: str
    rated: bool
    first_id: str | None
    second_id: str | None
    first_rating: int | None
    second_rating: int | None
    started_ms: int

    @property
    def score(self) -> int:
        first = GUEST_RATING if self.first_rating is None else self.first_rating
        second = GUEST_RATING if self.second_rating is None else self.second_rating
        return first + second

    @property
    def top_side(self) -> Side:
        """The seat of the higher rating (the first on a tie): the one a channel names."""
        first = GUEST_RATING if self.first_rating is None else self.first_rating
        second = GUEST_RATING if self.second_rating is None else self.second_rating
        return Side.SECOND if second > first else Side.FIRST


def ranked(candidates: Iterable[Candidate]) -> list[Candidate]:
    """Best first (see the module's docstring)."""
    return sorted(candidates, key=lambda c: (-c.score, not c.rated, c.started_ms, c.id))


def channels_of(variants: Sequence[str], candidates: Iterable[Candidate]) -> dict[str, list[str]]:
    """Each channel's live games, best first, at most ``LISTED`` (a channel with none: [])."""
    order = ranked(candidates)
    found: dict[str, list[str]] = {BEST: [c.id for c in order[:LISTED]]}
    for variant in variants:
        found[variant] = [c.id for c in order if c.variant == variant][:LISTED]
    return found


async def live_candidates(sessions: async_sessionmaker[AsyncSession]) -> list[Candidate]:
    """Every live game a channel may feature, as stored now (only the columns ranked)."""
    query = select(
        Game.id,
        Game.variant,
        Game.rated,
        Game.first_id,
        Game.second_id,
        Game.first_rating,
        Game.second_rating,
        Game.started_ms,
    ).where(Game.status == GameStatus.STARTED, Game.public.is_(True), Game.days.is_(None))
    async with sessions() as session:
        rows = (await session.execute(query)).all()
    return [Candidate(r[0], r[1], bool(r[2]), r[3], r[4], r[5], r[6], r[7] or 0) for r in rows]
