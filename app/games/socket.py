"""The game page's WebSocket (players and spectators); the lobby's is in app/lobby/sockets.py,
the other pages' in app/web/socket.py, what they share in app/http/connections.py.

Protocol: docs/protocol.md. Every server message carries ``ply``; the first is the full
``state``; a client that sees a gap asks ``{"type": "resync"}``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import logging
from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.chat import protocol as chatprotocol
from app.core.errors import ServiceError
from app.core.jsontext import json_text
from app.db.models import GameRow
from app.domain.enums import GameStatus
from app.domain.events import ChatHidden, ChatPosted, DrawDeclined
from app.games import GameService, Identity
from app.games.inorder import InOrder
from app.games.viewer import Viewer, view_of
from app.http.connections import (
    SERVER_RESTARTING,
    Connection,
    admitted,
    json_message,
    serve,
)
from app.http.deps import Services, get_services
from app.http.identity import COOKIE
from app.realtime.hub import CLOSING, RESYNC
from app.realtime.messages import GameUpdate, RatingsChanged
from app.realtime.presence import PresenceChanged
from app.web.following import follow

log = logging.getLogger(__name__)
router = APIRouter()

CLIENT_TYPES = (
    "move", "resign", "draw", "takeback", "abort", "claim", "rematch", "chat", "resync", "ping",
)  # fmt: skip
# Rate-limited as the HTTP API's moves (the "move" bucket) and chat lines (its "chat"
# bucket); the other types by "socket".
ACTIONS = ("move", "resign", "draw", "takeback", "abort", "claim", "rematch")
BUCKETS = {**dict.fromkeys(ACTIONS, "move"), "chat": "chat"}


def _error(code: str, message: str, ply: int | None, **extra: Any) -> dict[str, Any]:
    return {"type": "error", "code": code, "error": message, "ply": ply, **extra}


@router.websocket("/ws/game/{game_id}")
async def game_socket(ws: WebSocket, game_id: str) -> None:
    async with admitted(ws) as address:
        if address is not None:
            await _game_socket(ws, game_id, address)


async def _game_socket(ws: WebSocket, game_id: str, address: str) -> None:
    services = get_services(ws)
    service = services.games
    who = await services.identities.read_checked(
        ws.cookies.get(COOKIE), services.accounts.session_gens
    )
    await ws.accept()
    conn = Connection(ws)
    order = InOrder(conn)
    try:
        async with view_of(services, game_id, who) as (viewer, game):
            # Following before the state goes out: a game of ``who`` that starts once the
            # page has its state is told to it (as the lobby and site sockets do).
            with follow(services, who, conn, shown=game.id):
                await _send_state(order, service, game, who)
                await conn.send(await chatprotocol.history_text(services, game, who))
                await serve(
                    read=_read(order, services, game.id, who, address),
                    write=_forward(order, viewer, who),
                )
    except WebSocketDisconnect:
        pass
    except ServiceError as exc:  # no such game (the view's one read)
        with contextlib.suppress(WebSocketDisconnect):
            await conn.send_json(_error(exc.code, exc.message, None))
            await conn.close(4404)


async def _send_state(
    order: InOrder,
    service: GameService,
    game: GameRow | str,
    who: Identity | None,
    *,
    me: bool = True,
) -> GameRow:
    """The ``state`` message (``StateMessage``) of ``game`` (read before, with nothing sent
    since), or of the game read now; ``me``: the viewer and invite of a (re)connection, else
    as a change's ``state`` is told to everyone. Sent in ply order (app/games/inorder.py)."""
    given = None if isinstance(game, str) else game
    game_id = game if isinstance(game, str) else game.id
    shown = given

    async def read() -> tuple[int, str]:
        nonlocal given, shown
        row = given if given is not None else await service.reads.get(game_id)
        given, shown = None, row  # a second read (overtaken by a newer message) reads anew
        # Made from the state's text (kept for a crowd joining one game): the same JSON.
        text = f'{{"type":"state","ply":{row.ply},"game":{await service.reads.state_text(row)}'
        if me:
            viewer = None if who is None else {"id": who.id, "name": who.name}
            text += f',"me":{json.dumps(viewer, separators=(",", ":"), ensure_ascii=False)}'
            if who is not None and who.id == row.creator_id and row.status == GameStatus.CREATED:
                text += f',"invite":{json.dumps(row.invite_token)}'
        return row.ply, text + "}"

    await order.fresh_state(read)
    assert shown is not None
    return shown


async def _send_again(
    order: InOrder, services: Services, game_id: str, who: Identity | None
) -> None:
    """The whole truth again (a resync): the ``state``, then the kept chat lines (a line
    told while the socket was behind may have been lost with the rest)."""
    game = await _send_state(order, services.games, game_id, who)
    await order.conn.send(await chatprotocol.history_text(services, game, who))


async def _forward(order: InOrder, viewer: Viewer, who: Identity | None) -> None:
    conn = order.conn
    while True:
        message = await viewer.next()
        if message is RESYNC:
            await _send_again(order, viewer.services, viewer.game_id, who)
        elif message is CLOSING:
            await conn.close(SERVER_RESTARTING)  # the server is shutting down
            return
        elif isinstance(message, GameUpdate):
            await _send_update(order, viewer, who, message)
        elif isinstance(message, PresenceChanged):
            if order.at_least(message.ply) != message.ply:
                message = dataclasses.replace(message, ply=order.at_least(message.ply))
            await conn.send(presence_text(message))
        elif isinstance(message, ChatPosted):
            await conn.send(chatprotocol.chat_text(message))
        elif isinstance(message, ChatHidden):
            await conn.send(chatprotocol.hidden_text(message))
        elif isinstance(message, RatingsChanged):
            ply = order.at_least(message.ply)
            assert ply is not None
            await conn.send(ratings_text(dataclasses.replace(message, ply=ply)))


async def _send_update(
    order: InOrder, viewer: Viewer, who: Identity | None, update: GameUpdate
) -> None:
    """A change, in ply order: a move the client has already is dropped, and a ``state``
    older than what was sent (told late by another instance, or a takeback's) becomes the
    game read now."""
    text = update.encoded("ws", update_text)
    if update.state is None and update.move is not None:
        sent = await order.move(update.ply, text)
    else:
        sent = await order.published_state(update.ply, text)
        if not sent:
            await _send_state(order, viewer.services.games, viewer.game_id, who, me=False)
    declined = update.encoded("ws-declined", declined_text)
    if sent and declined:
        await order.conn.send(declined)


def _text(data: Mapping[str, Any]) -> str:
    return json_text(data)


def update_text(update: GameUpdate) -> str:
    """A change as the browser protocol says it: a ``move`` (the move and the live state),
    else the whole ``state``."""
    move = update.move
    if update.state is None and move is not None:
        return _text({"type": "move", "move": move.move, **update.live})
    state = update.state if update.state is not None else update.live
    return _text({"type": "state", "ply": update.ply, "game": state})


def declined_text(update: GameUpdate) -> str:
    """``drawDeclined`` after the change that declined a draw offer (an answer, or the move
    of the player it was offered to), so that its maker is told; else nothing."""
    declined = next((e for e in update.events if isinstance(e, DrawDeclined)), None)
    if declined is None:
        return ""
    return _text({"type": "drawDeclined", "ply": update.ply, "by": declined.by})


@functools.lru_cache(maxsize=1024)  # one text per message, not one per socket of a crowd
def presence_text(message: PresenceChanged) -> str:
    online = {"first": message.first, "second": message.second}
    gone = {"first": message.first_gone_since, "second": message.second_gone_since}
    data = {"type": "presence", "ply": message.ply, "online": online}
    return _text({**data, "spectators": message.spectators, "goneSince": gone})


def ratings_text(message: RatingsChanged) -> str:
    return _text({"type": "ratings", "ply": message.ply, "ratings": message.ratings})


def _message(raw: str | None, limit: int) -> dict[str, Any]:
    """A client message read from a text frame, its type checked; or ServiceError."""
    data = json_message(raw, limit)
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise ServiceError(
            "request.unknown_type",
            f"unknown message type {kind!r} (known: {', '.join(CLIENT_TYPES)})",
        )
    return data


async def _read(
    order: InOrder, services: Services, game_id: str, who: Identity | None, address: str
) -> None:
    conn = order.conn
    service = services.games
    limit = services.settings.max_message_bytes
    # The same subject as the HTTP API's for a cookie player: one budget over both ways in.
    subject = f"player:{who.id}" if who is not None else f"socket:{id(conn)}"
    while True:
        frame = await conn.ws.receive()
        if frame["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(frame.get("code", 1000))
        refused: ServiceError | None = None
        try:
            data = _message(frame.get("text"), limit)
        except ServiceError as exc:
            data, refused = {}, exc
        kind = str(data.get("type"))
        # Every message costs a token before any work is done for it (a resync, and any
        # error reply, reads the game): actions from the bucket of the HTTP API's moves.
        bucket = BUCKETS.get(kind, "socket") if who is not None else "socket"
        try:
            services.limits.hit(bucket, subject, address, game_id)
        except ServiceError as exc:
            # The ply known here, not read: a flood of refusals costs no database work.
            known = order.at_least(services.presence.ply.get(game_id))
            await conn.send_json(_error(exc.code, exc.message, known, **exc.extra))
            continue
        ply: int | None = None
        try:
            if refused is not None:
                raise refused
            if kind == "ping":
                known = order.at_least(services.presence.ply.get(game_id))
                await conn.send_json({"type": "pong", "ply": known})
                continue
            if kind == "resync":
                await _send_again(order, services, game_id, who)
                continue
            if kind == "chat":
                await chatprotocol.write(services, who, game_id, data)
                continue
            if who is None:
                raise ServiceError("game.not_player", "you are not playing in this game", 403)
            if kind == "rematch":
                await _rematch(services, who, game_id, data, conn.ws)
                continue
            await _act(service, who, game_id, kind, data)
        except ServiceError as exc:
            with contextlib.suppress(ServiceError):
                ply = (await service.reads.get(game_id)).ply
            await conn.send_json(_error(exc.code, exc.message, order.at_least(ply), **exc.extra))


async def _rematch(
    services: Services, who: Identity, game_id: str, data: dict[str, Any], ws: WebSocket
) -> None:
    action = data.get("action")
    if not isinstance(action, str):
        raise ServiceError("request.invalid", "a rematch message needs 'action'")
    # The address a rematch challenge's links give (the socket's, as http).
    base = str(ws.base_url).rstrip("/").replace("ws", "http", 1)
    await services.rematches.act(who, game_id, action, base)


async def _act(
    service: GameService, who: Identity, game_id: str, kind: str, data: dict[str, Any]
) -> None:
    if kind == "move":
        move, ply = data.get("move"), data.get("ply")
        if not isinstance(move, str):
            raise ServiceError("request.invalid", "a move message needs 'move': a move text")
        if ply is not None and (not isinstance(ply, int) or isinstance(ply, bool)):
            raise ServiceError("request.invalid", "'ply' must be the number of moves seen")
        await service.play.move(who, game_id, move, ply)
    elif kind == "resign":
        await service.play.resign(who, game_id)
    elif kind == "abort":
        await service.play.abort(who, game_id)
    elif kind == "draw":
        action = data.get("action")
        if not isinstance(action, str):
            raise ServiceError("request.invalid", "a draw message needs 'action'")
        await service.play.draw(who, game_id, action)
    elif kind == "takeback":
        action = data.get("action")
        if not isinstance(action, str):
            raise ServiceError("request.invalid", "a takeback message needs 'action'")
        await service.play.takeback(who, game_id, action)
    elif kind == "claim":
        result = data.get("result")
        if not isinstance(result, str):
            raise ServiceError("request.invalid", "a claim message needs 'result'")
        await service.play.claim(who, game_id, result)
