"""A TV channel's socket, ``/ws/tv/{channel}`` (docs/protocol.md): the lines of its feed
(app/tv/feed.py), one text message each, for the pages. A page holds a socket, not the NDJSON
response, as its other live parts do: a response that never ends keeps the page's network
busy for as long as it is open. The client sends nothing that is read (a ping is ignored)."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.botapi.streams import KEEPALIVE
from app.http.connections import Connection, admitted, serve, until_gone
from app.http.deps import get_services
from app.tv.feed import feed

router = APIRouter()

# The channel does not exist: the page stops asking (as the game socket's 4404).
UNKNOWN_CHANNEL = 4404


@router.websocket("/ws/tv/{channel}")
async def tv_socket(ws: WebSocket, channel: str) -> None:
    async with admitted(ws) as address:
        if address is None:
            return
        services = get_services(ws)
        await ws.accept()
        conn = Connection(ws)
        try:
            if channel not in services.tv.channels:
                await conn.close(UNKNOWN_CHANNEL)
                return

            async def write() -> None:
                async for chunk in feed(services, channel):
                    if chunk != KEEPALIVE:  # a socket needs none: the browser's pings
                        await conn.send(chunk.decode().rstrip("\n"))

            await serve(until_gone(ws), write())
        except WebSocketDisconnect:
            pass
