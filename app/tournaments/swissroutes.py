"""Lichess's Swiss routes (docs/api.md, "Swiss tournaments"), as berserk's ``tournaments``
client calls them: create (under a team id, kept but not checked: Kodama has no teams), one
Swiss, join, withdraw, terminate, schedule the next round, the results (NDJSON), the games
and the TRF export; and the site's lists of them (the tournaments page)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field

import engine
from app.botapi import exports
from app.botapi.export import multi_game_response
from app.core.errors import ServiceError
from app.http.auth import Caller, account_caller, caller
from app.http.bodies import form_or_json, read_body
from app.http.deps import ServicesDep
from app.http.responses import NDJSONResponse, errors
from app.http.schemas import Rules, Variant
from app.tournaments.forms import JoinIn, condition_rating
from app.tournaments.naming import name_words
from app.tournaments.swiss import SwissState, SwissTournaments
from app.tournaments.swissform import SwissForm
from app.tournaments.swissstandings import Standing, trf
from app.tournaments.tables import Swiss
from app.web.assets import STATIC

router = APIRouter(tags=["swiss"])
page_router = APIRouter(include_in_schema=False)
Member = Annotated[Caller, Depends(account_caller())]
Anyone = Annotated[Caller, Depends(caller())]
Flag = Annotated[bool, Query()]


class ClockIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    limit: int  # seconds
    increment: int = 0


class SwissIn(BaseModel):
    """lichess's Swiss form (berserk posts it as JSON with dotted ``clock.*`` keys)."""

    model_config = ConfigDict(extra="ignore")

    clock: ClockIn
    nbRounds: int
    name: str | None = None
    startsAt: int | None = None
    roundInterval: int | None = None
    variant: Variant = "dobutsu"
    rules: Rules | str | None = None
    rated: bool = True
    description: str | None = None
    password: str | None = None
    conditions: Annotated[dict[str, Any], Field(max_length=8)] | None = (
        None  # minRating.rating, maxRating.rating
    )


class ScheduleIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    date: int


def swisses(services: Any) -> SwissTournaments:
    found: SwissTournaments = services.swiss
    return found


def iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def summary(s: Swiss, nb_players: int, now: int) -> dict[str, Any]:
    """lichess's Swiss JSON without the rounds and standings (the lists' lines), with
    ``secondsToStart`` before the start."""
    data: dict[str, Any] = {
        "id": s.id,
        "system": "swiss",
        "createdBy": s.created_by,
        "teamId": s.team_id,
        "name": s.name,
        "startsAt": iso(s.starts_ms),
        "clock": {"limit": s.clock_limit_s, "increment": s.clock_increment_s},
        "variant": s.variant,
        "variantName": engine.get_game(s.variant).name,
        "rules": dict(s.rules),
        "round": s.round,
        "nbRounds": s.nb_rounds,
        "roundInterval": s.round_interval_s,
        "nbPlayers": nb_players,
        "status": s.status,
        "rated": s.rated,
        "description": s.description,
        "private": s.password_hash is not None,
    }
    if s.min_rating is not None:
        data["minRating"] = {"rating": s.min_rating}
    if s.max_rating is not None:
        data["maxRating"] = {"rating": s.max_rating}
    if (words := name_words(s.name, s.variant, "swiss", s.created_by)) is not None:
        data["defaultName"] = words
    if s.status == "created":
        data["secondsToStart"] = max(0, (s.starts_ms - now) // 1000)
    if s.next_round_ms is not None and s.status != "finished":
        data["nextRound"] = {
            "at": iso(s.next_round_ms),
            "in": max(0, (s.next_round_ms - now) // 1000),
        }
    return data


def info(state: SwissState, now: int, me: str | None = None) -> dict[str, Any]:
    """lichess's Swiss JSON, with the rounds' pairings, the standings and, for a player in
    it, ``me`` (for the page)."""
    s = state.swiss
    names = {row.player_id: row.name for row in state.standings}
    data: dict[str, Any] = {
        **summary(s, len(state.standings), now),
        "nbOngoing": sum(1 for p in state.pairings if p.status == "started"),
        "rounds": [
            {
                "round": p.round,
                "board": p.board,
                "gameId": p.game_id,
                "first": names.get(p.first_id),
                "second": None if p.second_id is None else names.get(p.second_id),
                "status": p.status,
                "winner": p.winner,
            }
            for p in state.pairings
        ],
        "standings": [result_line(row) for row in state.standings],
    }
    mine = next((row for row in state.standings if row.player_id == me), None)
    if mine is not None:
        on = [
            p.game_id
            for p in state.pairings
            if p.status == "started" and me in (p.first_id, p.second_id)
        ]
        data["me"] = {"withdrawn": mine.withdrawn, "gameId": on[0] if on else None}
    return data


def result_line(row: Standing) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "points": row.points,
        "tieBreak": row.sonneborn_berger,
        "buchholz": row.buchholz,
        "rating": row.rating,
        "username": row.name,
        "performance": row.performance,
        "absent": row.withdrawn,
    }


async def _info(services: Any, swiss_id: str, me: str | None) -> JSONResponse:
    state = await swisses(services).state(swiss_id)
    return JSONResponse(info(state, services.games.now(), me))


@router.post(
    "/api/swiss/new/{team_id}",
    openapi_extra=form_or_json(SwissIn),
    responses=errors(400, 401),
    summary="Create a Swiss (the team id is kept, not checked)",
)
async def create(
    team_id: str, request: Request, who: Member, services: ServicesDep
) -> JSONResponse:
    body = await read_body(request, SwissIn, lichess=True)
    rules = body.rules
    try:
        if isinstance(rules, str):
            rules = json.loads(rules) if rules.strip() else {}
    except ValueError:
        raise ServiceError("swiss.invalid_rules", "rules: not JSON") from None
    form = SwissForm(
        team_id=team_id,
        clock_limit_s=body.clock.limit,
        clock_increment_s=body.clock.increment,
        nb_rounds=body.nbRounds,
        name=body.name,
        starts_ms=body.startsAt,
        round_interval_s=body.roundInterval,
        variant=body.variant,
        rules=dict(rules or {}),
        rated=body.rated,
        description=body.description,
        password=body.password,
        min_rating=condition_rating(body.conditions, "minRating", "swiss.invalid_rating"),
        max_rating=condition_rating(body.conditions, "maxRating", "swiss.invalid_rating"),
    )
    swiss = await swisses(services).create(who.identity, form)
    return await _info(services, swiss.id, who.identity.id)


@router.get("/api/swiss", summary="The Swiss events upcoming, running and recently finished")
async def current(services: ServicesDep) -> JSONResponse:
    lists = await swisses(services).current()
    now = services.games.now()
    return JSONResponse({key: [summary(s, n, now) for s, n in rows] for key, rows in lists.items()})


@router.get("/api/swiss/{swiss_id}", responses=errors(404), summary="A Swiss")
async def one(swiss_id: str, who: Anyone, services: ServicesDep) -> JSONResponse:
    return await _info(services, swiss_id, who.identity.id)


@router.post(
    "/api/swiss/{swiss_id}/join",
    responses=errors(401, 403, 404, 409),
    summary="Join a Swiss (or rejoin after withdrawing)",
)
async def join(
    swiss_id: str,
    request: Request,
    who: Member,
    services: ServicesDep,
    password: str | None = None,
) -> JSONResponse:
    if password is None:
        password = (await read_body(request, JoinIn, empty_ok=True, lichess=True)).password
    await swisses(services).join(swiss_id, who.identity, password)
    return JSONResponse({"ok": True})


@router.post(
    "/api/swiss/{swiss_id}/withdraw",
    responses=errors(401, 404),
    summary="Leave a Swiss before it starts, or stop being paired in one running",
)
async def withdraw(swiss_id: str, who: Member, services: ServicesDep) -> JSONResponse:
    await swisses(services).withdraw(swiss_id, who.identity)
    return JSONResponse({"ok": True})


@router.post(
    "/api/swiss/{swiss_id}/terminate",
    responses=errors(401, 403, 404, 409),
    summary="End a Swiss now (its creator)",
)
async def terminate(swiss_id: str, who: Member, services: ServicesDep) -> JSONResponse:
    await swisses(services).terminate(swiss_id, who.identity)
    return JSONResponse({"ok": True})


@router.post(
    "/api/swiss/{swiss_id}/schedule-next-round",
    responses=errors(400, 401, 403, 404, 409),
    summary="Set when the next round starts (its creator)",
)
async def schedule(
    swiss_id: str, request: Request, who: Member, services: ServicesDep
) -> JSONResponse:
    body = await read_body(request, ScheduleIn, lichess=True)
    await swisses(services).schedule_next_round(swiss_id, who.identity, body.date)
    return JSONResponse({"ok": True})


@router.get(
    "/api/swiss/{swiss_id}/results",
    response_class=NDJSONResponse,
    responses=errors(404),
    summary="The standings, a player a line (NDJSON)",
)
async def results(swiss_id: str, services: ServicesDep, nb: int | None = None) -> Response:
    state = await swisses(services).state(swiss_id)
    rows = state.standings[: nb if nb is not None and nb >= 0 else None]

    async def lines() -> AsyncIterator[bytes]:
        for row in rows:
            yield (json.dumps(result_line(row), separators=(",", ":")) + "\n").encode()

    return NDJSONResponse(lines())


@router.get(
    "/api/swiss/{swiss_id}/games",
    responses=errors(404),
    summary="The Swiss's games (NDJSON with Accept: application/x-ndjson, else records)",
)
async def games(
    swiss_id: str,
    request: Request,
    services: ServicesDep,
    moves: Flag = True,
    tags: Flag = True,
    pgnInJson: Flag = False,
) -> Response:
    ids = await swisses(services).game_ids(swiss_id)

    async def pages() -> AsyncIterator[Any]:
        yield await exports.games_by_ids(services.games.sessions, ids)

    return multi_game_response(request, pages(), moves, tags, pgnInJson)


@router.get(
    "/swiss/{swiss_id}.trf",
    response_class=PlainTextResponse,
    responses=errors(404),
    summary="The Swiss as a FIDE Tournament Report File",
)
async def export_trf(swiss_id: str, request: Request, services: ServicesDep) -> Response:
    state = await swisses(services).state(swiss_id)
    s = state.swiss
    base = str(request.base_url).rstrip("/")
    day = "%Y/%m/%d"
    header = {
        "012": s.name,
        "022": f"{base}/swiss/{s.id}",
        "032": "Kodama",
        "042": datetime.fromtimestamp(s.starts_ms / 1000, UTC).strftime(day),
        "052": ""
        if s.finished_ms is None
        else datetime.fromtimestamp(s.finished_ms / 1000, UTC).strftime(day),
        "062": str(len(state.standings)),
        "092": "Individual: Swiss-System",
        "102": f"{base}/swiss",
    }
    return PlainTextResponse(trf(header, state.standings, s.nb_rounds, s.round))


@page_router.get("/swiss/{swiss_id}")
async def swiss_page(swiss_id: str, request: Request, services: ServicesDep) -> Response:
    """After the TRF's route: ``/swiss/{id}.trf`` is the export, not a page."""
    found = await swisses(services).find(swiss_id)
    return STATIC.page("swiss.html", request, status_code=200 if found is not None else 404)
