"""The analysis board: its page (``/analysis``) and the stateless questions it asks the
engine: the positions through some moves, their legal moves and results (``POST
/api/analysis/moves``), and a position's evaluation in lichess's cloud-eval shape (``GET
/api/cloud-eval``). No game is created, nothing is stored (docs/api.md, "Analysis board")."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from app.analysis import positions as analysis
from app.analysis.evaluate import MAX_MULTIPV
from app.core.errors import ServiceError
from app.http.auth import client_ip
from app.http.deps import ServicesDep, get_identity
from app.http.responses import errors
from app.http.schemas import BROWSER_BODY, MAX_RULE_OPTIONS, Rules, Variant
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


class PvOut(BaseModel):
    moves: str = Field(description="the line's move texts, separated by spaces")
    cp: int | None = Field(
        default=None,
        description="the evaluation, from the first player's view, in the game's centi-units "
        "(about 100 a chick, pawn or stone; docs/decisions/engine-evaluation.md)",
    )
    mate: int | None = Field(
        default=None,
        description="instead of cp when the line ends the game: the winner's moves to the "
        "end, > 0 when the first player wins",
    )


class CloudEvalOut(BaseModel):
    fen: str = Field(description="the position string as the engine writes it")
    knodes: int = Field(description="thousands of positions searched (0 from the tablebase)")
    depth: int = Field(description="plies searched (from the tablebase: the best line's length)")
    pvs: list[PvOut] = Field(description="the best moves' lines, best first (multiPv of them)")
    variant: str
    rules: dict[str, str] = Field(description="every rule option in force, defaults included")
    source: Literal["search", "table"] = Field(
        description="search: the bots' search within the server's budget; table: exact, "
        "from the Dōbutsu tablebase"
    )


CLOUD_EVAL_PARAMETERS = {"fen", "multiPv", "variant"}


@router.get(
    "/cloud-eval",
    response_model=CloudEvalOut,
    response_model_exclude_none=True,
    responses=errors(400, 404, 429, 503),
    summary="A position's evaluation and best lines (lichess's cloud-eval shape)",
)
async def cloud_eval(
    request: Request,
    services: ServicesDep,
    fen: Annotated[str, Query(min_length=1, max_length=2000, description="the position string")],
    variant: Annotated[
        str | None, Query(max_length=40, description="the game's id (GET /api/variants)")
    ] = None,
    multiPv: Annotated[  # lichess's name
        int, Query(ge=1, le=MAX_MULTIPV, description="how many best moves (1 to 5)")
    ] = 1,
) -> Response:
    """The position's best moves with their lines and scores, as lichess's ``GET
    /api/cloud-eval`` answers (berserk's ``analysis.get_cloud_evaluation`` reads it). Rule
    options are further query parameters named as the option (``ruleset=yokai``). Kodama
    has no store of evaluations to miss: every position is searched, within the server's
    budget per request, in a worker process, and the answer kept per position; a Dōbutsu
    position in the built tablebase is answered exactly. A game over in the position is 404
    ``eval.none``; a bad game, option or position 400 with the engine's code
    (``game.unknown``, ``option.invalid``, ``position.invalid``), a bad ``multiPv`` 400
    ``request.invalid``; too many requests from one visitor or address 429 ``ratelimit``
    (key ``analysis``); every worker and queue place taken 503 ``analysis.busy``."""
    rules = {k: v for k, v in request.query_params.items() if k not in CLOUD_EVAL_PARAMETERS}
    if len(rules) > MAX_RULE_OPTIONS or any(len(k) > 40 or len(v) > 100 for k, v in rules.items()):
        raise ServiceError("request.invalid", "too many or too long rule options")
    if variant is None:
        raise ServiceError("game.unknown", "say which game: variant=<a game's id>")
    workers = services.analysis
    workers.admit(f"player:{get_identity(request).id}", client_ip(request))
    content = await workers.evaluation_json(variant, rules, fen, multiPv)
    return Response(content, media_type="application/json")


@page_router.get("/analysis")
async def analysis_page(request: Request) -> Response:
    return STATIC.page("analysis.html", request)
