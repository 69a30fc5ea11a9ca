"""Requesting a game's review and reading it: one review a game (the first request queues it,
any later one is answered with it), one waiting review a person, a queue of bounded length;
a waiting review's place in the queue counted from the table, so that every instance gives
the same answer. The work itself: app/review/runner.py."""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.errors import ServiceError
from app.core.time import Clock
from app.domain.enums import ENDED
from app.games import GameService
from app.review.runner import ReviewRunner
from app.review.tables import DONE, FAILED, QUEUED, WAITING, GameReview


@dataclass(frozen=True)
class Review:
    """A game's review as its readers see it: ``position`` is its place in the queue (1: next
    to run) while queued, else None; ``result`` the judged review once done."""

    game_id: str
    status: str
    position: int | None
    plies: int
    plies_done: int
    result: dict[str, Any] | None
    requested_by: str


class Reviews:
    """Reviews requested and read, on the database's sessions and the app's clock, and this
    instance's ``runner`` of them (started and stopped with the app)."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        clock: Clock,
        games: GameService,
        *,
        queue_max: int,
        runner: ReviewRunner,
    ) -> None:
        self.sessions = sessions
        self.clock = clock
        self.games = games
        self.queue_max = queue_max
        self.runner = runner

    async def start(self) -> None:
        await self.runner.start()

    async def stop(self) -> None:
        await self.runner.stop()

    async def request(self, game_id: str, who: str) -> Review:
        """Queue the game's review for ``who`` (a player id), or give the one there is (a
        failed one is queued again). Refusals: 404 ``game.not_found``; 409
        ``review.unfinished`` (the game is not over) or ``review.no_moves``; 429
        ``review.one_at_a_time`` (``who`` waits for another game's review); 503
        ``review.busy`` (the queue is full)."""
        game = await self.games.reads.get(game_id)
        if game.status not in ENDED:
            raise ServiceError("review.unfinished", "the game is not over: review it after", 409)
        if not game.moves.split():
            raise ServiceError("review.no_moves", "the game has no moves to review", 409)
        found = await self.get(game.id)
        if found is not None and found.status != FAILED:
            return found
        async with self.sessions() as session:
            await self._admit(session, game.id, who)
            now = self.clock.now_ms()
            if found is None:
                session.add(
                    GameReview(
                        game_id=game.id,
                        requested_by=who,
                        status=QUEUED,
                        requested_ms=now,
                        plies=len(game.moves.split()),
                        plies_done=0,
                        evals="[]",
                    )
                )
            else:
                await session.execute(
                    update(GameReview)
                    .where(GameReview.game_id == game.id, GameReview.status == FAILED)
                    .values(status=QUEUED, requested_by=who, requested_ms=now, error=None)
                )
            # Asked at the same moment by someone else: theirs is the game's review.
            with contextlib.suppress(IntegrityError):
                await session.commit()
        self.runner.wake()
        queued = await self.get(game.id)
        assert queued is not None
        return queued

    async def _admit(self, session: AsyncSession, game_id: str, who: str) -> None:
        mine = await session.scalar(
            select(func.count())
            .select_from(GameReview)
            .where(
                GameReview.requested_by == who,
                GameReview.status.in_(WAITING),
                GameReview.game_id != game_id,
            )
        )
        if mine:
            raise ServiceError(
                "review.one_at_a_time",
                "you are waiting for another game's review: one at a time",
                429,
            )
        queued = await session.scalar(
            select(func.count()).select_from(GameReview).where(GameReview.status == QUEUED)
        )
        if (queued or 0) >= self.queue_max:
            raise ServiceError("review.busy", "too many reviews are waiting; try again later", 503)

    async def get(self, game_id: str) -> Review | None:
        """The game's review, None if nobody asked for one."""
        async with self.sessions() as session:
            row = await session.get(GameReview, game_id)
            if row is None:
                return None
            position = None
            if row.status == QUEUED:
                ahead = await session.scalar(
                    select(func.count())
                    .select_from(GameReview)
                    .where(
                        GameReview.status == QUEUED,
                        or_(
                            GameReview.requested_ms < row.requested_ms,
                            and_(
                                GameReview.requested_ms == row.requested_ms,
                                GameReview.game_id < row.game_id,
                            ),
                        ),
                    )
                )
                position = (ahead or 0) + 1
            result = json.loads(row.result) if row.status == DONE and row.result else None
            return Review(
                row.game_id,
                row.status,
                position,
                row.plies,
                row.plies_done,
                result,
                row.requested_by,
            )
