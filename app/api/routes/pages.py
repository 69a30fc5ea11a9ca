"""The pages about players: a profile (``/@/{username}``, lichess's address), the
leaderboard (``/leaderboard``) and "my games" (``/games``). Each is a static page whose
module reads the public API; a profile of no account is answered 404 (the same page, which
then says so), so a mistyped name is not a page that exists."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

from ..deps import ServicesDep

STATIC = Path(__file__).resolve().parents[3] / "static"
NO_CACHE = {"Cache-Control": "no-cache"}
MAX_USERNAME = 20

router = APIRouter(include_in_schema=False)


@router.get("/@/{username}")
async def profile(username: str, services: ServicesDep) -> FileResponse:
    found = await services.accounts.by_username(username) if len(username) <= MAX_USERNAME else None
    status = 200 if found is not None and found.username is not None else 404
    return FileResponse(STATIC / "profile.html", status_code=status, headers=NO_CACHE)


@router.get("/leaderboard")
async def leaderboard() -> FileResponse:
    return FileResponse(STATIC / "leaderboard.html", headers=NO_CACHE)


@router.get("/games")
async def my_games() -> FileResponse:
    return FileResponse(STATIC / "games.html", headers=NO_CACHE)
