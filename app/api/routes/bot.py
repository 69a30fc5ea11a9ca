"""The lichess-style bot and board API: the event stream, game streams, game actions, chat,
and the list of bots online (docs/api.md).

``/api/bot/...`` is for BOT accounts (scope ``bot:play``), ``/api/board/...`` the same
routes for anyone else playing through a program (scope ``board:play``). Streams are NDJSON
(one JSON object a line) with an empty line every ``keepalive_seconds``.
"""

# No ``from __future__ import annotations`` here: FastAPI must resolve the annotations of the
# routes made inside game_routes(), whose caller type is local to it.
import asyncio
import json
import logging
import math
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel
from sqlalchemy import or_, select
from starlette.background import BackgroundTask

import engine

from ...db import uncancelled
from ...models import ChatLine, Game
from ...realtime.hub import CLOSING, RESYNC
from ...schemas import ErrorOut
from ...services import exports
from ...services.errors import ServiceError
from ...services.games import ENDED, Identity, game_channel, other
from ...services.streams import (
    KEEPALIVE,
    EventStream,
    game_full,
    game_state,
    line,
    next_message,
    player_channel,
)
from ..auth import Caller, caller, client_ip
from ..bodies import form_or_json, read_body
from ..botmodels import (
    ChatIn,
    ChatOut,
    DoneOut,
    EventLine,
    GameStreamLine,
    OnlineBotOut,
)
from ..deps import Services, ServicesDep

log = logging.getLogger(__name__)
CHAT_MAX = 140
TOLD_LIMIT = 10_000
_detached: set[asyncio.Task[None]] = set()


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": ErrorOut} for code in codes}


class NDJSONResponse(StreamingResponse):
    media_type = "application/x-ndjson"

    def __init__(
        self, content: AsyncIterator[bytes], status_code: int = 200, **kwargs: Any
    ) -> None:
        # No buffering by proxies (nginx) and no caching: every line matters at once.
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        super().__init__(content, status_code=status_code, headers=headers, **kwargs)


def ndjson(model: type[BaseModel], what: str) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI description of an NDJSON answer whose lines are ``model``."""
    return {
        200: {
            "description": f"NDJSON: {what}; an empty line every ~7 s keeps it open",
            "model": model,
        },
        **json_errors(400, 401, 403, 404, 429),
    }


def json_errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """Error answers of a route whose success is not JSON (they still are)."""
    schema = {"$ref": "#/components/schemas/ErrorOut"}
    return {
        code: {"description": "an error", "content": {"application/json": {"schema": schema}}}
        for code in codes
    }


def subject(who: Caller) -> str:
    return f"token:{who.token_id}" if who.token_id else f"player:{who.identity.id}"


def limit(services: Services, kind: str, who: Caller, request: Request) -> None:
    services.limits.hit(kind, subject(who), client_ip(request))


def base_url(request: Request) -> str:
    return str(request.base_url).rstrip("/")


def detach(coroutine: Awaitable[None]) -> None:
    """Run to its end even if the stream that started it is cancelled (a client gone)."""

    async def run() -> None:
        try:
            await coroutine
        except Exception:
            log.exception("background work of a stream failed")

    task = asyncio.get_running_loop().create_task(run())
    _detached.add(task)
    task.add_done_callback(_detached.discard)


# ---- who may call ----------------------------------------------------------------------------
BotCaller = caller("bot:play")
BoardCaller = caller("board:play")


async def bot_player(who: Annotated[Caller, Depends(BotCaller)]) -> Caller:
    if not who.bot:
        raise ServiceError(
            "bot.required",
            "this endpoint is for BOT accounts (POST /api/bot/account/upgrade); "
            "people playing through a program use /api/board/...",
            403,
        )
    return who


async def board_player(who: Annotated[Caller, Depends(BoardCaller)]) -> Caller:
    if who.bot:
        raise ServiceError("bot.forbidden", "a BOT account plays through /api/bot/...", 403)
    return who


# ---- following a game ------------------------------------------------------------------------
def grace_seconds(services: Services, ply: int, side: str) -> float:
    moved = ply >= (1 if side == "first" else 2)
    settings = services.settings
    return settings.gone_seconds if moved else settings.gone_unmoved_seconds


def opponent_gone(services: Services, game_id: str, side: str, ply: int) -> dict[str, Any]:
    gone_ms = services.presence.gone_for_ms(game_id, side) or 0
    left = grace_seconds(services, ply, side) * 1000 - gone_ms
    seconds = max(0, math.ceil(left / 1000))
    return {"type": "opponentGone", "gone": True, "claimWinInSeconds": seconds}


async def current_state(services: Services, game_id: str) -> dict[str, Any]:
    games = services.games
    return await games.state(await games.get(game_id))


async def follow(
    services: Services,
    game_id: str,
    side: str | None,
    first: Callable[[Game, dict[str, Any]], Awaitable[dict[str, Any]]],
) -> AsyncIterator[bytes]:
    """A game's lines: ``first(game, state)``, then a ``gameState`` per change, chat lines,
    and for a player (``side``) ``opponentGone``; ends after the game's final state.

    A player's open stream counts as that player being connected (presence, claims)."""
    presence = services.presence
    games = services.games
    keepalive = services.settings.keepalive_seconds
    joined = False
    try:
        async with services.hub.subscribe(game_channel(game_id)) as sub:
            # Subscribed before reading: no change can fall between the read and the stream.
            game = await uncancelled(games.get(game_id))
            presence.ply[game.id] = game.ply
            presence.join(game.id, side)
            joined = True
            await services.publish_presence(game.id)
            state = await uncancelled(games.state(game))
            moves: list[str] = list(state["moves"])
            yield line(await uncancelled(first(game, state)))
            if state["status"] in ENDED:
                return
            seen = (state["ply"], state["status"], state["drawOffer"], state["takebackOffer"])
            opponent = None if side is None else other(side)
            away = opponent is not None and not presence.online(game.id, opponent)
            if away and opponent is not None and state["status"] == "started":
                yield line(opponent_gone(services, game.id, opponent, state["ply"]))
            while True:
                text = await next_message(sub, keepalive)
                if text is None:
                    yield KEEPALIVE
                    continue
                if text == CLOSING:
                    return  # the server is shutting down: the client reconnects
                data = json.loads(text)
                kind = data.get("type")
                live: dict[str, Any] | None = None
                if kind == "move":
                    if data["ply"] <= len(moves):
                        continue  # already in the state sent
                    if data["ply"] == len(moves) + 1:
                        moves.append(data["move"])
                        live = data
                    else:
                        kind = "resync"  # a gap: read the whole state again
                if kind == "state":
                    live = data["game"]
                    moves = list(data["game"]["moves"])
                if kind == "resync" or text == RESYNC:
                    live = await uncancelled(current_state(services, game.id))
                    moves = list(live["moves"])
                if kind == "chat" and (side is not None or data.get("room") == "spectator"):
                    yield line(
                        {
                            "type": "chatLine",
                            "room": data["room"],
                            "username": data["username"],
                            "text": data["text"],
                        }
                    )
                if kind == "presence" and opponent is not None:
                    online = bool(data["online"][opponent])
                    if online == away:
                        away = not online
                        if away:
                            yield line(opponent_gone(services, game.id, opponent, len(moves)))
                        else:
                            yield line({"type": "opponentGone", "gone": False})
                if live is None:
                    continue
                now = (live["ply"], live["status"], live["drawOffer"], live["takebackOffer"])
                if kind == "state" and now == seen:
                    continue  # the same state again (sent while the stream opened)
                seen = now
                yield line(game_state(live, moves))
                if live["status"] in ENDED:
                    return
    finally:
        if joined:
            presence.leave(game_id, side)
            message = json.dumps(presence.message(game_id), separators=(",", ":"))
            presence.forget_if_idle(game_id)
            detach(services.publish_presence(game_id, message))


async def player_game_stream(
    services: Services, who: Caller, game_id: str, request: Request
) -> NDJSONResponse:
    limit(services, "stream", who, request)
    game = await services.games.get(game_id)
    side = services.games.seat_of(game, who.identity.id)
    if side is None:
        raise ServiceError("game.not_player", "you are not playing in this game", 403)

    async def first(game: Game, state: dict[str, Any]) -> dict[str, Any]:
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
        if offeringDraw and game.status == "started":
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
        await post_chat(services, who, game_id, body, request)
        return DoneOut()

    @router.get(
        "/game/{game_id}/chat",
        response_model=list[ChatOut],
        responses=errors(401, 403, 404),
        summary="The game's chat so far",
    )
    async def read_chat(game_id: str, who: Who, services: ServicesDep) -> list[ChatOut]:
        game = await services.games.get(game_id)
        if services.games.seat_of(game, who.identity.id) is None:
            raise ServiceError("game.not_player", "you are not playing in this game", 403)
        async with services.games.sessions() as session:
            rows = (
                await session.execute(
                    select(ChatLine).where(ChatLine.game_id == game_id).order_by(ChatLine.id)
                )
            ).scalars()
            return [
                ChatOut.model_validate(
                    {"room": r.room, "user": r.username, "text": r.text, "createdAt": r.created_ms}
                )
                for r in rows
            ]

    return router


async def post_chat(
    services: Services, who: Caller, game_id: str, body: ChatIn, request: Request
) -> None:
    text = body.text.strip()
    if not text or len(text) > CHAT_MAX:
        raise ServiceError("chat.invalid", f"a chat line has 1 to {CHAT_MAX} characters")
    if any(ord(c) < 32 for c in text):
        raise ServiceError("chat.invalid", "a chat line is one line of plain text")
    game = await services.games.get(game_id)
    if services.games.seat_of(game, who.identity.id) is None:
        raise ServiceError("game.not_player", "you are not playing in this game", 403)
    limit(services, "chat", who, request)
    entry = ChatLine(
        game_id=game_id,
        room=body.room,
        player_id=who.identity.id,
        username=who.identity.name,
        text=text,
        created_ms=services.games.now(),
    )
    async with services.games.sessions() as session, session.begin():
        session.add(entry)
    # "room" right after "type": the game sockets hide the players' room from spectators
    # by this prefix (app/api/ws.py).
    message = {
        "type": "chat",
        "room": body.room,
        "ply": game.ply,
        "username": who.identity.name,
        "text": text,
    }
    await services.hub.publish(
        game_channel(game_id), json.dumps(message, separators=(",", ":"), ensure_ascii=False)
    )


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
        async with services.hub.subscribe(player_channel(who.identity.id)) as sub:
            for data in await uncancelled(opening_events(services, who.identity, base)):
                if fresh(data):
                    yield line(data)
            while True:
                text = await next_message(sub, keepalive)
                if text is None:
                    yield KEEPALIVE
                    continue
                if text == CLOSING:
                    return  # the server is shutting down: the bot reconnects
                found = (
                    await uncancelled(opening_events(services, who.identity, base))
                    if text == RESYNC
                    else [json.loads(text)]
                )
                for data in found:
                    if fresh(data):
                        yield line(data)
    finally:
        services.event_streams.close(stream)


async def opening_events(services: Services, who: Identity, base: str) -> list[dict[str, Any]]:
    """What a stream sends on opening: the games in play, then the challenges waiting."""
    async with services.games.sessions() as session:
        rows = (
            await session.execute(
                select(Game)
                .where(
                    Game.status == "started",
                    or_(Game.first_id == who.id, Game.second_id == who.id),
                )
                .order_by(Game.started_ms, Game.id)
            )
        ).scalars()
        playing = list(rows)
    out: list[dict[str, Any]] = []
    for game in playing:
        for player_id, text in await services.game_events.lines(game, "gameStart"):
            if player_id == who.id:
                out.append(json.loads(text))
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
