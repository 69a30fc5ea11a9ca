"""The browser REST API's game bodies (app/games/routes.py): creating a game, what the game,
join and lobby routes answer."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from app.http.schemas import BROWSER_BODY, Rules, Variant


class ClockIn(BaseModel):
    model_config = BROWSER_BODY
    minutes: float = Field(gt=0, le=180, description="initial time per side, in minutes")
    increment: int = Field(ge=0, le=180, description="seconds added after each move")
    byoyomi: int = Field(
        default=0, description="byo-yomi: a period, seconds (1 to 180; 0: Fischer)"
    )
    periods: int = Field(default=0, description="byo-yomi: how many periods (1 to 10)")


class CreateGameIn(BaseModel):
    model_config = BROWSER_BODY
    variant: Variant = Field(description="a game id (GET /api/variants lists the games)")
    rules: Rules = Field(default_factory=dict, description="rule options of the game")
    clock: ClockIn | None = Field(
        default=None, description="Fischer or byo-yomi clock; null: no clock"
    )
    days: int | None = Field(
        default=None, description="correspondence: days per move (1, 2, 3, 5, 7, 10 or 14)"
    )
    color: Literal["first", "second", "random"] = "random"
    public: bool = Field(default=True, description="listed in the lobby for anyone to join")
    rated: bool = Field(
        default=False, description="changes both players' ratings: accounts only (both seats)"
    )
    ratingRange: str | None = Field(
        default=None,
        description='public games: the joiners\' ratings accepted, "low-high" as lichess'
        ' (e.g. "1500-1800"); an anonymous joiner counts as 1500',
    )


class GameCreatedOut(BaseModel):
    id: str
    url: str = Field(description="the game page (players and spectators)")
    inviteUrl: str = Field(description="whoever opens it first takes the free seat")
    game: dict[str, Any]


class JoinedOut(BaseModel):
    id: str
    url: str
    seat: Literal["first", "second"] | None


class GameOut(BaseModel):
    game: dict[str, Any]


class LobbyOut(BaseModel):
    open: list[dict[str, Any]]
    live: list[dict[str, Any]]
