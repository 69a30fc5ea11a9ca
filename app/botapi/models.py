"""The bot API's bodies and NDJSON lines as Pydantic models: they document /openapi.json, and
the tests check every line the server sends against them (unknown fields are refused)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel

Color = Literal["white", "black"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


# ---- request bodies (JSON, or a form with dotted names: clock.limit=300) ----------------------
# Read as lichess reads them (bodies.py): dotted keys in JSON too, null or "" = not given.
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

    variant: str = Field(description="a game id: dobutsu, gorogoro, jungle, yote or wali")
    rules: dict[str, str] = Field(
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
    variant: str = Field(description="a game id")
    rules: dict[str, str] = Field(default_factory=dict, description="form: rules.<option>=…")
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


# ---- shared pieces -----------------------------------------------------------------------------
class VariantOut(Strict):
    key: str = Field(description="our game id")
    name: str


class PerfOut(Strict):
    name: str


class GamePlayerOut(Strict):
    id: str = Field(description="the player id (GET /api/account's id)")
    name: str = Field(description="the username, or an anonymous player's display name")
    title: str | None = Field(description='"BOT" for a bot account')
    rating: int | None = Field(default=None, description="an account's, at the game's start")
    provisional: bool | None = Field(default=None, description="true while provisional")


class ClockOut(Strict):
    initial: int = Field(description="milliseconds (byo-yomi: the main time)")
    increment: int = Field(description="milliseconds")
    byoyomi: int | None = Field(default=None, description="byo-yomi only: a period, ms")
    periods: int | None = Field(default=None, description="byo-yomi only: periods at the start")


class DoneOut(Strict):
    ok: bool = True


# ---- game stream lines -------------------------------------------------------------------------
class GameStateEvent(Strict):
    type: Literal["gameState"]
    moves: str = Field(description="every move so far, canonical texts separated by spaces")
    wtime: int = Field(
        description="white's (first's) remaining ms (byo-yomi: main time); correspondence: "
        "ms to the deadline for the side to move, whole days for the other; 2147483647 "
        "without either"
    )
    btime: int
    winc: int = Field(description="increment in ms")
    binc: int
    byoyomi: int | None = Field(default=None, description="byo-yomi only: a period, ms")
    wperiods: int | None = Field(default=None, description="byo-yomi only: periods left")
    bperiods: int | None = Field(default=None, description="byo-yomi only: periods left")
    status: str = Field(description="started, or the ending: aborted, mate, resign, …")
    wdraw: bool = Field(description="white offers a draw")
    bdraw: bool
    wtakeback: bool = Field(description="white proposes a takeback")
    btakeback: bool
    fen: str = Field(description="the position string (docs/notation.md)")
    legalMoves: list[str] = Field(description="every legal move of the side to move")
    turn: Color = Field(description="the side to move")
    check: bool
    ply: int = Field(description="moves played")
    winner: Color | None = None
    reason: str | None = Field(default=None, description="how it ended, once over")


class GameFullEvent(Strict):
    type: Literal["gameFull"]
    id: str
    variant: VariantOut
    clock: ClockOut | None
    speed: str
    perf: PerfOut
    rated: bool
    createdAt: int
    white: GamePlayerOut | None
    black: GamePlayerOut | None
    initialFen: str
    state: GameStateEvent
    rules: dict[str, str] = Field(description="the rule options in force")
    daysPerTurn: int | None = Field(
        default=None, description="correspondence: days per move (the game has no clock)"
    )


class ChatLineEvent(Strict):
    type: Literal["chatLine"]
    room: Literal["player", "spectator"]
    username: str
    text: str


class OpponentGoneEvent(Strict):
    type: Literal["opponentGone"]
    gone: bool
    claimWinInSeconds: int | None = Field(
        default=None, description="when gone: seconds until claim-victory is allowed"
    )


class GameStreamLine(RootModel[GameFullEvent | GameStateEvent | ChatLineEvent | OpponentGoneEvent]):
    """One line of a game stream (first gameFull; empty lines are keep-alives)."""


# ---- event stream lines ------------------------------------------------------------------------
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


# ---- export ------------------------------------------------------------------------------------
class ExportUser(Strict):
    user: GamePlayerOut


class ExportPlayers(Strict):
    white: ExportUser | None
    black: ExportUser | None


class ExportClock(Strict):
    initial: int = Field(description="seconds, as lichess's export")
    increment: int = Field(description="seconds")
    totalTime: int = Field(description="initial + 40 × (increment + byo-yomi), seconds")


class LichessClock(ExportClock):
    byoyomi: int | None = Field(default=None, description="byo-yomi only: a period, seconds")
    periods: int | None = Field(default=None, description="byo-yomi only: periods")


class GameExportOut(Strict):
    id: str
    rated: bool
    variant: VariantOut
    speed: str
    perf: PerfOut
    createdAt: int
    startedAt: int | None
    lastMoveAt: int | None
    finishedAt: int | None
    status: str
    reason: str | None
    winner: Color | None
    players: ExportPlayers
    moves: str
    initialFen: str
    fen: str
    turn: Color
    legalMoves: list[str]
    ply: int
    rules: dict[str, str]
    clock: ExportClock | None
    wtime: int | None = Field(description="remaining ms (null without clock)")
    btime: int | None
    drawOffer: Color | None


class ExportLine(RootModel[GameExportOut | GameStateEvent | ChatLineEvent]):
    """One line of a spectator's stream (first the game; empty lines are keep-alives)."""


# ---- lichess's game export (/game/export/{id}, /api/games/user/{username}) --------------------
class LichessUser(Strict):
    name: str
    id: str
    title: str | None = Field(default=None, description='"BOT" for a bot account; absent else')


class LichessSeat(Strict):
    user: LichessUser | None = Field(default=None, description="absent: a free seat")
    rating: int | None = Field(default=None, description="an account's, at the game's start")
    ratingDiff: int | None = Field(default=None, description="once a rated game's end counted")
    provisional: bool | None = Field(default=None, description="true: provisional at start")


class LichessPlayers(Strict):
    white: LichessSeat
    black: LichessSeat


class LichessGameOut(Strict):
    """A game as lichess's game export JSON (and one line of the multi-game exports)."""

    id: str
    rated: bool
    variant: str = Field(description="the game id (lichess: the variant key)")
    speed: str = Field(description="ultraBullet … classical; correspondence without a clock")
    perf: str = Field(description="the game id: a variant game's perf is its variant")
    createdAt: int
    lastMoveAt: int = Field(description="the last move, the end, or the creation")
    status: str
    source: Literal["friend", "lobby"]
    players: LichessPlayers
    winner: Color | None = Field(default=None, description="absent for none")
    moves: str | None = Field(default=None, description="absent with moves=false")
    clock: LichessClock | None = Field(default=None, description="absent without a clock")
    daysPerTurn: int | None = Field(default=None, description="correspondence: days per move")
    initialFen: str = Field(description="the start position (docs/notation.md)")
    lastFen: str = Field(description="the position now")
    rules: dict[str, str] = Field(description="the rule options in force")
    pgn: str | None = Field(default=None, description="the text record, with pgnInJson=true")
