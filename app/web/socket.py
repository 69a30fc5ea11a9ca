"""The site socket of every page but the game's and the lobby's (docs/protocol.md): it tells
its identity's new games (``gameStart``, following.py) and reads nothing (a ping keeps the
connection open through proxies)."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.core.jsontext import json_text
from app.http.connections import Connection, admitted, until_gone
from app.http.deps import get_services
from app.http.identity import COOKIE
from app.web.following import follow

router = APIRouter()


@router.websocket("/ws/site")
async def site_socket(ws: WebSocket) -> None:
    async with admitted(ws) as address:
        if address is not None:
            await _site_socket(ws)


async def _site_socket(ws: WebSocket) -> None:
    services = get_services(ws)
    who = await services.identities.read_checked(
        ws.cookies.get(COOKIE), services.accounts.session_gens
    )
    await ws.accept()
    conn = Connection(ws)
    try:
        with follow(services, who, conn):
            # Once following: a gameStart from now on reaches this socket.
            me = None if who is None else {"id": who.id, "name": who.name}
            await conn.send(json_text({"type": "site", "me": me}))
            await until_gone(ws)
    except WebSocketDisconnect:
        pass
