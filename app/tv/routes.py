"""lichess's TV API: ``GET /api/tv/channels``, the feeds ``GET /api/tv/feed`` (the ``best``
channel) and ``GET /api/tv/{channel}/feed``, and a channel's best live games
``GET /api/tv/{channel}`` (as lichess's game export)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from app.botapi import exports
from app.botapi.callers import limit
from app.botapi.export import MULTI_RESPONSES, Anyone, Flag, Pages, multi_game_response
from app.core.errors import ServiceError
from app.http.deps import Services, ServicesDep
from app.http.responses import NDJSON, STREAM_REFUSALS, NDJSONResponse, json_errors
from app.tv.choice import BEST, LISTED
from app.tv.feed import feed

router = APIRouter(prefix="/api/tv", tags=["tv"])

FEED_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "a `featured` line, then a `fen` line per move; a `featured` line "
        "again each time the channel switches to another game",
        "content": {NDJSON: {"schema": {"type": "object"}}},
    },
    **json_errors(404),
    **STREAM_REFUSALS,
}


def _known(services: Services, channel: str) -> str:
    if channel not in services.tv.channels:
        raise ServiceError(
            "tv.channel_not_found",
            f"no TV channel {channel!r}: {', '.join(services.tv.channels)}",
            404,
        )
    return channel


@router.get("/channels", summary="Each TV channel's featured game (lichess's TV channels)")
async def channels(services: ServicesDep) -> dict[str, Any]:
    """``{channel: {user: {id, name, title}, rating, gameId, color}}``: for ``best`` and
    each game's channel showing a game, the player of the higher rating in it (``rating``
    only for an account)."""
    return await services.tv.channels_json()


@router.get(
    "/feed",
    response_class=NDJSONResponse,
    responses=FEED_RESPONSES,
    summary="Stream the best channel's featured game (lichess's TV feed)",
)
async def best_feed(who: Anyone, services: ServicesDep, request: Request) -> NDJSONResponse:
    """The ``best`` channel's feed: the highest-rated live game of any game, and the next
    best when it ends. Counts as opening a stream in the rate limits."""
    limit(services, "stream", who, request)
    return NDJSONResponse(feed(services, BEST))


@router.get(
    "/{channel}/feed",
    response_class=NDJSONResponse,
    responses=FEED_RESPONSES,
    summary="Stream a TV channel's featured game",
)
async def channel_feed(
    channel: str, who: Anyone, services: ServicesDep, request: Request
) -> NDJSONResponse:
    """A channel's feed: ``best`` or a game's id (``dobutsu``...)."""
    known = _known(services, channel)
    limit(services, "stream", who, request)
    return NDJSONResponse(feed(services, known))


@router.get(
    "/{channel}",
    response_class=NDJSONResponse,
    responses=MULTI_RESPONSES,
    summary="A TV channel's best live games (lichess's best ongoing games)",
)
async def best_games(
    channel: str,
    request: Request,
    who: Anyone,
    services: ServicesDep,
    nb: Annotated[int, Query(ge=1, le=LISTED, description="how many games")] = 10,
    moves: Flag = True,
    tags: Flag = True,
    pgnInJson: Flag = False,
) -> Response:
    """The channel's live games, best first, exported as ``/api/games/user/{username}``
    exports them (NDJSON with ``Accept: application/x-ndjson``, else text records)."""
    ids = services.tv.best(_known(services, channel), nb)
    limit(services, "stream", who, request)

    async def pages() -> Pages:
        yield await exports.games_by_ids(services.games.sessions, ids)

    return multi_game_response(request, pages(), moves, tags, pgnInJson)
