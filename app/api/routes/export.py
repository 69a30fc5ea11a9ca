"""A game for anyone, as lichess exports one: ``GET /api/game/{id}`` (JSON), and with
``?format=ndjson`` (or ``Accept: application/x-ndjson``, or ``/api/stream/game/{id}``) a
spectator's live stream: the game, then a ``gameState`` line per change, spectator chat,
until the game ends."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse, Response

import engine

from ...models import Game
from ...services import clock
from ...services.streams import COLOR, load_players, seat_json, speed_of, variant_json
from ..auth import Caller, caller
from ..botmodels import ExportLine, GameExportOut
from ..deps import Services, ServicesDep
from .bot import NDJSONResponse, errors, follow, json_errors, limit

router = APIRouter(prefix="/api", tags=["games"])
Anyone = Annotated[Caller, Depends(caller())]
NDJSON = "application/x-ndjson"


def export_json(game: Game, state: dict[str, Any], players: dict[str, Any]) -> dict[str, Any]:
    rules = engine.get_game(game.variant, **game.rules)
    times = state["clock"]
    result = state["result"]
    initial, increment = game.clock_initial_ms, game.clock_increment_ms or 0

    def seat(player_id: str | None) -> dict[str, Any] | None:
        found = seat_json(players, player_id)
        return None if found is None else {"user": found}

    return {
        "id": game.id,
        "rated": False,
        "variant": variant_json(game.variant),
        "speed": speed_of(initial, increment),
        "perf": {"name": rules.name},
        "createdAt": game.created_ms,
        "startedAt": game.started_ms,
        "lastMoveAt": game.turn_started_ms if game.ply else None,
        "finishedAt": game.finished_ms,
        "status": game.status,
        "reason": game.reason,
        "winner": None if result is None or not result["winner"] else COLOR[result["winner"]],
        "players": {"white": seat(game.first_id), "black": seat(game.second_id)},
        "moves": " ".join(state["moves"]),
        "initialFen": rules.to_text(rules.start()),
        "fen": game.fen,
        "turn": COLOR[clock.side_to_move(game)],
        "legalMoves": state["legalMoves"],
        "ply": game.ply,
        "rules": dict(game.rules),
        "clock": None
        if initial is None
        else {
            "initial": initial // 1000,
            "increment": increment // 1000,
            "totalTime": (initial + 40 * increment) // 1000,
        },
        "wtime": None if times is None else times["first"],
        "btime": None if times is None else times["second"],
        "drawOffer": None if state["drawOffer"] is None else COLOR[state["drawOffer"]],
    }


async def exported(services: Services, game: Game, state: dict[str, Any]) -> dict[str, Any]:
    players = await load_players(services.games.sessions, (game.first_id, game.second_id))
    return export_json(game, state, players)


def spectate(services: Services, game_id: str) -> NDJSONResponse:
    async def first(game: Game, state: dict[str, Any]) -> dict[str, Any]:
        return await exported(services, game, state)

    return NDJSONResponse(follow(services, game_id, None, first))


EXPORT_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "the game (JSON); NDJSON lines (ExportLine) when streamed",
        "content": {NDJSON: {"schema": {"$ref": "#/components/schemas/ExportLine"}}},
    },
    **errors(401, 404, 429),
}


@router.get(
    "/game/{game_id}",
    response_model=GameExportOut,
    responses=EXPORT_RESPONSES,
    summary="Export a game (or stream it live)",
)
async def export_game(
    game_id: str,
    who: Anyone,
    services: ServicesDep,
    request: Request,
    format: Annotated[
        Literal["json", "ndjson"] | None,
        Query(description="ndjson: stream the game live, as a spectator"),
    ] = None,
) -> Response:
    """Players, moves, clocks, result, rule options, status and position. Streamed
    (``format=ndjson`` or ``Accept: application/x-ndjson``): the game first, then a
    ``gameState`` line per change and the spectators' chat, until the game is over."""
    wants_stream = format == "ndjson" or (
        format is None and NDJSON in request.headers.get("accept", "")
    )
    game = await services.games.get(game_id)
    if wants_stream:
        limit(services, "stream", who, request)
        return spectate(services, game.id)
    data = await exported(services, game, await services.games.state(game))
    return JSONResponse(GameExportOut.model_validate(data).model_dump(mode="json"))


@router.get(
    "/stream/game/{game_id}",
    response_class=NDJSONResponse,
    responses={
        200: {"description": "NDJSON: the game, then its changes", "model": ExportLine},
        **json_errors(401, 404, 429),
    },
    summary="Stream a game live, as a spectator",
)
async def stream_game(
    game_id: str, who: Anyone, services: ServicesDep, request: Request
) -> NDJSONResponse:
    """The same lines as ``GET /api/game/{id}?format=ndjson``."""
    game = await services.games.get(game_id)
    limit(services, "stream", who, request)
    return spectate(services, game.id)
