"""The lichess-style bot and board API's game routes: game streams, game actions and chat
(docs/api.md); the event stream and the bots online are in eventroutes.py.

``/api/bot/...`` is for BOT accounts (scope ``bot:play``), ``/api/board/...`` the same
routes for anyone else playing through a program (scope ``board:play``). Streams are NDJSON
(one JSON object a line) with an empty line every ``keepalive_seconds``.
"""

# No ``from __future__ import annotations`` here: FastAPI must resolve the annotations of the
# routes made inside game_routes(), whose caller type is local to it.
import logging
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request

from app.botapi import exports
from app.botapi.bodies import ChatIn
from app.botapi.callers import board_player, bot_player, limit
from app.botapi.eventlines import ChatOut
from app.botapi.gamejson import game_full
from app.botapi.gamestream import follow
from app.botapi.models import DoneOut, GameStreamLine
from app.chat import service as chat_rules
from app.core.errors import ServiceError
from app.db.models import GameRow
from app.domain.enums import ChatRoom, GameStatus
from app.games.state import GameState
from app.http.auth import Caller
from app.http.bodies import form_or_json, read_body
from app.http.deps import Services, ServicesDep
from app.http.responses import NDJSONResponse, errors, ndjson

log = logging.getLogger(__name__)
TOLD_LIMIT = 10_000


async def player_game_stream(
    services: Services, who: Caller, game_id: str, request: Request
) -> NDJSONResponse:
    limit(services, "stream", who, request)
    game = await services.games.reads.get(game_id)
    side = services.games.reads.seat_of(game, who.identity.id)
    if side is None:
        raise ServiceError("game.not_player", "you are not playing in this game", 403)

    async def first(game: GameRow, state: GameState) -> dict[str, Any]:
        context = await exports.context_of(services.games.sessions, [game])
        return game_full(game, state, state["moves"], context.players, context.days(game))

    return NDJSONResponse(follow(services, game_id, side, first, who.identity))


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
        limit(services, "move", who, request, game_id)
        game = await services.games.play.move(who.identity, game_id, move)
        if offeringDraw and game.status == GameStatus.STARTED:
            await services.games.play.draw(who.identity, game_id, "offer")
        return DoneOut()

    @router.post(
        "/game/{game_id}/abort", response_model=DoneOut, responses=ACTION_ERRORS, summary="Abort"
    )
    async def abort(game_id: str, who: Who, services: ServicesDep, request: Request) -> DoneOut:
        """Allowed until both players have moved."""
        limit(services, "move", who, request, game_id)
        await services.games.play.abort(who.identity, game_id)
        return DoneOut()

    @router.post(
        "/game/{game_id}/resign", response_model=DoneOut, responses=ACTION_ERRORS, summary="Resign"
    )
    async def resign(game_id: str, who: Who, services: ServicesDep, request: Request) -> DoneOut:
        limit(services, "move", who, request, game_id)
        await services.games.play.resign(who.identity, game_id)
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
        limit(services, "move", who, request, game_id)
        await services.games.play.draw(who.identity, game_id, action)
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
            limit(services, "move", who, request, game_id)
            await services.games.play.takeback(who.identity, game_id, action)
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
        limit(services, "move", who, request, game_id)
        await services.games.play.claim(who.identity, game_id, "victory")
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
        limit(services, "move", who, request, game_id)
        await services.games.play.claim(who.identity, game_id, "draw")
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
        game = await services.games.reads.get(game_id)
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
        game = await services.games.reads.get(game_id)
        chat_rules.require_player(game, who.identity)
        return [
            ChatOut.model_validate(
                {"room": r.room, "user": r.username, "text": r.text, "createdAt": r.created_ms}
            )
            for r in (await services.chat.delivery.reader(who.identity)).visible(
                await services.chat.lines(game_id)
            )
        ]

    return router


bot_router = game_routes("bot", bot_player)
board_router = game_routes("board", board_player)


__all__ = ["board_router", "bot_router"]
