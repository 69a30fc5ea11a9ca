"""lichess's rating endpoints: a user's rating history (``GET /api/user/{username}/rating-
history``) and a game's leaderboard (``GET /api/player/top/{nb}/{perfType}``), docs/api.md,
"Users, tokens and game exports". A user's ``perfs`` are in ``GET /api/user/{username}``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

import engine
from app.accounts.lookups import account_by_name
from app.core.errors import ServiceError
from app.http.deps import ServicesDep
from app.http.responses import errors
from app.ratings import reading

router = APIRouter(tags=["users"])


class HistoryOut(BaseModel):
    name: str = Field(description="the game's name")
    points: list[list[int]] = Field(description="[year, month - 1, day, rating], oldest first")


class LeaderPerfOut(BaseModel):
    rating: int
    progress: int = Field(description="the rating change over the last 12 rated games")


class LeaderOut(BaseModel):
    id: str
    username: str
    title: str | None = Field(default=None, description='"BOT"; absent for none')
    perfs: dict[str, LeaderPerfOut]


class LeaderboardOut(BaseModel):
    users: list[LeaderOut]


@router.get(
    "/api/user/{username}/rating-history",
    response_model=list[HistoryOut],
    responses=errors(404),
    summary="A user's rating history",
)
async def rating_history(username: str, services: ServicesDep) -> list[Any]:
    """Per game (in the order of ``GET /api/variants``), a point per UTC day with a rated
    game: the rating after that day's last one."""
    player = await account_by_name(services, username)
    return await reading.history(services.games.sessions, player.id)


@router.get(
    "/api/player/top/{nb}/{perfType}",
    response_model=LeaderboardOut,
    response_model_exclude_none=True,
    responses=errors(400),
    summary="A game's leaderboard",
)
async def leaderboard(nb: str, perfType: str, services: ServicesDep) -> LeaderboardOut:
    """The best ``nb`` (1-200) accounts in the game ``perfType``: at least 10 rated games
    and a rating not provisional as of now."""
    if perfType not in engine.game_ids():
        raise ServiceError(
            "perf.unknown", f"no game {perfType!r} (games: {', '.join(engine.game_ids())})"
        )
    if not nb.isdigit() or not 1 <= int(nb) <= reading.MAX_LEADERBOARD:
        raise ServiceError(
            "request.invalid", f"nb must be a whole number from 1 to {reading.MAX_LEADERBOARD}"
        )
    leaders = await reading.leaderboard(
        services.games.sessions, perfType, int(nb), services.games.now()
    )
    return LeaderboardOut(
        users=[
            LeaderOut(
                id=leader.player.id,
                username=leader.player.username or "?",
                title=leader.player.title,
                perfs={perfType: LeaderPerfOut(rating=leader.rating, progress=leader.progress)},
            )
            for leader in leaders
        ]
    )
