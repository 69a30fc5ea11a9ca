"""The bot API's game exports as Pydantic models: a spectator's stream (its first line, the
game) and lichess's game export JSON (/game/export/{id}, /api/games/user/{username})."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, RootModel

from app.botapi.models import (
    ChatLineEvent,
    Color,
    GamePlayerOut,
    GameStateEvent,
    PerfOut,
    Strict,
    VariantOut,
)


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
    analysis: dict[str, int | None] | None = Field(
        default=None,
        description="with a computer review (evals=true): inaccuracy, mistake, blunder, "
        "acpl, accuracy",
    )


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
    analysis: list[dict[str, Any]] | None = Field(
        default=None,
        description="with a computer review (evals=true): per ply, the position after it: "
        "eval (first player's view) or mate, and on a marked ply best, variation and "
        "judgment {name, comment}",
    )
