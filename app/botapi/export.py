"""A game for anyone, as lichess exports one: ``GET /api/game/{id}`` (JSON), and with
``?format=ndjson`` (or ``Accept: application/x-ndjson``, or ``/api/stream/game/{id}``) a
spectator's live stream: the game, then a ``gameState`` line per change, spectator chat,
until the game ends."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse, Response

import engine
from app.botapi import exports
from app.botapi.callers import limit
from app.botapi.exportmodels import ExportLine, GameExportOut, LichessGameOut
from app.botapi.exports import GameFilter, initial_fen
from app.botapi.gamejson import COLOR, load_players, seat_json, speed_of_game, variant_json
from app.botapi.gamestream import follow
from app.botapi.streams import line
from app.core.errors import ServiceError
from app.db.models import GameRow
from app.games import clock, japanese
from app.games.state import GameState
from app.http.auth import Caller, caller
from app.http.deps import Services, ServicesDep
from app.http.lists import read_list, text_body
from app.http.responses import (
    NDJSON,
    PGN,
    STREAM_REFUSALS,
    TEXT_RECORD,
    CappedStreamingResponse,
    NDJSONResponse,
    PGNResponse,
    base_url,
    errors,
    json_errors,
    wants,
)
from app.review import views as review_views

router = APIRouter(prefix="/api", tags=["games"])
Anyone = Annotated[Caller, Depends(caller())]


def export_json(game: GameRow, state: dict[str, Any], players: dict[str, Any]) -> dict[str, Any]:
    rules = engine.get_game(game.variant, **game.rules)
    times = state["clock"]
    result = state["result"]
    initial, increment = game.clock_initial_ms, game.clock_increment_ms or 0

    def seat(player_id: str | None) -> dict[str, Any] | None:
        found = seat_json(players, player_id)
        return None if found is None else {"user": found}

    return {
        "id": game.id,
        "rated": game.rated,
        "variant": variant_json(game.variant),
        "speed": speed_of_game(game),
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
        "initialFen": initial_fen(game),
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
            "totalTime": (initial + 40 * (increment + (game.clock_byoyomi_ms or 0))) // 1000,
        },
        "wtime": None if times is None else times["first"],
        "btime": None if times is None else times["second"],
        "drawOffer": None if state["drawOffer"] is None else COLOR[state["drawOffer"]],
    }


async def exported(services: Services, game: GameRow, state: dict[str, Any]) -> dict[str, Any]:
    players = await load_players(services.games.sessions, (game.first_id, game.second_id))
    return export_json(game, state, players)


def spectate(services: Services, game_id: str) -> NDJSONResponse:
    async def first(game: GameRow, state: GameState) -> dict[str, Any]:
        return await exported(services, game, dict(state))

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
    game = await services.games.reads.get(game_id)
    if wants_stream:
        limit(services, "stream", who, request)
        return spectate(services, game.id)
    data = await exported(services, game, dict(await services.games.reads.state(game)))
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
    game = await services.games.reads.get(game_id)
    limit(services, "stream", who, request)
    return spectate(services, game.id)


# ---- lichess's game exports: /game/export/{id}, /api/games/user/{username}, _ids ------------
lichess_router = APIRouter(tags=["games"])
MAX_IDS = 300
MAX_MINE = 200  # games of /api/me/games at most: one page of the export
# The latest time a filter may name (epoch ms, the year 287396): every database's BIGINT and
# every JSON number holds it. Checked before the answer starts: a value the database cannot
# compare would otherwise cut a stream already begun with 200.
MAX_EPOCH_MS = 2**53 - 1
Flag = Annotated[bool, Query(description="lichess's flag: true or false")]
Pages = AsyncIterator[tuple[Sequence[GameRow], exports.GameContext]]


async def text_lines(
    pages: Pages, base: str, *, ndjson: bool, moves: bool, tags: bool, pgn_in_json: bool
) -> AsyncIterator[bytes]:
    """The exported games of ``pages``, one a line in NDJSON or one record after another."""
    async for games, context in pages:
        for game in games:
            if ndjson:
                yield line(
                    exports.game_json(game, context, base, moves=moves, pgn_in_json=pgn_in_json)
                )
            else:
                yield exports.text_record(game, context, base, moves=moves, tags=tags).encode()


def multi_game_response(
    request: Request, pages: Pages, moves: bool, tags: bool, pgn_in_json: bool
) -> Response:
    ndjson = wants(request, NDJSON)
    content = text_lines(
        pages, base_url(request), ndjson=ndjson, moves=moves, tags=tags, pgn_in_json=pgn_in_json
    )
    if ndjson:
        return NDJSONResponse(content)
    return CappedStreamingResponse(content, media_type=f"{PGN}; charset=utf-8")


MULTI_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "one game a line with Accept: application/x-ndjson (LichessGameOut), "
        "else one record after another (two empty lines between them)",
        "content": {
            NDJSON: {"schema": {"$ref": "#/components/schemas/LichessGameOut"}},
            PGN: {"schema": {"type": "string"}},
        },
    },
    **json_errors(400, 401, 404),
    **STREAM_REFUSALS,
}


@lichess_router.get(
    "/game/export/{game_id}",
    response_model=LichessGameOut,
    response_model_exclude_none=True,
    responses={200: TEXT_RECORD, **errors(401, 404)},
    summary="Export one game (lichess's game export)",
)
async def export_one(
    game_id: str,
    request: Request,
    services: ServicesDep,
    moves: Flag = True,
    tags: Flag = True,
    pgnInJson: Flag = False,
    evals: Flag = True,
    notation: Annotated[
        Literal["standard", "japanese"],
        Query(description="japanese: each shōgi move's Japanese form beside it, as a comment"),
    ] = "standard",
) -> Response:
    """As JSON with ``Accept: application/json`` (or ``application/x-ndjson``), else as the
    text record (PGN-style, docs/notation.md), as an attachment named
    ``kodama-<game>-<id>.txt``. Ongoing games too. With a computer review done (and
    ``evals``, true unless false): ``analysis`` per ply and ``players.*.analysis`` in the
    JSON, ``[%eval …]`` comments in the text record."""
    game = await services.games.reads.get(game_id)
    context = await exports.context_of(services.games.sessions, [game])
    base = base_url(request)
    review = await reviewed(services, game.id) if evals else None
    if wants(request, "application/json", NDJSON):
        data = exports.game_json(
            game, context, base, moves=moves, pgn_in_json=pgnInJson, review=review
        )
        return JSONResponse(LichessGameOut.model_validate(data).model_dump(exclude_none=True))
    # Saved as a file (as lichess's export), named after the game: the page's Download link.
    disposition = f'attachment; filename="{exports.record_filename(game)}"'
    comments = None if review is None else review["comments"]
    if notation == "japanese":
        comments = japanese.beside(
            game.variant, game.rules, initial_fen(game), game.moves.split(), comments
        )
    return PGNResponse(
        exports.text_record(game, context, base, moves=moves, tags=tags, comments=comments),
        headers={"Content-Disposition": disposition},
    )


async def reviewed(services: Services, game_id: str) -> dict[str, Any] | None:
    """The game's computer review in the export's shapes, None until one is done."""
    found = await services.reviews.get(game_id)
    if found is None or found.result is None:
        return None
    return {
        "analysis": review_views.analysis_json(found.result),
        "players": review_views.players_analysis(found.result),
        "comments": review_views.record_comments(found.result),
    }


@lichess_router.get(
    "/api/games/user/{username}",
    response_class=NDJSONResponse,
    responses=MULTI_RESPONSES,
    summary="Export a player's games (lichess's games of a user)",
)
async def export_by_player(
    username: str,
    request: Request,
    who: Anyone,
    services: ServicesDep,
    since: Annotated[
        int | None, Query(ge=0, le=MAX_EPOCH_MS, description="created at or after (epoch ms)")
    ] = None,
    until: Annotated[
        int | None, Query(ge=0, le=MAX_EPOCH_MS, description="created at or before (epoch ms)")
    ] = None,
    max: Annotated[int | None, Query(ge=1, description="at most this many games")] = None,
    vs: Annotated[str | None, Query(description="only against this username")] = None,
    rated: Annotated[
        bool | None, Query(description="true: rated games only; false: casual")
    ] = None,
    perfType: Annotated[
        str | None, Query(description="game ids, comma-separated (GET /api/variants lists them)")
    ] = None,
    color: Annotated[Literal["white", "black"] | None, Query()] = None,
    finished: Flag = True,
    ongoing: Flag = False,
    moves: Flag = True,
    tags: Flag = True,
    pgnInJson: Flag = False,
    sort: Annotated[Literal["dateDesc", "dateAsc"], Query()] = "dateDesc",
) -> Response:
    """Newest first (``sort=dateAsc``: oldest first); finished games only unless
    ``ongoing=true``. NDJSON with ``Accept: application/x-ndjson``, else text records."""
    player = await services.accounts.by_username(username)
    if player is None:
        raise ServiceError("user.not_found", f"no user {username!r}", 404)
    variants = None
    if perfType is not None:
        variants = tuple(v for v in perfType.split(",") if v)
        unknown = sorted(set(variants) - set(engine.game_ids()))
        if unknown or not variants:
            raise ServiceError(
                "perf.unknown",
                f"perfType: the games are {', '.join(engine.game_ids())}"
                f" (not {', '.join(unknown)})",
            )
    opponent = None if vs is None else await services.accounts.by_username(vs)
    wanted = GameFilter(
        player_id=player.id,
        since=since,
        until=until,
        vs=None if opponent is None else opponent.id,
        variants=variants,
        side=None if color is None else ("first" if color == "white" else "second"),
        finished=finished,
        ongoing=ongoing,
        newest_first=sort == "dateDesc",
        max=max,
        rated=rated,
        # An opponent who does not exist played nobody.
        nothing=vs is not None and opponent is None,
    )
    limit(services, "stream", who, request)
    pages = exports.player_games(services.games.sessions, wanted)
    return multi_game_response(request, pages, moves, tags, pgnInJson)


@lichess_router.get(
    "/api/me/games",
    response_class=NDJSONResponse,
    responses=MULTI_RESPONSES,
    summary="Export your own games (anonymous players too)",
)
async def export_mine(
    request: Request,
    who: Anyone,
    services: ServicesDep,
    max: Annotated[int, Query(ge=1, le=MAX_MINE, description="at most this many games")] = 50,
    ongoing: Flag = True,
    finished: Flag = True,
    moves: Flag = False,
    tags: Flag = True,
    pgnInJson: Flag = False,
) -> Response:
    """The games of whoever calls (a browser's cookie identity, an account or a token): as
    ``/api/games/user/{username}``, newest first, ongoing ones too by default. An anonymous
    player is no user, so this is how its "my games" list is read."""
    wanted = GameFilter(player_id=who.identity.id, finished=finished, ongoing=ongoing, max=max)
    limit(services, "stream", who, request)
    pages = exports.player_games(services.games.sessions, wanted)
    return multi_game_response(request, pages, moves, tags, pgnInJson)


@lichess_router.post(
    "/api/games/export/_ids",
    response_class=NDJSONResponse,
    responses=MULTI_RESPONSES,
    openapi_extra=text_body("O75tVZD5,Qa7FJNk2"),
    summary="Export games by their ids",
)
async def export_by_ids(
    request: Request,
    who: Anyone,
    services: ServicesDep,
    moves: Flag = True,
    tags: Flag = True,
    pgnInJson: Flag = False,
) -> Response:
    """Up to 300 game ids, separated by commas, as the body (text); unknown ids are left
    out. NDJSON with ``Accept: application/x-ndjson``, else text records."""
    ids = await read_list(request, "game ids", MAX_IDS, 12)
    limit(services, "stream", who, request)

    async def pages() -> Pages:
        yield await exports.games_by_ids(services.games.sessions, ids)

    return multi_game_response(request, pages(), moves, tags, pgnInJson)
