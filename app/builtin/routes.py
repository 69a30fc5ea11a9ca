"""The built-in opponents' seats, for the lobby's "Play the computer" buttons:
``GET /api/builtin/seats``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.builtin.seats import Seats
from app.http.deps import ServicesDep

router = APIRouter(tags=["challenges"])


class SeatsOut(BaseModel):
    username: str = Field(description="the built-in opponent, e.g. kodama-hard")
    seats: int = Field(description="games it plays at once with a connected opponent")
    taken: int = Field(description="its games in progress whose opponent is connected")
    free: int = Field(description="seats - taken, at least 0: 0 means busy, try in a moment")


@router.get(
    "/api/builtin/seats",
    response_model=list[SeatsOut],
    summary="The built-in opponents' free seats",
)
async def builtin_seats(services: ServicesDep) -> list[Any]:
    """Each built-in opponent, weakest first, with the games it plays at once and how many of
    those seats are free now; empty before the server has made their accounts (whether they
    are online is ``GET /api/bot/online``). A game whose opponent has left holds no seat (the
    opponent ends it once the grace period has passed)."""
    settings = services.settings
    seats = Seats(
        services.games.sessions, services.games, services.presence, settings.builtin_seats
    )
    return [level.json() for level in await seats.now()]
