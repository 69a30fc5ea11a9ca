"""What every WebSocket of the site shares (the game, lobby and site sockets): a
``Connection`` that serialises sends, the per-address cap on open sockets (``admitted``),
and reading the client's text frames as JSON messages."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Coroutine
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from websockets.exceptions import ConnectionClosed

from app.core.errors import ServiceError
from app.http.auth import client_ip
from app.http.deps import get_services

# Past KODAMA_MAX_SOCKETS_PER_IP, or while the server is short of file handles, the
# handshake is accepted, then closed with this code: "try again later" (RFC 6455 section
# 7.4.1), which a browser can see, unlike a refusal.
TRY_AGAIN_LATER = 1013
SERVER_RESTARTING = 1012  # as uvicorn closes the sockets it finds open when it shuts down


class Connection:
    """One socket: sends are serialised (a reply and a broadcast may race). ``side`` is the
    seat of its player, or None for a spectator (it changes when the player gets a seat).

    A client may leave at any moment, a reply still pending: every way a send or a close can
    then fail becomes ``WebSocketDisconnect``, the one exception the handlers expect."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.side: str | None = None
        self._lock = asyncio.Lock()

    async def send(self, text: str) -> None:
        # (client_gone's handling, inlined: this runs for every message of every socket)
        async with self._lock:
            try:
                await self.ws.send_text(text)
            except WebSocketDisconnect:
                raise
            except (OSError, RuntimeError, ConnectionClosed) as exc:
                raise WebSocketDisconnect(1006) from exc

    async def send_json(self, data: dict[str, Any]) -> None:
        await self.send(json.dumps(data, separators=(",", ":")))

    async def close(self, code: int) -> None:
        async with self._lock, client_gone():
            await self.ws.close(code=code)


@contextlib.asynccontextmanager
async def client_gone() -> AsyncIterator[None]:
    """A send to a client that left fails differently by the moment and by the server's
    WebSocket implementation: Starlette's ``WebSocketDisconnect`` (uvicorn's
    ``ClientDisconnected``, an ``OSError``, once the connection is lost),
    ``WebSocketDisconnected`` (a ``RuntimeError``: a send after a failed one), uvicorn's
    ``RuntimeError`` for a send after it answered the client's close, or the ``websockets``
    library's ``ConnectionClosed``. Sending text does nothing else that could raise these."""
    try:
        yield
    except WebSocketDisconnect:
        raise
    except (OSError, RuntimeError, ConnectionClosed) as exc:
        raise WebSocketDisconnect(1006) from exc


@contextlib.asynccontextmanager
async def admitted(ws: WebSocket) -> AsyncIterator[str | None]:
    """The socket's address while it counts against its address's cap; None (the socket
    then closed with TRY_AGAIN_LATER, the refusal's sentence its reason) if that address has
    as many sockets and streams open as allowed, or the server is short of file handles."""
    sockets = get_services(ws).sockets
    address = client_ip(ws)
    refused = sockets.take(address)
    if refused is not None:
        with contextlib.suppress(WebSocketDisconnect):  # it may not wait for the close
            async with client_gone():
                await ws.accept()
                await ws.close(TRY_AGAIN_LATER, refused.message)
        yield None
        return
    try:
        yield address
    finally:
        sockets.give_back(address)


def json_message(raw: str | None, limit: int) -> dict[str, Any]:
    """A client message read from a text frame: a JSON object of at most ``limit`` bytes;
    or ServiceError (its type is for the socket to check)."""
    if raw is None:
        raise ServiceError("request.malformed", "messages must be JSON text, not binary")
    if len(raw.encode()) > limit:
        raise ServiceError("request.too_large", f"messages are limited to {limit} bytes")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: absurdly deep nesting
        raise ServiceError("request.malformed", "messages must be JSON objects") from None
    if not isinstance(data, dict):
        raise ServiceError("request.malformed", "messages must be JSON objects")
    return data


async def serve(read: Coroutine[Any, Any, None], write: Coroutine[Any, Any, None]) -> None:
    """Forward broadcasts in the background while reading the client; stop both when the
    reading ends (the client left)."""
    writer = asyncio.create_task(write)
    try:
        await read
    finally:
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer


async def until_gone(ws: WebSocket) -> None:
    """Read and ignore the client's frames until it leaves."""
    while (await ws.receive())["type"] != "websocket.disconnect":
        pass
