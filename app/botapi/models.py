"""The bot API's Pydantic models, shared part: the strict base every model of the API builds
on, the pieces many answers share, and the lines of a game stream. Request bodies are in
bodies.py, the event stream's lines and challenges in eventlines.py, game exports in
exportmodels.py. They document /openapi.json, and the tests check every line the server sends
against them (unknown fields are refused)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel

Color = Literal["white", "black"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


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
