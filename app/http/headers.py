"""Security headers on every HTTP answer (pages, static files, the API, /docs).

The pages are ES modules and a stylesheet served from this site: nothing inline, nothing
from elsewhere, so the Content-Security-Policy allows this site only. ``connect-src`` names
the page's own ``ws:``/``wss:`` origin besides ``'self'`` (older browsers do not count a
WebSocket to the same host as ``'self'``). ``img-src`` allows ``data:`` for the images that
Swagger UI's stylesheet embeds (/docs); images cannot run anything.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.http.origin import origin_text, own_origin

POLICY = (
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
)
FIXED = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
    # Page addresses hold secrets (invite links): other sites never see them.
    "Referrer-Policy": "same-origin",
}


def content_security_policy(scope: Scope | None) -> str:
    """The policy for an answer to this request (None: a request whose head was refused
    before it was read, so no Host is known; the sockets' origin is then left out)."""
    connect = "connect-src 'self'"
    origin = None if scope is None else own_origin(scope)
    if origin is not None:
        socket = "wss" if origin[0] == "https" else "ws"
        connect += f" {socket}{origin_text(origin).removeprefix(origin[0])}"
    return "; ".join((*POLICY, connect))


class SecurityHeaders:
    """Pure ASGI: adds the headers above to every HTTP response that has not set them."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = content_security_policy(scope)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("Content-Security-Policy", policy)
                for name, value in FIXED.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)


def refusal_headers() -> list[tuple[bytes, bytes]]:
    """The headers above for an answer the HTTP protocol writes itself (a refused head,
    app/http/protocol.py), which no middleware sees."""
    headers = {"Content-Security-Policy": content_security_policy(None), **FIXED}
    return [(name.lower().encode(), value.encode()) for name, value in headers.items()]


__all__ = ["SecurityHeaders", "content_security_policy", "refusal_headers"]
