"""Lichess's arena routes (docs/api.md, "Tournaments"), as berserk's ``tournaments`` client
calls them: create, the current lists, one arena with its standings, join, withdraw,
terminate, the results and the games (NDJSON); berserk (the board and bot APIs' route, and
the site's); the next tournament (arena or Swiss) for the lobby; and the two pages."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from app.botapi import exports
from app.botapi.export import multi_game_response
from app.core.errors import ServiceError
from app.http.auth import Caller, account_caller, caller
from app.http.bodies import form_or_json, read_body
from app.http.deps import ServicesDep
from app.http.responses import NDJSONResponse, errors
from app.http.schemas import Rules, Variant
from app.tournaments import reading, swissroutes, views
from app.tournaments.forms import ArenaForm, JoinIn, condition_rating
from app.tournaments.service import Tournaments
from app.tournaments.tables import Tournament
from app.web.assets import STATIC

router = APIRouter(tags=["tournaments"])
page_router = APIRouter(include_in_schema=False)
Member = Annotated[Caller, Depends(account_caller())]
Anyone = Annotated[Caller, Depends(caller())]
Flag = Annotated[bool, Query()]


class ArenaIn(BaseModel):
    """lichess's arena form (berserk posts it as JSON, browsers as a form)."""

    model_config = ConfigDict(extra="ignore")

    clockTime: float  # minutes
    clockIncrement: int = 0
    minutes: int
    name: str | None = None
    waitMinutes: int | None = None
    startDate: int | None = None
    variant: Variant = "dobutsu"
    rules: Rules | str | None = None  # an object, or its JSON (a form's field)
    rated: bool = True
    berserkable: bool = True
    streakable: bool = True
    password: str | None = None
    description: str | None = None
    conditions: Annotated[dict[str, Any], Field(max_length=8)] | None = (
        None  # minRating.rating, maxRating.rating
    )


def form_of(body: ArenaIn) -> ArenaForm:
    rules = body.rules
    if isinstance(rules, str):
        rules = json.loads(rules) if rules.strip() else {}
    return ArenaForm(
        clock_limit_s=round(body.clockTime * 60),
        clock_increment_s=body.clockIncrement,
        minutes=body.minutes,
        name=body.name,
        starts_ms=body.startDate,
        wait_minutes=5 if body.waitMinutes is None else body.waitMinutes,
        variant=body.variant,
        rules=dict(rules or {}),
        rated=body.rated,
        berserkable=body.berserkable,
        streakable=body.streakable,
        password=body.password,
        min_rating=condition_rating(body.conditions, "minRating", "tournament.invalid"),
        max_rating=condition_rating(body.conditions, "maxRating", "tournament.invalid"),
        description=body.description,
    )


def arenas(services: Any) -> Tournaments:
    tournaments: Tournaments = services.tournaments
    return tournaments


async def info_of(services: Any, tour: Tournament, me: str | None, page: int = 1) -> dict[str, Any]:
    async with services.games.sessions() as session:
        state = await reading.state(session, tour)
    return views.info(tour, state, services.games.now(), me, page)


@router.post(
    "/api/tournament",
    openapi_extra=form_or_json(ArenaIn),
    responses=errors(400, 401),
    summary="Create an arena",
)
async def create(request: Request, who: Member, services: ServicesDep) -> JSONResponse:
    body = await read_body(request, ArenaIn, lichess=True)
    try:
        form = form_of(body)
    except (ValueError, TypeError) as error:
        raise ServiceError("tournament.invalid", f"invalid form: {error}") from None
    tour = await arenas(services).create(who.identity, form)
    return JSONResponse(await info_of(services, tour, who.identity.id))


@router.get("/api/tournament", summary="The arenas upcoming, running and recently finished")
async def current(services: ServicesDep) -> JSONResponse:
    lists = await arenas(services).current()
    now = services.games.now()
    return JSONResponse(
        {key: [views.summary(t, n, now) for t, n in rows] for key, rows in lists.items()}
    )


@router.get(
    "/api/tournament/next",
    summary="The next tournament to start, arena or Swiss (the lobby's line)",
)
async def next_arena(services: ServicesDep) -> JSONResponse:
    now = services.games.now()
    arena = await arenas(services).next_up()
    swiss = await swissroutes.swisses(services).next_up()
    # The soonest to start of the two, the Swiss on a tie (the site's weekly Swiss starts on
    # the hour, with an hourly arena: the rarer event is the one to tell); with none to
    # start, an arena running, else a Swiss.
    upcoming = [
        (found[0].starts_ms, rank, found)
        for rank, found in ((1, arena), (0, swiss))
        if found is not None and found[0].status == "created"
    ]
    pick = min(upcoming, key=lambda row: row[:2])[2] if upcoming else arena or swiss
    if pick is None:
        return JSONResponse(None)
    event, n = pick
    if isinstance(event, Tournament):
        return JSONResponse(views.summary(event, n, now))
    return JSONResponse(swissroutes.summary(event, n, now))


@router.get(
    "/api/tournament/{tournament_id}",
    responses=errors(404),
    summary="An arena: its info, a page of standings, the games on, the podium",
)
async def one(
    tournament_id: str, who: Anyone, services: ServicesDep, page: int = 1
) -> JSONResponse:
    tour = await arenas(services).get(tournament_id)
    return JSONResponse(await info_of(services, tour, who.identity.id, page))


@router.post(
    "/api/tournament/{tournament_id}/join",
    responses=errors(401, 403, 404, 409),
    summary="Join an arena (or come back from a pause)",
)
async def join(
    tournament_id: str,
    request: Request,
    who: Member,
    services: ServicesDep,
    password: str | None = None,
) -> JSONResponse:
    if password is None:
        password = (await read_body(request, JoinIn, empty_ok=True, lichess=True)).password
    await arenas(services).join(tournament_id, who.identity, password)
    return JSONResponse({"ok": True})


@router.post(
    "/api/tournament/{tournament_id}/withdraw",
    responses=errors(401, 404),
    summary="Leave an upcoming arena, or pause in a running one",
)
async def withdraw(tournament_id: str, who: Member, services: ServicesDep) -> JSONResponse:
    await arenas(services).withdraw(tournament_id, who.identity)
    return JSONResponse({"ok": True})


@router.post(
    "/api/tournament/{tournament_id}/terminate",
    responses=errors(401, 403, 404, 409),
    summary="End an arena now (its creator)",
)
async def terminate(tournament_id: str, who: Member, services: ServicesDep) -> JSONResponse:
    await arenas(services).terminate(tournament_id, who.identity)
    return JSONResponse({"ok": True})


@router.get(
    "/api/tournament/{tournament_id}/results",
    response_class=NDJSONResponse,
    responses=errors(404),
    summary="The standings, a player a line (NDJSON)",
)
async def results(
    tournament_id: str, services: ServicesDep, nb: int | None = None, sheet: Flag = False
) -> Response:
    tour = await arenas(services).get(tournament_id)
    async with services.games.sessions() as session:
        state = await reading.state(session, tour)
    rows = state.standings[: nb if nb is not None and nb >= 0 else None]

    async def lines() -> AsyncIterator[bytes]:
        for s in rows:
            line = views.result_line(s, state, sheet=sheet)
            yield (json.dumps(line, separators=(",", ":")) + "\n").encode()

    return NDJSONResponse(lines())


@router.get(
    "/api/tournament/{tournament_id}/games",
    responses=errors(404),
    summary="The arena's games (NDJSON with Accept: application/x-ndjson, else records)",
)
async def games(
    tournament_id: str,
    request: Request,
    services: ServicesDep,
    moves: Flag = True,
    tags: Flag = True,
    pgnInJson: Flag = False,
) -> Response:
    ids = await arenas(services).game_ids(tournament_id)

    async def pages() -> AsyncIterator[Any]:
        yield await exports.games_by_ids(services.games.sessions, ids)

    return multi_game_response(request, pages(), moves, tags, pgnInJson)


async def _berserk(game_id: str, who: Caller, services: Any) -> JSONResponse:
    await arenas(services).berserk(game_id, who.identity)
    return JSONResponse({"ok": True})


@router.post("/api/board/game/{game_id}/berserk", responses=errors(400, 401, 404))
async def board_berserk(game_id: str, who: Anyone, services: ServicesDep) -> JSONResponse:
    """Halve your clock before your first move in an arena game: a win is a point more."""
    return await _berserk(game_id, who, services)


@router.post("/api/bot/game/{game_id}/berserk", responses=errors(400, 401, 404))
async def bot_berserk(game_id: str, who: Anyone, services: ServicesDep) -> JSONResponse:
    """As the board API's: a bot berserks too."""
    return await _berserk(game_id, who, services)


@page_router.get("/tournaments")
async def list_page(request: Request) -> Response:
    return STATIC.page("tournaments.html", request)


@page_router.get("/tournament/{tournament_id}")
async def arena_page(tournament_id: str, request: Request, services: ServicesDep) -> Response:
    tour = await arenas(services).find(tournament_id)
    return STATIC.page("tournament.html", request, status_code=200 if tour is not None else 404)
