"""Who may join an arena or a Swiss: a private event's password, and a rating within its
limits (lichess's entry conditions). One set of checks for both systems; ``prefix`` names
the system in the refusals' codes (``tournament.password``, ``swiss.rating``...)."""

from __future__ import annotations

import hmac

from sqlalchemy.ext.asyncio import AsyncSession

from app.core.errors import ServiceError
from app.ratings.reading import read_at_start
from app.tournaments.forms import password_hash


def check_password(stored_hash: str | None, password: str | None, prefix: str) -> None:
    """A private event (a stored hash) needs its password; a public one needs nothing."""
    if stored_hash is not None and not hmac.compare_digest(
        stored_hash, password_hash(password or "")
    ):
        raise ServiceError(f"{prefix}.password", "wrong tournament password", 403)


async def admitted_rating(
    session: AsyncSession,
    variant: str,
    player_id: str,
    limits: tuple[int | None, int | None],
    prefix: str,
    now: int,
) -> int:
    """The joining account's rating in the event's game, within ``limits`` (min, max)."""
    ratings = await read_at_start(session, variant, [player_id], now)
    if player_id not in ratings:
        raise ServiceError(f"{prefix}.account", "only accounts join tournaments", 403)
    rating = round(ratings[player_id].rating)
    low, high = limits
    if low is not None and rating < low:
        raise ServiceError(f"{prefix}.rating", "your rating is too low", 403)
    if high is not None and rating > high:
        raise ServiceError(f"{prefix}.rating", "your rating is too high", 403)
    return rating
