"""The browser REST API's player bodies: who a player is (``GET /api/me``, the profiles), their
games' counts and their ratings, in lichess's shapes."""

from __future__ import annotations

from pydantic import BaseModel, Field


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
