"""The lobby's socket (docs/protocol.md): it tells its identity's new games (``gameStart``,
app/web/following.py), as the other pages' site socket (app/web/socket.py) does, sends the
lobby's lists (app/lobby/feed.py) and reads quick pairing's messages
(app/matchmaking/search.py)."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.botapi.gamestream import detach
from app.http.connections import Connection, admitted
from app.http.deps import get_services
from app.http.identity import COOKIE
from app.matchmaking.search import PoolSearch, pool_message
from app.web.following import follow

router = APIRouter()


@router.websocket("/ws/lobby")
async def lobby_socket(ws: WebSocket) -> None:
    async with admitted(ws) as address:
        if address is not None:
            await _lobby_socket(ws, address)


async def _lobby_socket(ws: WebSocket, address: str) -> None:
    services = get_services(ws)
    who = await services.identities.read_checked(
        ws.cookies.get(COOKIE), services.accounts.session_gens
    )
    await ws.accept()
    conn = Connection(ws)
    search = PoolSearch(services, conn.send, who, address)
    try:
        # The feed sends (the whole lists, then changes); this task only reads, until the
        # client leaves: quick pairing's messages (app/matchmaking/search.py), nothing else.
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
