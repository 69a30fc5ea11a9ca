"""``POST /api/game/{id}/analysis`` (request a finished game's computer review) and ``GET
/api/game/{id}/analysis`` (read it, or its place in the queue): for the game page and for
programs (docs/api.md, "Game reviews"). lichess has no public request endpoint; its
review's shapes are given by the game export (``/game/export/{id}?evals=true``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from app.http.auth import Caller, caller
from app.http.deps import ServicesDep
from app.http.responses import errors

from .views import review_json

router = APIRouter(prefix="/api/game", tags=["games"])
Anyone = Annotated[Caller, Depends(caller())]
GameId = Annotated[str, Path(min_length=1, max_length=12, description="the game's id")]


class ReviewProgress(BaseModel):
    done: int = Field(description="positions evaluated")
    total: int = Field(description="the game's positions, the start included")


class ReviewOut(BaseModel):
    """A game's review: ``none`` (nobody asked), ``queued`` (``position``: 1 runs next),
    ``running``, ``done`` (with its plies and players) or ``failed`` (ask again)."""

    status: Literal["none", "queued", "running", "done", "failed"]
    position: int | None = Field(default=None, description="the place in the queue, 1 next")
    progress: ReviewProgress | None = None
    thresholds: dict[str, float] | None = Field(
        default=None, description="the drop of win percentage of each mark, at least"
    )
    start: dict[str, Any] | None = Field(default=None, description="the start's win %")
    plies: list[dict[str, Any]] | None = Field(
        default=None,
        description="per move: ply, move, side, win (first player's %), eval or mate (first "
        "player's view), end, exact, and on a marked move mark, best, line (and outcome)",
    )
    players: dict[str, dict[str, Any]] | None = Field(
        default=None,
        description="first and second: inaccuracy, mistake, blunder, acpl, accuracy",
    )


@router.get(
    "/{game_id}/analysis",
    response_model=ReviewOut,
    response_model_exclude_none=True,
    responses=errors(404),
    summary="A finished game's computer review",
)
async def read_review(game_id: GameId, services: ServicesDep) -> dict[str, Any]:
    """The review of the game, for everyone; ``status`` ``none`` when nobody asked for one."""
    game = await services.games.reads.get(game_id)
    return review_json(await services.reviews.get(game.id), game.variant)


@router.post(
    "/{game_id}/analysis",
    response_model=ReviewOut,
    response_model_exclude_none=True,
    status_code=202,
    responses={200: {"description": "the review, done"}, **errors(404, 409, 429, 503)},
    summary="Request a finished game's computer review",
)
async def request_review(game_id: GameId, who: Anyone, services: ServicesDep) -> Any:
    """Queue the review of a finished game (by anyone who can see it: a player, a
    spectator, a program): 202 with its place in the queue, or 200 with the review when it
    is done. Asked again, the same review is answered. Refused: 409 ``review.unfinished``
    or ``review.no_moves``; 429 ``review.one_at_a_time`` while the caller waits for another
    game's review; 503 ``review.busy`` when the queue is full."""
    game = await services.games.reads.get(game_id)
    found = review_json(await services.reviews.request(game.id, who.identity.id), game.variant)
    body = ReviewOut.model_validate(found).model_dump(mode="json", exclude_none=True)
    return JSONResponse(body, status_code=200 if found["status"] == "done" else 202)
