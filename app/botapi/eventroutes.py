"""The bot API's event stream (``/api/stream/event``: a player's games starting and ending,
challenges made and answered) and the list of bots online (docs/api.md). Streams are NDJSON
(one JSON object a line) with an empty line every ``keepalive_seconds``."""

from __future__ import annotations

import contextlib
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from sqlalchemy import or_, select
from starlette.background import BackgroundTask

import engine
from app.botapi.callers import limit, subject
from app.botapi.eventlines import EventLine, OnlineBotOut
from app.botapi.streams import KEEPALIVE, EventStream, line, next_message
from app.core.errors import ServiceError
from app.db.engine import uncancelled
from app.db.models import Game
from app.domain.enums import GameStatus
from app.games import Identity
from app.http.auth import Caller, caller
from app.http.deps import Services, ServicesDep
from app.http.responses import NDJSONResponse, base_url, ndjson
from app.realtime.hub import CLOSING, RESYNC
from app.realtime.messages import PlayerLine, player_channel

TOLD_LIMIT = 10_000  # events a stream remembers having told

router = APIRouter(prefix="/api", tags=["bot"])
EventCaller = caller()
PLAY_SCOPES = frozenset(("bot:play", "board:play", "challenge:read"))


@router.get(
    "/stream/event",
    response_class=NDJSONResponse,
    responses=ndjson(
        EventLine, "gameStart, gameFinish, challenge, challengeCanceled, challengeDeclined"
    ),
    summary="Stream your events",
)
async def stream_events(
    who: Annotated[Caller, Depends(EventCaller)],
    services: ServicesDep,
    request: Request,
    games: Annotated[
        str | None,
        Query(description="a bot's games, comma-separated (GET /api/bot/online); default all"),
    ] = None,
) -> NDJSONResponse:
    """On opening: a ``gameStart`` per game you are playing and a ``challenge`` per challenge
    waiting (sent or received); then every event as it happens. One stream per token at a
    time (a second one: 429 ``stream.event``). A token needs bot:play, board:play or
    challenge:read."""
    if who.token_id is not None and not who.scopes & PLAY_SCOPES:
        raise ServiceError(
            "token.scope",
            "the event stream needs one of the scopes bot:play, board:play, challenge:read",
            403,
            missing=sorted(PLAY_SCOPES),
        )
    chosen = engine.game_ids()
    if games is not None:
        chosen = tuple(g for g in engine.game_ids() if g in games.split(","))
        unknown = set(games.split(",")) - set(engine.game_ids())
        if unknown or not chosen:
            raise ServiceError(
                "game.unknown", f"games: choose among {', '.join(engine.game_ids())}", 400
            )
    limit(services, "stream", who, request)
    stream = EventStream(
        key=subject(who) if who.token_id else f"browser:{secrets.token_hex(8)}",
        player_id=who.identity.id,
        name=who.username or who.identity.name,
        title="BOT" if who.bot else None,
        games=chosen,
    )
    services.event_streams.open(stream, services.settings.keepalive_seconds)
    return NDJSONResponse(
        events(services, who, stream, base_url(request)),
        background=BackgroundTask(services.event_streams.close, stream),
    )


async def events(
    services: Services, who: Caller, stream: EventStream, base: str
) -> AsyncIterator[bytes]:
    keepalive = services.settings.keepalive_seconds
    stream.started = True
    # What this stream has told: an event published while the opening lines were read
    # (a game starting at that moment) is not told twice.
    told: OrderedDict[tuple[str, str], None] = OrderedDict()

    def fresh(data: dict[str, Any]) -> bool:
        item = data.get("game") or data.get("challenge") or {}
        key = (str(data.get("type")), str(item.get("id")))
        if key in told:
            return False
        told[key] = None
        if len(told) > TOLD_LIMIT:
            told.popitem(last=False)  # a stream may live for weeks: remember the recent only
        return True

    try:
        # An open event stream keeps its identity's seeks alive, as a page's socket does.
        async with (
            services.hub.subscribe(player_channel(who.identity.id)) as sub,
            _held(services.attendance.hold(who.identity.id)),
        ):
            for data in await uncancelled(opening_events(services, who.identity, base)):
                if fresh(data):
                    yield line(data)
            while True:
                message = await next_message(sub, keepalive)
                if message is None:
                    yield KEEPALIVE
                    continue
                if message is CLOSING:
                    return  # the server is shutting down: the bot reconnects
                if message is RESYNC:
                    found = await uncancelled(opening_events(services, who.identity, base))
                elif isinstance(message, PlayerLine):
                    found = [message.data]
                else:
                    continue
                for data in found:
                    if fresh(data):
                        yield line(data)
    finally:
        services.event_streams.close(stream)


@contextlib.asynccontextmanager
async def _held(held: contextlib.AbstractContextManager[None]) -> AsyncIterator[None]:
    with held:
        yield


async def opening_events(services: Services, who: Identity, base: str) -> list[dict[str, Any]]:
    """What a stream sends on opening: the games in play, then the challenges waiting."""
    async with services.games.sessions() as session:
        rows = (
            await session.execute(
                select(Game)
                .where(
                    Game.status == GameStatus.STARTED,
                    or_(Game.first_id == who.id, Game.second_id == who.id),
                )
                .order_by(Game.started_ms, Game.id)
            )
        ).scalars()
        playing = list(rows)
    out: list[dict[str, Any]] = []
    for game in playing:
        for player_id, data in await services.game_events.lines(game, "gameStart"):
            if player_id == who.id:
                out.append(data)
    received, sent = await services.challenges.pending(who.id)
    for challenge in received + sent:
        data = await services.challenges.to_json(challenge, base)
        out.append({"type": "challenge", "challenge": data})
    return out


@router.get(
    "/bot/online",
    response_class=NDJSONResponse,
    responses={200: {"description": "NDJSON: one line per bot", "model": OnlineBotOut}},
    summary="The bots online",
)
async def bots_online(
    services: ServicesDep,
    nb: Annotated[int, Query(ge=1, le=300, description="at most this many")] = 50,
) -> NDJSONResponse:
    """One line per BOT account with an event stream open (on this server instance), with
    the games it accepts."""

    async def lines() -> AsyncIterator[bytes]:
        for stream in services.event_streams.bots()[:nb]:
            yield line(
                {
                    "id": stream.player_id,
                    "username": stream.name,
                    "title": "BOT",
                    "bot": {"games": list(stream.games)},
                }
            )

    return NDJSONResponse(lines())
