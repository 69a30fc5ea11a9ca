"""``POST /api/board/seek``: an NDJSON request that waits for an opponent. With a
quick-pairing pool's game and clock it waits in that pool (app/matchmaking/boardseek.py);
else it pairs at once with a compatible public game of the lobby or opens one there
(app/challenges/seeks.py), and closing the request withdraws the seek.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from starlette.background import BackgroundTask

from app.botapi.bodies import SeekIn
from app.botapi.callers import board_player, limit
from app.botapi.eventlines import SeekLine
from app.botapi.gamestream import detach
from app.botapi.streams import KEEPALIVE, line, next_message
from app.challenges import seeks
from app.challenges.terms import MAX_LIMIT_SECONDS, Terms
from app.core.errors import ServiceError
from app.domain.enums import GameStatus
from app.games import ENDED, MIN_CLOCK_SECONDS, Identity
from app.http.auth import Caller, client_ip
from app.http.bodies import form_or_json, read_body
from app.http.deps import Services, ServicesDep
from app.http.responses import NDJSONResponse, json_errors, ndjson
from app.lobby import seekrange
from app.matchmaking.boardseek import open_pool_seek, seek_pool, wait_in_pool
from app.realtime.hub import CLOSING, RESYNC
from app.realtime.messages import GameUpdate, game_channel

router = APIRouter(prefix="/api", tags=["board"])


@router.post(
    "/board/seek",
    response_class=NDJSONResponse,
    responses={
        **ndjson(SeekLine, "keep-alive lines, then the game's id once paired"),
        **json_errors(409),  # game.too_many_open
    },
    openapi_extra=form_or_json(SeekIn),
    summary="Seek an opponent",
    tags=["board"],
)
async def seek(
    who: Annotated[Caller, Depends(board_player)], services: ServicesDep, request: Request
) -> NDJSONResponse:
    """With a quick-pairing pool's game and clock (``GET /api/pools``; standard rules, its
    own start, a random colour), waits in that pool (``rated``: an account's rated search,
    ``ratingRange``: the opponents accepted) until a pairing round makes the game. Else
    pairs at once with the oldest compatible public game of the lobby, or opens one there
    (browsers see it too). The request stays open until then: one line ``{"id": gameId}``
    and the end (both event streams get ``gameStart``). Closing the request withdraws the
    seek."""
    body = await read_body(request, SeekIn, lichess=True)
    seconds = None
    if body.time is not None:
        # Rounded to whole seconds, then in range: under half a second rounds to no clock at
        # all, and NaN or an infinity (Python's JSON reader takes them) cannot be rounded.
        seconds = round(body.time * 60) if math.isfinite(body.time * 60) else 0
        if not MIN_CLOCK_SECONDS <= seconds <= MAX_LIMIT_SECONDS:
            raise ServiceError(
                "clock.invalid",
                f"time must make {MIN_CLOCK_SECONDS} to {MAX_LIMIT_SECONDS} seconds"
                " (minutes, rounded to whole seconds)",
            )
    if body.time is not None and body.days is not None:
        raise ServiceError("request.invalid", "give time and increment, or days, not both")
    terms = Terms.asked(
        variant=body.variant,
        rules=body.rules,
        limit=seconds,
        increment=body.increment,
        days=body.days,
        color=body.color,
        rated=False,  # checked below: a pool's seek may be rated
        fen=body.fen,
        byoyomi=body.byoyomi,
        periods=body.periods,
    )
    pool = seek_pool(terms)
    if pool is not None:  # quick pairing: the request holds a pool entry until paired
        limit(services, "challenge", who, request)
        holder = await open_pool_seek(services, who.identity, pool, body.rated, body.ratingRange)
        return NDJSONResponse(
            wait_in_pool(services, holder), background=BackgroundTask(holder.close)
        )
    terms = terms.rated_as(body.rated)
    limit(services, "challenge", who, request)
    wanted = seekrange.parse(body.ratingRange)
    paired = await seeks.pair(services.challenges, who.identity, terms, wanted)
    if paired is not None:
        return NDJSONResponse(one_line({"id": paired.id}))
    address = client_ip(request)
    await services.open_games.check(address)
    game = await seeks.seek(services.challenges, who.identity, terms, wanted)
    services.open_games.add(address, game.id)
    return NDJSONResponse(
        wait_for_opponent(services, who.identity, game.id),
        background=BackgroundTask(withdraw, services, who.identity, game.id),
    )


async def one_line(data: dict[str, Any]) -> AsyncIterator[bytes]:
    yield line(data)


async def withdraw(services: Services, who: Identity, game_id: str) -> None:
    """The seeker left: cancel the open game if nobody took its seat."""
    with contextlib.suppress(ServiceError):
        game = await services.games.reads.get(game_id)
        if game.status == GameStatus.CREATED:
            await services.games.setup.cancel(who, game_id)


async def wait_for_opponent(
    services: Services, who: Identity, game_id: str
) -> AsyncIterator[bytes]:
    keepalive = services.settings.keepalive_seconds
    try:
        async with services.hub.subscribe(game_channel(game_id)) as sub:
            status = (await services.games.reads.get(game_id)).status  # joined before we listened?
            while status == GameStatus.CREATED:
                text = await next_message(sub, keepalive)
                if text is None:
                    yield KEEPALIVE
                    continue
                if text is CLOSING:
                    return  # the server is shutting down: the seek is withdrawn
                if text is RESYNC:
                    status = (await services.games.reads.get(game_id)).status
                elif isinstance(text, GameUpdate):
                    status = text.live["status"]
            if status not in ENDED:
                yield line({"id": game_id})
    finally:
        detach(withdraw(services, who, game_id))
