"""Request and response bodies of the REST API (Pydantic)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

# The browser API's bodies are JSON written by our own pages: strict types, so what the docs
# call a wrong type ("public": "yes" or 1, "minutes": "5") is refused, never coerced. (The bot
# API stays lenient: lichess clients post forms, where every value is a string.) A JSON
# integer is still a number for a float field.
BROWSER_BODY = ConfigDict(extra="forbid", strict=True)


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
    variant: str = Field(description="game id: dobutsu, gorogoro, jungle, yote or wali")
    rules: dict[str, str] = Field(default_factory=dict, description="rule options of the game")
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


class CountOut(BaseModel):
    """A player's games, in lichess's ``count`` shape (the fields that apply here)."""

    all: int = Field(description="games finished, aborted ones (and noStart) not counted")
    rated: int = Field(description="finished games that changed the player's ratings")
    win: int
    loss: int
    draw: int
    playing: int = Field(description="games being played now")


class PerfOut(BaseModel):
    """A rating in one game, as lichess's ``perfs`` (integers, as of now)."""

    games: int = Field(description="rated games played in this game")
    rating: int
    rd: int = Field(description="the rating deviation, idle days applied")
    prog: int = Field(description="the rating change over the last 12 rated games")
    prov: bool | None = Field(default=None, description="true while provisional (RD > 110)")


class PlayerOut(BaseModel):
    id: str
    name: str
    username: str | None = Field(default=None, description="only for a registered account")
    title: str | None = Field(default=None, description='"BOT" for a bot account')
    count: CountOut | None = Field(default=None, description="GET /api/me only")


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


class ErrorOut(BaseModel):
    error: str
    code: str
