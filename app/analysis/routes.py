"""The analysis board: its page (``/analysis``) and the stateless question it asks the
engine (``POST /api/analysis/moves``): the positions through some moves, their legal moves and
results. No game is created, nothing is stored (docs/api.md, "Analysis board")."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from app.analysis import positions as analysis
from app.http.auth import client_ip
from app.http.deps import ServicesDep, get_identity
from app.http.responses import errors
from app.http.schemas import BROWSER_BODY, Rules, Variant
from app.web.assets import STATIC

router = APIRouter(prefix="/api", tags=["analysis"])
page_router = APIRouter(include_in_schema=False)

MoveText = Annotated[str, Field(min_length=1, max_length=20)]


class AnalysisIn(BaseModel):
    model_config = BROWSER_BODY
    variant: Variant = Field(description="a game id (GET /api/variants lists the games)")
    rules: Rules = Field(
        default_factory=dict, description="rule options; omitted ones take their defaults"
    )
    fen: str | None = Field(
        default=None,
        max_length=2000,
        description="the position string to start from (docs/notation.md); null or absent: "
        "the game's start",
    )
    moves: list[MoveText] = Field(
        default_factory=list,
        max_length=analysis.MAX_MOVES,
        description="canonical move texts played from it, in order (at most 1000)",
    )


class ResultOut(BaseModel):
    winner: Literal["first", "second"] | None = Field(description="null: a draw")
    reason: str = Field(description="the rules' reason: den, try, checkmate, repetition…")


class PositionOut(BaseModel):
    fen: str = Field(description="the position string, its history field included")
    turn: Literal["first", "second"]
    check: bool = Field(description="the side to move's royal piece is attacked")
    legalMoves: list[str] = Field(description="sorted; empty once the game is over")
    result: ResultOut | None = Field(description="null while the game goes on")


class AnalysisOut(BaseModel):
    variant: str
    rules: dict[str, str] = Field(description="every rule option in force, defaults included")
    positions: list[PositionOut] = Field(
        description="the start, then the position after each move: len(moves) + 1"
    )


@router.post(
    "/analysis/moves",
    response_model=AnalysisOut,
    responses=errors(400, 409, 422, 429, 503),
    summary="Replay moves from a position (analysis board; no game is created)",
)
async def analysis_moves(body: AnalysisIn, request: Request, services: ServicesDep) -> Response:
    """The position at the start and after each move, with the legal moves and the result of
    each: what the analysis board shows. A bad game, option or position: 400 with the engine's
    code (``game.unknown``, ``option.invalid``, ``position.invalid``); a bad move adds its
    ``index`` in ``moves``: ``move.invalid`` 400, ``move.illegal`` 422, ``game.over`` 409.
    Replayed in a worker process, never on the server's event loop: too many requests from
    one visitor or address is 429 ``ratelimit`` (key ``analysis``); every worker and queue
    place taken is 503 ``analysis.busy``."""
    workers = services.analysis
    workers.admit(f"player:{get_identity(request).id}", client_ip(request))
    # The worker's JSON is the answer as it is: the loop neither validates nor encodes it.
    content = await workers.line_json(body.variant, body.rules, body.fen, body.moves)
    return Response(content, media_type="application/json")


@page_router.get("/analysis")
async def analysis_page() -> Response:
    return STATIC.page("analysis.html")
