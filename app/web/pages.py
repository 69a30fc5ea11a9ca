"""The pages about players: a profile (``/@/{username}``, lichess's address), the
leaderboard (``/leaderboard``) and "my games" (``/games``). Each is a static page whose
module reads the public API; a profile of no account is answered 404 (the same page, which
then says so), so a mistyped name is not a page that exists. And the TV page (``/tv``,
``/tv/{channel}``), whose module opens its channel's socket (app/tv/socket.py)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.http.deps import ServicesDep
from app.web.assets import STATIC

MAX_USERNAME = 20

router = APIRouter(include_in_schema=False)


@router.get("/@/{username}")
async def profile(username: str, request: Request, services: ServicesDep) -> Response:
    found = await services.accounts.by_username(username) if len(username) <= MAX_USERNAME else None
    status = 200 if found is not None and found.username is not None else 404
    return STATIC.page("profile.html", request, status_code=status)


@router.get("/leaderboard")
async def leaderboard(request: Request) -> Response:
    return STATIC.page("leaderboard.html", request)


@router.get("/games")
async def my_games(request: Request) -> Response:
    return STATIC.page("games.html", request)


@router.get("/tv")
async def tv(request: Request) -> Response:
    return STATIC.page("tv.html", request)


@router.get("/tv/{channel}")
async def tv_channel(channel: str, request: Request) -> Response:
    # Any name is the page, which says so when the server knows no such channel.
    return STATIC.page("tv.html", request)
