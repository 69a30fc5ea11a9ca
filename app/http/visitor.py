"""Every visitor gets an anonymous identity at once: playing needs no sign-up.

The request's identity is read from its signed cookie (a new one when it has none, or one
that does not verify) and put in the request's state, where the routes read it
(``get_identity`` in deps.py). A new identity's cookie goes out with the answer — not over a
cookie the route set itself (logging in or out), nor to a program using a token.

Pure ASGI, as the rest of the middleware here: Starlette's ``BaseHTTPMiddleware`` (what
``@app.middleware("http")`` makes) runs each request's handling in a task group of its own and
carries the answer through memory streams, a cost on every request (docs/benchmarks.md,
"Requests").
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.requests import HTTPConnection
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.http.identity import COOKIE, MAX_AGE, Identities
from app.web.assets import PREFIX as STATIC_PREFIX


class VisitorIdentity:
    def __init__(self, app: ASGIApp, identities: Identities, cookie_secure: bool) -> None:
        self.app = app
        self.identities = identities
        self.cookie_secure = cookie_secure

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # A static file needs no identity and gets no cookie: it may be kept by a shared
        # cache (app/web/assets.py), which must never hand one visitor's cookie to another.
        if scope["type"] != "http" or scope["path"].startswith(STATIC_PREFIX):
            await self.app(scope, receive, send)
            return
        request = HTTPConnection(scope)
        cookie = request.cookies.get(COOKIE)
        services = scope.get("state", {}).get("services")
        # An account's session that has ended (app/accounts/sessions.py) is no identity: the
        # browser gets a new anonymous one, as logged out.
        who = (
            self.identities.read(cookie)
            if services is None
            else await self.identities.read_checked(cookie, services.accounts.session_gens)
        )
        fresh = who is None and "authorization" not in request.headers
        if who is None:
            who = self.identities.new()
        scope.setdefault("state", {})["identity"] = who
        if not fresh:
            await self.app(scope, receive, send)
            return
        fresh_cookie = self._set_cookie(self.identities.cookie(who))

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                if not _sets_cookie(headers):
                    headers.append("set-cookie", fresh_cookie)
            await send(message)

        await self.app(scope, receive, send_with_cookie)

    def _set_cookie(self, value: str) -> str:
        """The Set-Cookie header of an identity cookie."""
        response = Response()
        set_identity_cookie(response, value, secure=self.cookie_secure)
        return response.headers["set-cookie"]


def set_identity_cookie(response: Response, value: str, *, secure: bool) -> None:
    """The browser's identity cookie on this answer (a new visitor, logging in or out)."""
    response.set_cookie(
        COOKIE, value, max_age=MAX_AGE, httponly=True, samesite="lax", secure=secure
    )


def _sets_cookie(headers: MutableHeaders) -> bool:
    return any(value.startswith(f"{COOKIE}=") for value in headers.getlist("set-cookie"))
