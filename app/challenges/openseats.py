"""Open challenges' seats: whoever opens a link takes that seat (a colour, or a free one),
and the request that fills the second seat starts the game."""

from __future__ import annotations

import secrets
from typing import Any, Protocol

from sqlalchemy import or_, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.challenges.terms import needs_account
from app.core.errors import ServiceError
from app.db.models import Challenge
from app.domain.enums import ChallengeStatus
from app.games import GameService, Identity


class ChallengeService(Protocol):
    """What taking a seat needs of the challenge service (app/challenges/service.py), which
    hands open challenges' answers here."""

    sessions: async_sessionmaker[AsyncSession]
    games: GameService

    @staticmethod
    def not_pending(challenge: Challenge) -> ServiceError: ...

    async def is_account(self, player_id: str) -> bool: ...

    async def not_blocked(self, player_id: str, *others: str | None) -> None: ...

    async def get(self, challenge_id: str) -> Challenge: ...

    async def identity(self, player_id: str) -> Identity: ...

    async def start(
        self,
        challenge: Challenge,
        first: Identity,
        second: Identity,
        creator: Identity,
        **accepted: Any,
    ) -> bool: ...


async def take_open_seat(
    challenges: ChallengeService, who: Identity, challenge: Challenge, color: str | None
) -> Challenge:
    if color is not None and color not in ("white", "black"):
        raise ServiceError("request.invalid", "color must be white or black")
    if who.id in (challenge.open_white_id, challenge.open_black_id):
        # Already seated: opening the link again takes nothing, but starts the game if
        # both seats are held and an earlier start failed.
        return await start_when_full(challenges, challenge)
    if challenge.status != ChallengeStatus.CREATED:
        raise challenges.not_pending(challenge)
    if challenge.rated and not await challenges.is_account(who.id):
        raise needs_account()
    # Whoever created it, or holds the other seat, may block this player (or be blocked).
    await challenges.not_blocked(
        who.id, challenge.challenger_id, challenge.open_white_id, challenge.open_black_id
    )
    free = [
        c
        for c, holder in (
            ("white", challenge.open_white_id),
            ("black", challenge.open_black_id),
        )
        if holder is None
    ]
    if color is None:
        color = secrets.choice(free) if free else "white"
    column, other_column = (
        (Challenge.open_white_id, Challenge.open_black_id)
        if color == "white"
        else (Challenge.open_black_id, Challenge.open_white_id)
    )
    await challenges.games.setup.ensure_player(who)
    # One conditional UPDATE: the seat is free AND the other one is not ours. The check
    # above read an older row: the same player opening both links at once passed it
    # twice. On PostgreSQL the second UPDATE waits for the first's row lock, then checks
    # its WHERE again on the row the first wrote; SQLite runs them one after the other.
    # The table's CHECK (open_white_id <> open_black_id) refuses it whatever the code
    # (answered 409 request.conflict).
    async with challenges.sessions() as session, session.begin():
        result = await session.execute(
            update(Challenge)
            .where(
                Challenge.id == challenge.id,
                Challenge.status == ChallengeStatus.CREATED,
                column.is_(None),
                or_(other_column.is_(None), other_column != who.id),
            )
            .values({column: who.id, "updated_ms": challenges.games.now()})
        )
        took = result.rowcount == 1  # type: ignore[attr-defined]
    if not took:
        latest = await challenges.get(challenge.id)
        if who.id in (latest.open_white_id, latest.open_black_id):
            # Seated meanwhile by this player's other request: as opening a link again.
            return await start_when_full(challenges, latest)
        raise ServiceError(
            "challenge.seat_taken", f"the {color} seat of this challenge is taken", 409
        )
    return await start_when_full(challenges, await challenges.get(challenge.id))


async def start_when_full(challenges: ChallengeService, challenge: Challenge) -> Challenge:
    """Both seats of a waiting open challenge held: exactly one request (the one that
    flips the status) creates the game."""
    if (
        challenge.status == ChallengeStatus.CREATED
        and challenge.open_white_id
        and challenge.open_black_id
    ):
        white = await challenges.identity(challenge.open_white_id)
        black = await challenges.identity(challenge.open_black_id)
        await challenges.start(challenge, white, black, white)  # False: another request did
        challenge = await challenges.get(challenge.id)
    return challenge
