"""The bot API's request bodies as Pydantic models: JSON, or a form with dotted names
(clock.limit=300), read as lichess reads them (app/http/bodies.py): dotted keys in JSON too,
null or "" = not given."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.botapi.models import Strict
from app.http.schemas import Rules, Variant


class ClockIn(Strict):
    limit: int = Field(description="initial time per side, seconds (1 to 10800)")
    increment: int = Field(default=0, description="seconds added after each move (0 to 180)")
    byoyomi: int = Field(
        default=0,
        description="not lichess's: a byo-yomi period, seconds (1 to 180; 0: Fischer); "
        "then increment must be 0",
    )
    periods: int = Field(default=0, description="not lichess's: byo-yomi periods (1 to 10)")


FEN_FIELD = Field(
    default=None,
    description="a position string of the game to start from (docs/notation.md); the side "
    "to move in it moves first",
)


class GameTermsIn(Strict):
    """What every way of proposing a game shares."""

    variant: Variant = Field(description="a game id (GET /api/variants lists the games)")
    rules: Rules = Field(
        default_factory=dict,
        description="rule options of the game (form: rules.<option>=<value>); omitted ones "
        "take their defaults",
    )
    clock: ClockIn | None = Field(
        default=None,
        description="form: clock.limit, clock.increment (or clock.byoyomi, clock.periods)",
    )
    days: int | None = Field(
        default=None,
        description="lichess's correspondence: days per move, 1, 2, 3, 5, 7, 10 or 14 (no "
        "clock with it)",
    )
    color: Literal["white", "black", "random"] = Field(
        default="random", description="the challenger's colour (white = the first player)"
    )
    fen: str | None = FEN_FIELD


class AiChallengeIn(GameTermsIn):
    level: int = Field(
        ge=1,
        le=8,
        description="lichess's AI level, 1 to 8: 1-2 kodama-random, 3-4 kodama-easy, "
        "5-6 kodama-medium, 7-8 kodama-hard",
    )


class ChallengeIn(GameTermsIn):
    rated: bool = Field(
        default=False, description="a rated game: accounts only, not from a position (fen)"
    )


class UserChallengeIn(ChallengeIn):
    """``POST /api/challenge/{username}``: lichess's fields too."""

    acceptByToken: str | None = Field(
        default=None,
        description="the challenged player's API token (challenge:write): the challenge is "
        "accepted at once and the answer is the game",
    )
    message: str | None = Field(
        default=None,
        description="lichess's message sent with acceptByToken: accepted and ignored (there "
        "is no inbox)",
    )
    keepAliveStream: bool = Field(
        default=False,
        description='true: the answer is NDJSON, the challenge then {"done": status} once '
        "answered; closing the request cancels the challenge",
    )


class OpenChallengeIn(ChallengeIn):
    """``POST /api/challenge/open``: lichess's fields too."""

    name: str | None = Field(
        default=None, max_length=100, description="a label shown with the challenge"
    )
    users: str | None = Field(default=None, description="not supported: must be left out")
    expiresAt: int | None = Field(default=None, description="not supported: must be left out")


class SeekIn(Strict):
    variant: Variant = Field(description="a game id")
    rules: Rules = Field(default_factory=dict, description="form: rules.<option>=…")
    time: float | None = Field(default=None, description="minutes per side (with increment)")
    increment: int = Field(default=0, description="seconds per move")
    byoyomi: int = Field(
        default=0, description="not lichess's: a byo-yomi period, seconds (with time)"
    )
    periods: int = Field(default=0, description="not lichess's: byo-yomi periods")
    days: int | None = Field(
        default=None, description="correspondence: days per move (1, 2, 3, 5, 7, 10 or 14)"
    )
    color: Literal["white", "black", "random"] = "random"
    rated: bool = Field(
        default=False,
        description=(
            "a rated game (accounts only): in a quick-pairing pool, a rated search; else only"
            " rated games are taken and a seek that waits is rated"
        ),
    )
    fen: str | None = FEN_FIELD
    ratingRange: str | None = Field(
        default=None,
        description="low-high (1500-1800): the opponents' ratings accepted (in a quick-pairing"
        " pool, and by the open game taken or left waiting; an anonymous player counts as 1500)",
    )


class DeclineIn(Strict):
    reason: str = Field(
        default="generic",
        description="generic, later, tooFast, tooSlow, timeControl, rated, casual, standard, "
        "variant, noBot or onlyBot",
    )


class ChatIn(Strict):
    room: Literal["player", "spectator"]
    text: str = Field(description="plain text, 1 to 140 characters")
