"""The bot API's event stream lines as Pydantic models (gameStart, gameFinish, challenge...),
with the challenge JSON they carry and the other answers of the challenge, seek, chat and
online-bot routes."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, RootModel

from app.botapi.models import Color, PerfOut, Strict, VariantOut


class OpponentOut(Strict):
    id: str | None
    username: str
    title: str | None
    rating: int | None = Field(default=None, description="an account's, at the game's start")
    ratingDiff: int | None = Field(default=None, description="gameFinish of a rated game")


class StatusOut(Strict):
    id: int
    name: str


class CompatOut(Strict):
    bot: bool
    board: bool


class EventGameOut(Strict):
    id: str
    gameId: str
    fullId: str
    color: Color
    fen: str
    hasMoved: bool
    isMyTurn: bool
    lastMove: str
    opponent: OpponentOut
    perf: str
    rated: bool
    secondsLeft: int | None
    source: Literal["friend", "lobby"]
    status: StatusOut
    speed: str
    variant: VariantOut
    compat: CompatOut
    rules: dict[str, str]
    winner: Color | None = None
    reason: str | None = None
    ratingDiff: int | None = Field(default=None, description="gameFinish of a rated game")


class GameEvent(Strict):
    type: Literal["gameStart", "gameFinish"]
    game: EventGameOut


class TimeControlOut(Strict):
    type: Literal["clock", "correspondence", "unlimited"]
    limit: int | None = Field(default=None, description="seconds")
    increment: int | None = Field(default=None, description="seconds")
    show: str | None = Field(
        default=None, description='as lichess: "5+3", "½+0", "0.33+1"; byo-yomi "5+3×30s"'
    )
    byoyomi: int | None = Field(default=None, description="byo-yomi: a period, seconds")
    periods: int | None = Field(default=None, description="byo-yomi: how many periods")
    daysPerTurn: int | None = Field(default=None, description="correspondence: days per move")


class ChallengeUserOut(Strict):
    id: str
    name: str
    title: str | None
    rating: int | None = Field(
        default=None, description="an account's rating in the challenge's game, as of now"
    )
    provisional: bool | None = Field(default=None, description="true while provisional")


class SeatsOut(Strict):
    white: ChallengeUserOut | None
    black: ChallengeUserOut | None


class GameJsonOut(Strict):
    """A game as lichess answers ``POST /api/challenge/ai``."""

    id: str
    variant: VariantOut
    speed: str
    perf: str = Field(description="lichess's perf key: the speed")
    rated: bool
    initialFen: str
    fen: str
    player: Color = Field(description="your colour")
    turns: int = Field(description="moves played")
    startedAtTurn: int
    source: Literal["ai", "friend"]
    status: StatusOut
    createdAt: int


class ChallengeOut(Strict):
    id: str = Field(description="also the id of the game it becomes")
    url: str = Field(description="the challenge's page")
    status: Literal["created", "accepted", "declined", "canceled", "expired"]
    challenger: ChallengeUserOut | None
    destUser: ChallengeUserOut | None = Field(description="null for an open challenge")
    variant: VariantOut
    rated: bool
    speed: str
    timeControl: TimeControlOut
    color: Literal["white", "black", "random"] = Field(description="the challenger's choice")
    finalColor: Color | None = Field(description="the challenger's colour, once accepted")
    perf: PerfOut
    rules: dict[str, str]
    createdAt: int
    days: int | None = None
    direction: Literal["in", "out"] | None = None
    declineReason: str | None = None
    declineReasonKey: str | None = None
    gameId: str | None = Field(default=None, description="once accepted")
    gameUrl: str | None = None
    open: bool | None = Field(default=None, description="an open challenge")
    urlWhite: str | None = None
    urlBlack: str | None = None
    seats: SeatsOut | None = Field(default=None, description="an open challenge's seats")
    initialFen: str | None = Field(default=None, description="the position the game starts from")
    name: str | None = Field(default=None, description="an open challenge's label")
    rematchOf: str | None = Field(
        default=None, description="a rematch offer: the finished game it would replay"
    )
    game: GameJsonOut | None = Field(
        default=None, description="the game, when accepted at once with acceptByToken"
    )


class ChallengeEvent(Strict):
    type: Literal["challenge", "challengeCanceled", "challengeDeclined"]
    challenge: ChallengeOut


class EventLine(RootModel[GameEvent | ChallengeEvent]):
    """One line of the event stream (empty lines are keep-alives)."""


class ChallengesOut(Strict):
    incoming: list[ChallengeOut] = Field(alias="in")
    outgoing: list[ChallengeOut] = Field(alias="out")


class OnlineBotGames(Strict):
    games: list[str]


class OnlineBotOut(Strict):
    id: str
    username: str
    title: Literal["BOT"]
    bot: OnlineBotGames


class SeekLine(Strict):
    id: str = Field(description="the game, once paired")


class ChatOut(Strict):
    room: Literal["player", "spectator"]
    user: str
    text: str
    createdAt: int
