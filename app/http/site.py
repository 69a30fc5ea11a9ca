"""The site: every route, page and static file, with the error shapes and /openapi.json —
one FastAPI app built once per process and shared by every app instance (app/main.py).

FastAPI builds a route's parameter handling (pydantic adapters for every parameter) the first
time a request reaches it, per app: built once here, a second instance in the same process
(the tests make thousands) costs nothing. Nothing here holds an instance's state: a route
finds its instance's services in the request (``get_services``, app/http/deps.py), put there
by that instance's lifespan, and its caller's identity (``request.state.identity``) set by
that instance's middleware (docs/decisions/shared-site-app.md)."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable

from fastapi import FastAPI, Request
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

import engine
from app.accounts import controlroutes as account_control
from app.accounts import routes as account
from app.accounts import users
from app.analysis import routes as analysis
from app.botapi import eventroutes, export
from app.botapi import routes as bot
from app.builtin import routes as builtin
from app.challenges import routes as challenges
from app.challenges import seekroutes
from app.games import routes as games
from app.games import socket as ws
from app.http import docs, errors, openapi
from app.lobby import sockets as lobbysocket
from app.matchmaking import routes as pools
from app.moderation import routes as moderation
from app.puzzles import routes as puzzles
from app.ratings import routes as ratings
from app.relations import routes as relations
from app.review import routes as review
from app.tablebase import routes as tablebase
from app.tournaments import routes as tournaments
from app.tournaments import swissroutes
from app.tv import routes as tv
from app.tv import socket as tvsocket
from app.web import pages
from app.web import socket as sitesocket
from app.web.assets import STATIC


@functools.cache
def site() -> FastAPI:
    """The process's site app (built on the first call)."""
    app = FastAPI(
        title="Kodama",
        summary=f"Play {engine.variants.listing('and')} online.",
        version="0.1.0",
        docs_url=None,  # served by app/http/docs.py, without a CDN
        redoc_url=None,
    )
    errors.install(app)
    app.include_router(games.router)
    app.include_router(account.router)
    app.include_router(account_control.router)
    app.include_router(eventroutes.router)
    app.include_router(bot.bot_router)
    app.include_router(bot.board_router)
    app.include_router(challenges.router)
    app.include_router(builtin.router)
    app.include_router(seekroutes.router)
    app.include_router(export.router)
    app.include_router(export.lichess_router)
    app.include_router(users.router)
    app.include_router(ratings.router)
    app.include_router(relations.router)
    app.include_router(tv.router)
    app.include_router(moderation.router)
    app.include_router(moderation.page_router)
    app.include_router(pools.router)
    app.include_router(ws.router)
    app.include_router(lobbysocket.router)
    app.include_router(sitesocket.router)
    app.include_router(tvsocket.router)
    app.include_router(docs.router)
    app.include_router(pages.router)
    app.include_router(analysis.router)
    app.include_router(analysis.page_router)
    app.include_router(tournaments.router)
    app.include_router(tournaments.page_router)
    app.include_router(swissroutes.router)
    app.include_router(swissroutes.page_router)
    app.include_router(tablebase.router)
    app.include_router(puzzles.router)
    app.include_router(review.router)
    openapi.install(app)
    app.mount("/static", STATIC, name="static")
    _add_pages(app)
    return app


def _add_pages(app: FastAPI) -> None:
    def page(name: str) -> Callable[..., Awaitable[Response]]:
        async def serve(request: Request) -> Response:
            return STATIC.page(name, request)

        return serve

    app.add_api_route("/", page("index.html"), include_in_schema=False)
    app.add_api_route("/game/{game_id}", page("game.html"), include_in_schema=False)
    app.add_api_route("/invite/{token}", page("invite.html"), include_in_schema=False)
    app.add_api_route("/challenge/{challenge_id}", page("challenge.html"), include_in_schema=False)
    app.add_api_route("/rules", page("rules.html"), include_in_schema=False)
    app.add_api_route("/training", page("puzzle.html"), include_in_schema=False)
    app.add_api_route("/training/daily", page("puzzle.html"), include_in_schema=False)
    app.add_api_route("/training/{puzzle_id}", page("puzzle.html"), include_in_schema=False)

    async def rules_page(game: str, request: Request) -> Response:
        # Only the games have a rules page: any other name is a 404 like any unknown URL.
        if game not in engine.game_ids():
            raise StarletteHTTPException(404, f"no rules page for {game!r}")
        return STATIC.page("rules.html", request)

    app.add_api_route("/rules/{game}", rules_page, include_in_schema=False)
    app.add_api_route("/account", page("account.html"), include_in_schema=False)
