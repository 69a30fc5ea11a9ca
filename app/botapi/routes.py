"""The lichess-style bot and board API: the event stream, game streams, game actions, chat,
and the list of bots online (docs/api.md).

``/api/bot/...`` is for BOT accounts (scope ``bot:play``), ``/api/board/...`` the same
routes for anyone else playing through a program (scope ``board:play``). Streams are NDJSON
(one JSON object a line) with an empty line every ``keepalive_seconds``.
"""

# No ``from __future__ import annotations`` here: FastAPI must resolve the annotations of the
# routes made inside game_routes(), whose caller type is local to it.
import contextlib
import logging
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from sqlalchemy import or_, select
from starlette.background import BackgroundTask

import engine
from app.botapi import exports
from app.botapi.callers import board_player, bot_player, limit, subject
from app.botapi.gamestream import follow
from app.botapi.models import (
    ChatIn,
    ChatOut,
    DoneOut,
    EventLine,
    GameStreamLine,
    OnlineBotOut,
)
from app.botapi.streams import KEEPALIVE, EventStream, game_full, line, next_message
from app.chat import service as chat_rules
from app.core.errors import ServiceError
from app.db.engine import uncancelled
from app.db.models import Game
from app.domain.enums import ChatRoom, GameStatus
from app.games import Identity
from app.games.state import GameState
from app.http.auth import Caller, caller
from app.http.bodies import form_or_json, read_body
from app.http.deps import Services, ServicesDep
from app.http.responses import NDJSONResponse, base_url, errors, ndjson
from app.realtime.hub import CLOSING, RESYNC
from app.realtime.messages import PlayerLine, player_channel

log = logging.getLogger(__name__)
TOLD_LIMIT = 10_000


async def player_game_stream(
    services: Services, who: Caller, game_id: str, request: Request
) -> NDJSONResponse:
    limit(services, "stream", who, request)
    game = await services.games.get(game_id)
    side = services.games.seat_of(game, who.identity.id)
    if side is None:
        raise ServiceError("game.not_player", "you are not playing in this game", 403)

    async def first(game: Game, state: GameState) -> dict[str, Any]:
        context = await exports.context_of(services.games.sessions, [game])
        return game_full(game, state, state["moves"], context.players, context.days(game))

    return NDJSONResponse(follow(services, game_id, side, first))


# ---- the game routes, for /api/bot and /api/board -------------------------------------------
YES_NO = {"yes": "offer", "true": "offer", "no": "decline", "false": "decline"}


def offer_or_decline(what: str, accept: str) -> str:
    """lichess's ``{what}/{yes|no}`` answer as the service's action (400 otherwise)."""
    action = YES_NO.get(accept)
    if action is None:
        raise ServiceError("request.invalid", f"{what}/{accept}: say yes or no")
    return action


def game_routes(kind: str, who_dependency: Callable[..., Awaitable[Caller]]) -> APIRouter:
    router = APIRouter(prefix=f"/api/{kind}", tags=[kind])
    Who = Annotated[Caller, Depends(who_dependency)]
    ACTION_ERRORS = errors(400, 401, 403, 404, 409, 429)
    MOVE_ERRORS = errors(400, 401, 403, 404, 409, 422, 429)  # 422: move.illegal

    @router.get(
        "/game/stream/{game_id}",
        response_class=NDJSONResponse,
        responses=ndjson(GameStreamLine, "gameFull, then gameState, chatLine, opponentGone"),
        summary="Stream a game you play",
    )
    async def stream_game(
        game_id: str, who: Who, services: ServicesDep, request: Request
    ) -> NDJSONResponse:
        """First line ``gameFull``; then ``gameState`` after every change, ``chatLine``,
        ``opponentGone``. Ends after the final ``gameState`` once the game is over."""
        return await player_game_stream(services, who, game_id, request)

    @router.post(
        "/game/{game_id}/move/{move}",
        response_model=DoneOut,
        responses=MOVE_ERRORS,
        summary="Make a move",
    )
    async def make_move(
        game_id: str,
        move: str,
        who: Who,
        services: ServicesDep,
        request: Request,
        offeringDraw: Annotated[bool, Query(description="offer a draw with the move")] = False,
    ) -> DoneOut:
        """The move in our canonical text (docs/notation.md), one of ``legalMoves``."""
        limit(services, "move", who, request)
        game = await services.games.move(who.identity, game_id, move)
        if offeringDraw and game.status == GameStatus.STARTED:
            await services.games.draw(who.identity, game_id, "offer")
        return DoneOut()

    @router.post(
        "/game/{game_id}/abort", response_model=DoneOut, responses=ACTION_ERRORS, summary="Abort"
    )
    async def abort(game_id: str, who: Who, services: ServicesDep, request: Request) -> DoneOut:
        """Allowed until both players have moved."""
        limit(services, "move", who, request)
        await services.games.abort(who.identity, game_id)
        return DoneOut()

    @router.post(
        "/game/{game_id}/resign", response_model=DoneOut, responses=ACTION_ERRORS, summary="Resign"
    )
    async def resign(game_id: str, who: Who, services: ServicesDep, request: Request) -> DoneOut:
        limit(services, "move", who, request)
        await services.games.resign(who.identity, game_id)
        return DoneOut()

    @router.post(
        "/game/{game_id}/draw/{accept}",
        response_model=DoneOut,
        responses=ACTION_ERRORS,
        summary="Offer, accept or decline a draw",
    )
    async def draw(
        game_id: str, accept: str, who: Who, services: ServicesDep, request: Request
    ) -> DoneOut:
        """``yes``: offer a draw, or accept the opponent's offer; ``no``: decline it."""
        action = offer_or_decline("draw", accept)
        limit(services, "move", who, request)
        await services.games.draw(who.identity, game_id, action)
        return DoneOut()

    if kind == "board":  # lichess's bot API has no takebacks: a bot plays on

        @router.post(
            "/game/{game_id}/takeback/{accept}",
            response_model=DoneOut,
            responses=ACTION_ERRORS,
            summary="Propose, accept or decline a takeback",
        )
        async def takeback(
            game_id: str, accept: str, who: Who, services: ServicesDep, request: Request
        ) -> DoneOut:
            """Casual games only. ``yes``: propose a takeback, or accept the opponent's
            proposal; ``no``: decline it, or withdraw your own. Accepted, the proposer's last
            move and any move after it are taken back: the proposer is to move again."""
            action = offer_or_decline("takeback", accept)
            limit(services, "move", who, request)
            await services.games.takeback(who.identity, game_id, action)
            return DoneOut()

    @router.post(
        "/game/{game_id}/claim-victory",
        response_model=DoneOut,
        responses=ACTION_ERRORS,
        summary="Claim victory when the opponent has left",
    )
    async def claim_victory(
        game_id: str, who: Who, services: ServicesDep, request: Request
    ) -> DoneOut:
        """Once the opponent has been gone for the grace period (see ``opponentGone``)."""
        limit(services, "move", who, request)
        await services.games.claim(who.identity, game_id, "victory")
        return DoneOut()

    @router.post(
        "/game/{game_id}/claim-draw",
        response_model=DoneOut,
        responses=ACTION_ERRORS,
        summary="Claim a draw when the opponent has left",
    )
    async def claim_draw(
        game_id: str, who: Who, services: ServicesDep, request: Request
    ) -> DoneOut:
        limit(services, "move", who, request)
        await services.games.claim(who.identity, game_id, "draw")
        return DoneOut()

    @router.post(
        "/game/{game_id}/chat",
        response_model=DoneOut,
        responses=ACTION_ERRORS,
        summary="Write in the game's chat",
        openapi_extra=form_or_json(ChatIn),
    )
    async def chat(game_id: str, who: Who, services: ServicesDep, request: Request) -> DoneOut:
        """``room``: ``player`` (the two players) or ``spectator``; ``text``: plain text,
        at most 140 characters."""
        body = await read_body(request, ChatIn)
        text = chat_rules.clean(body.text)
        game = await services.games.get(game_id)
        chat_rules.require_player(game, who.identity)
        limit(services, "chat", who, request)
        room = ChatRoom(body.room)
        await services.chat.post(game, who.identity, room, text, services.games.now())
        return DoneOut()

    @router.get(
        "/game/{game_id}/chat",
        response_model=list[ChatOut],
        responses=errors(401, 403, 404),
        summary="The game's chat so far",
    )
    async def read_chat(game_id: str, who: Who, services: ServicesDep) -> list[ChatOut]:
        game = await services.games.get(game_id)
        chat_rules.require_player(game, who.identity)
        return [
            ChatOut.model_validate(
                {"room": r.room, "user": r.username, "text": r.text, "createdAt": r.created_ms}
            )
            for r in await services.chat.lines(game_id)
        ]

    return router


bot_router = game_routes("bot", bot_player)
board_router = game_routes("board", board_player)

# ---- the event stream and the bots online ----------------------------------------------------
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
    chosen = engine.GAMES
    if games is not None:
        chosen = tuple(g for g in engine.GAMES if g in games.split(","))
        unknown = set(games.split(",")) - set(engine.GAMES)
        if unknown or not chosen:
            raise ServiceError(
                "game.unknown", f"games: choose among {', '.join(engine.GAMES)}", 400
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


__all__ = ["NDJSONResponse", "board_router", "bot_router", "follow", "router"]
