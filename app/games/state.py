"""The game state sent to clients (docs/protocol.md, "state" and "move"), as typed dicts:
what the sockets, the NDJSON streams and the HTTP API send, built in one place."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from app.db.models import GameRow
from app.domain.enums import ENDED, GameStatus
from app.games import clock
from app.games.rules import rules_of
from engine import CaptureMarks, Side


class ClockState(TypedDict):
    initial: int
    increment: int | None
    first: int  # main time left
    second: int
    running: bool
    # Byo-yomi (all None otherwise): a period (ms), the periods at the start, each side's
    # periods left, and the time left in the current period of a side whose main time is
    # out (the side to move's counts down; the other's is whole).
    byoyomi: int | None
    periods: int | None
    firstPeriods: int | None
    secondPeriods: int | None
    firstPeriod: int | None
    secondPeriod: int | None


class ResultState(TypedDict):
    winner: str | None
    reason: str | None
    status: str


class LiveState(TypedDict):
    """The part of a game's state that changes with every move."""

    ply: int
    status: str
    fen: str
    turn: Side
    check: bool
    legalMoves: list[str]
    result: ResultState | None
    drawOffer: str | None
    takebackOffer: str | None
    # A finished game's rematch: who offers one, and the new game once accepted.
    rematchOffer: str | None
    rematch: str | None
    clock: ClockState | None
    # The first-move deadline while it runs, or a correspondence game's for the side to move.
    deadline: int | None
    daysPerTurn: int | None  # a correspondence game's days per move
    serverTime: int
    # What the last move captured with besides its squares: yote's jumped stone, wali's
    # line of three (engine.CaptureMarks); empty lists otherwise.
    captureMarks: dict[str, list[str]]
    # While a claim can be made (started, not correspondence): how long each side may be
    # away (ms) before its opponent may claim; the presence message says since when.
    claimGrace: dict[str, int] | None


class Seat(TypedDict):
    id: str
    name: str
    rating: NotRequired[int]  # an account's, as of the game's start
    provisional: NotRequired[bool]


class Seats(TypedDict):
    first: Seat | None
    second: Seat | None
    creator: Seat


class GameState(LiveState):
    """Everything a client shows: the full state, as sent on (re)connect."""

    id: str
    variant: str
    name: str
    rules: dict[str, str]
    public: bool
    rated: bool
    ratings: dict[str, Any] | None  # what a rated game's end did (docs/protocol.md)
    moves: list[str]
    players: Seats
    movers: list[Side]
    positions: list[str] | None  # after each ply (0 = the start): always a list in a state
    createdAt: int
    startedAt: int | None
    finishedAt: int | None


class MoveMessage(LiveState):
    type: str  # "move"
    move: str


class StateMessage(TypedDict):
    type: str  # "state"
    ply: int
    game: GameState
    me: NotRequired[dict[str, str] | None]
    invite: NotRequired[str]


def clock_state(game: GameRow, now: int) -> ClockState | None:
    first, second = clock.now_of(game, Side.FIRST, now), clock.now_of(game, Side.SECOND, now)
    if first is None or second is None or game.clock_initial_ms is None:
        return None
    return {
        "initial": game.clock_initial_ms,
        "increment": game.clock_increment_ms,
        "first": first.main,
        "second": second.main,
        "running": clock.running(game),
        "byoyomi": game.clock_byoyomi_ms,
        "periods": game.clock_periods,
        "firstPeriods": first.periods,
        "secondPeriods": second.periods,
        "firstPeriod": first.period,
        "secondPeriod": second.period,
    }


def live_state(
    game: GameRow, pos: Any, now: int, deadline: int | None, grace: dict[str, int] | None
) -> LiveState:
    """The live part of ``game``'s state at ``now``; ``pos`` is its current position,
    ``grace`` the claims' grace periods by side (None when no claim can be made)."""
    rules = rules_of(game)
    over = game.status in ENDED
    last = game.moves.rsplit(" ", 1)[-1] if game.moves else None
    marks = rules.capture_marks(pos, last) if last else CaptureMarks()
    return {
        "ply": game.ply,
        "status": game.status,
        "fen": game.fen,
        "turn": rules.side_to_move(pos),
        "check": rules.in_check(pos),
        "legalMoves": [] if game.status != GameStatus.STARTED else rules.legal_moves(pos),
        "result": None
        if not over
        else {"winner": game.winner, "reason": game.reason, "status": game.status},
        "drawOffer": game.draw_offer,
        "takebackOffer": game.takeback_offer,
        "rematchOffer": game.rematch_offer,
        "rematch": game.rematch_id if game.rematch_offer is None else None,
        "clock": clock_state(game, now),
        "deadline": deadline,
        "daysPerTurn": game.days,
        "serverTime": now,
        "captureMarks": marks.to_dict(),
        "claimGrace": grace,
    }


def as_dict(data: LiveState | GameState) -> dict[str, Any]:
    """A state as a plain dict (for code that reads it by key: the lichess encoders)."""
    return dict(data)
