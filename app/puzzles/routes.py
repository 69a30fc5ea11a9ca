"""lichess's puzzle API: ``GET /api/puzzle/daily``, ``GET /api/puzzle/next`` and ``GET
/api/puzzle/{id}`` in lichess's shape (views.py), and Kodama's ``POST
/api/puzzle/{id}/round`` (an attempt, which rates an account's first one) and ``GET
/api/puzzle/rating`` (the caller's puzzle rating) for the puzzle page (docs/api.md,
"Puzzles")."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query
from pydantic import BaseModel, Field

from app.http.auth import Caller, caller
from app.http.deps import ServicesDep
from app.http.responses import errors
from app.http.schemas import BROWSER_BODY

from .tables import Puzzle
from .views import puzzle_json, rating_json

router = APIRouter(prefix="/api/puzzle", tags=["puzzles"])
Anyone = Annotated[Caller, Depends(caller())]
PuzzleId = Annotated[str, Path(min_length=1, max_length=8, description="the puzzle's id")]
Difficulty = Literal["easiest", "easier", "normal", "harder", "hardest"]


def _account(who: Caller) -> str | None:
    """Whose rating counts: an account's; a guest's attempts are not kept (as lichess's)."""
    return who.identity.id if who.username is not None else None


async def _answer(services: ServicesDep, puzzle: Puzzle) -> dict[str, Any]:
    players, rated = await services.puzzles.players(puzzle)
    out = puzzle_json(puzzle, players)
    out["game"]["rated"] = rated
    return out


@router.get("/daily", responses=errors(404), summary="The daily puzzle (lichess's)")
async def daily(services: ServicesDep) -> dict[str, Any]:
    """The same puzzle for everyone all day (UTC), another the next day."""
    return await _answer(services, await services.puzzles.daily())


@router.get("/next", responses=errors(400, 404), summary="A new puzzle (lichess's)")
async def next_puzzle(
    who: Anyone,
    services: ServicesDep,
    angle: Annotated[str | None, Query(max_length=40, description="a theme, or mix")] = None,
    difficulty: Annotated[
        Difficulty | None, Query(description="relative to the caller's puzzle rating")
    ] = None,
    after: Annotated[
        str | None, Query(max_length=8, description="Kodama's: not this one (just played)")
    ] = None,
) -> dict[str, Any]:
    """A puzzle near the caller's puzzle rating (1500 for a guest), shifted by
    ``difficulty`` (±300, ±600), of the theme ``angle``: one the account has not played
    yet. No such puzzle: 404 ``puzzle.none``."""
    puzzle = await services.puzzles.next(_account(who), difficulty, angle, after)
    return await _answer(services, puzzle)


class RatingOut(BaseModel):
    rating: int
    deviation: int
    provisional: bool
    plays: int = Field(description="puzzles rated so far")


class MeOut(BaseModel):
    rating: RatingOut | None = Field(description="null for a guest: only accounts are rated")


@router.get("/rating", response_model=MeOut, summary="The caller's puzzle rating (Kodama's)")
async def my_rating(who: Anyone, services: ServicesDep) -> MeOut:
    player = _account(who)
    if player is None:
        return MeOut(rating=None)
    rating = await services.puzzles.rating_of(player)
    return MeOut.model_validate(
        {"rating": rating_json(rating, await services.puzzles.plays_of(player))}
    )


@router.get("/{puzzle_id}", responses=errors(404), summary="A puzzle by its id (lichess's)")
async def get_puzzle(puzzle_id: PuzzleId, services: ServicesDep) -> dict[str, Any]:
    """Unknown id: 404 ``puzzle.not_found``."""
    return await _answer(services, await services.puzzles.get(puzzle_id))


class RoundIn(BaseModel):
    model_config = BROWSER_BODY
    win: bool = Field(description="solved without a mistake, hint or giving up")


class RoundOut(BaseModel):
    win: bool
    rated: bool = Field(description="an account's first attempt at this puzzle")
    ratingDiff: int = Field(description="what it did to the caller's rating (0 unrated)")
    rating: RatingOut | None = Field(description="the caller's rating after it; null: guest")
    puzzleRating: int = Field(description="the puzzle's rating after it")


@router.post(
    "/{puzzle_id}/round",
    response_model=RoundOut,
    responses=errors(400, 404),
    summary="Record an attempt at a puzzle (Kodama's)",
)
async def puzzle_round(
    puzzle_id: PuzzleId, body: RoundIn, who: Anyone, services: ServicesDep
) -> RoundOut:
    """An account's first attempt at a puzzle rates the account and the puzzle (Glicko-2,
    as lichess's); a replay, or a guest's attempt, is answered unrated."""
    player = _account(who)
    done = await services.puzzles.attempt(player, puzzle_id, body.win)
    rating = None
    if player is not None and done.player is not None:
        rating = rating_json(done.player, await services.puzzles.plays_of(player))
    return RoundOut.model_validate(
        {
            "win": done.win,
            "rated": done.rated,
            "ratingDiff": done.rating_diff,
            "rating": rating,
            "puzzleRating": round(done.puzzle_rating),
        }
    )
