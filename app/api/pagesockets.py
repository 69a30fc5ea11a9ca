"""The lobby's socket and the site socket of the other pages (docs/protocol.md).

Neither reads what a client sends (a ping keeps the connection open through proxies); both
tell their identity's new games (``gameStart``, app/api/following.py). The lobby socket also
sends the lobby's lists (app/services/lobby.py)."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ..identity import COOKIE
from ..jsontext import json_text
from .deps import Services
from .following import follow
from .ws import Connection, admitted

router = APIRouter()


@router.websocket("/ws/lobby")
async def lobby_socket(ws: WebSocket) -> None:
    async with admitted(ws) as address:
        if address is not None:
            await _lobby_socket(ws)


async def _lobby_socket(ws: WebSocket) -> None:
    services: Services = ws.app.state.services
    who = services.identities.read(ws.cookies.get(COOKIE))
    await ws.accept()
    conn = Connection(ws)
    try:
        # The feed sends (the whole lists, then changes); this task only reads, until the
        # client leaves. Following from before the first message: whoever got the lists
        # hears a game that starts after them.
        with follow(services, who, conn):
            async with services.lobby.watch(conn.send):
                await _until_gone(ws)
    except WebSocketDisconnect:
        pass


@router.websocket("/ws/site")
async def site_socket(ws: WebSocket) -> None:
    async with admitted(ws) as address:
        if address is not None:
            await _site_socket(ws)


async def _site_socket(ws: WebSocket) -> None:
    services: Services = ws.app.state.services
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
