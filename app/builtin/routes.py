"""The built-in opponents' seats, for the lobby's "Play the computer" buttons:
``GET /api/builtin/seats``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.builtin.seats import PREFIX, Seats
from app.builtin.service import PERFECT
from app.http.deps import ServicesDep
from app.tablebase.encoding import RULESETS

router = APIRouter(tags=["challenges"])


class BotPerfOut(BaseModel):
    rating: int
    games: int = Field(description="rated games played in this game")
    prov: bool = Field(description="true while the rating is provisional")


class SeatsOut(BaseModel):
    username: str = Field(description="the built-in opponent, e.g. kodama-hard")
    seats: int = Field(description="games it plays at once with a connected opponent")
    taken: int = Field(description="its games in progress whose opponent is connected")
    free: int = Field(description="seats - taken, at least 0: 0 means busy, try in a moment")
    perfs: dict[str, BotPerfOut] = Field(
        description="its rating in each game it has played rated on this site"
    )
    rulesets: list[str] | None = Field(
        default=None,
        description="kodama-perfect only: the Dōbutsu rulesets whose solved table this server "
        "has (it declines the others; empty: none is built)",
    )


@router.get(
    "/api/builtin/seats",
    response_model=list[SeatsOut],
    response_model_exclude_none=True,  # rulesets: kodama-perfect's only
    summary="The built-in opponents' free seats",
)
async def builtin_seats(services: ServicesDep) -> list[Any]:
    """Each built-in opponent, weakest first, with the games it plays at once and how many of
    those seats are free now, and its ratings from the site's games; empty before the server
    has made their accounts (whether they are online is ``GET /api/bot/online``). A game
    whose opponent has left holds no seat (the opponent ends it once the grace period has
    passed)."""
    settings = services.settings
    seats = Seats(
        services.games.sessions, services.games, services.presence, settings.builtin_seats
    )
    rows = [level.json() for level in await seats.now()]
    for row in rows:
        if row["username"] == PREFIX + PERFECT:
            row["rulesets"] = [r for r in RULESETS if services.tablebase.table(r) is not None]
    return rows
