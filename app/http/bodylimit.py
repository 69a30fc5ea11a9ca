"""One size limit on every request body, for every route (``KODAMA_MAX_BODY_BYTES``).

A pure ASGI middleware in front of the whole app. A body whose declared ``Content-Length``
is over the limit is refused before a byte of it is read; any other body (chunked, or with
no length) is read before the route runs, and refused as soon as what has arrived passes
the limit — so a request never holds more than the limit in memory, whatever its route
does with its body. The refusal is ``413 request.too_large`` with ``Connection: close``:
the server stops reading and the rest of the body is never received.

Reading the body first costs nothing for the server's bodies (a few short fields) and
makes the limit the same for every route, including those that never read a body.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send


def too_large_message(limit: int) -> bytes:
    return json.dumps(
        {"error": f"the request body is larger than {limit} bytes", "code": "request.too_large"}
    ).encode()


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)  # WebSocket messages have their own limit
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_bytes:
            await self._refuse(send)
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                # The client went away before its body was complete: nothing to answer.
                return
            body += message.get("body", b"")
            if len(body) > self.max_bytes:
                await self._refuse(send)
                return
            if not message.get("more_body", False):
                break
        await self.app(scope, _replay(bytes(body), receive), send)

    async def _refuse(self, send: Send) -> None:
        content = too_large_message(self.max_bytes)
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(content)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": content})


def _content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length" and value.isdigit():
            return int(value)
    return None


def _replay(body: bytes, receive: Receive) -> Receive:
    """The body as one message, then the server's own messages (a disconnect, which a
    streamed response waits for)."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replayed
