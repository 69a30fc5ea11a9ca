"""The lobby's socket and the site socket of the other pages (docs/protocol.md).

Both tell their identity's new games (``gameStart``, app/web/following.py). The lobby socket
also sends the lobby's lists (app/lobby/feed.py) and reads quick pairing's messages
(app/matchmaking/socket.py); the site socket reads nothing (a ping keeps the connection open
through proxies)."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.botapi.gamestream import detach
from app.core.jsontext import json_text
from app.games.socket import Connection, admitted
from app.http.deps import get_services
from app.http.identity import COOKIE
from app.matchmaking.socket import PoolSearch, pool_message
from app.web.following import follow

router = APIRouter()


@router.websocket("/ws/lobby")
async def lobby_socket(ws: WebSocket) -> None:
    async with admitted(ws) as address:
        if address is not None:
            await _lobby_socket(ws, address)


async def _lobby_socket(ws: WebSocket, address: str) -> None:
    services = get_services(ws)
    who = services.identities.read(ws.cookies.get(COOKIE))
    await ws.accept()
    conn = Connection(ws)
    search = PoolSearch(services, conn.send, who, address)
    try:
        # The feed sends (the whole lists, then changes); this task only reads, until the
        # client leaves: quick pairing's messages (app/matchmaking/socket.py), nothing else.
        # Following from before the first message: whoever got the lists hears a game that
        # starts after them.
        with follow(services, who, conn):
            async with services.lobby.watch(conn.send):
                limit = services.settings.max_message_bytes
                while (frame := await ws.receive())["type"] != "websocket.disconnect":
                    data = pool_message(frame.get("text"), limit)
                    if data is not None:
                        await search.handle(data)
    except WebSocketDisconnect:
        pass
    finally:
        # Leaving the page leaves the pool: detached, as the socket's task may be cancelled.
        detach(search.close())


@router.websocket("/ws/site")
async def site_socket(ws: WebSocket) -> None:
    async with admitted(ws) as address:
        if address is not None:
            await _site_socket(ws)


async def _site_socket(ws: WebSocket) -> None:
    services = get_services(ws)
    who = services.identities.read(ws.cookies.get(COOKIE))
    await ws.accept()
    conn = Connection(ws)
    try:
        with follow(services, who, conn):
            # Once following: a gameStart from now on reaches this socket.
            me = None if who is None else {"id": who.id, "name": who.name}
            await conn.send(json_text({"type": "site", "me": me}))
            await _until_gone(ws)
    except WebSocketDisconnect:
        pass


async def _until_gone(ws: WebSocket) -> None:
    while (await ws.receive())["type"] != "websocket.disconnect":
        pass
