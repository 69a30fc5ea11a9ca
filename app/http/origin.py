"""Requests from other sites' pages: refused when they would act for the visitor.

A browser sends the visitor's cookie with every request to this site, whichever page makes
it: another port of the same host, or a sibling subdomain (SameSite=Lax counts both as the
same site). ``OriginGuard`` refuses, before any route runs,

- every state-changing HTTP request (POST, PUT, PATCH, DELETE) whose ``Origin`` header is
  present and is neither this site's own origin nor one of ``KODAMA_ALLOWED_ORIGINS``
  (403 ``origin.forbidden``), unless it is a program's: ``Authorization`` and no identity
  cookie (a page of another site cannot add that header without a CORS preflight, which
  this server never grants);
- every WebSocket handshake with such an ``Origin`` (HTTP 403 before the socket opens).

``Origin: null`` (sandboxed frames, some redirects) is a foreign origin. A request without
``Origin`` (a program, an old browser's same-origin GET) is not checked.

The site's own origin is the scheme and ``Host`` of the request. Behind a reverse proxy both
come from the proxy: ``ForwardedHeaders`` takes ``X-Forwarded-Proto``, ``X-Forwarded-For``
(uvicorn's own middleware, same semantics) and ``X-Forwarded-Host`` from the addresses of
``FORWARDED_ALLOW_IPS`` only.
"""

from __future__ import annotations

import re

from starlette.requests import cookie_parser
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocketClose
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from app.http.identity import COOKIE

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
DEFAULT_PORTS = {"http": 80, "https": 443}
# What browsers put in Origin and Host: a DNS name (or IPv4 address) or a bracketed IPv6
# address, and a port. Anything else (user info, a path, "null") is no origin at all.
_HOST = r"(?P<host>[a-z0-9_.\-]+|\[[0-9a-f:.]+\])(?::(?P<port>[0-9]{1,5}))?"
ORIGIN_RE = re.compile(rf"(?P<scheme>https?)://{_HOST}", re.IGNORECASE)
HOST_RE = re.compile(_HOST, re.IGNORECASE)

Origin = tuple[str, str, int]  # scheme, host (lower case), port (the default one written out)


def parse_origin(text: str) -> Origin | None:
    """``scheme://host[:port]`` as a comparable value; None for anything else."""
    match = ORIGIN_RE.fullmatch(text.strip())
    if match is None:
        return None
    return _origin(match["scheme"].lower(), match["host"], match["port"])


def _origin(scheme: str, host: str, port: str | None) -> Origin | None:
    number = DEFAULT_PORTS[scheme] if port is None else int(port)
    if not 0 < number < 65536:
        return None
    return (scheme, host.lower(), number)


def origin_text(origin: Origin) -> str:
    scheme, host, port = origin
    return f"{scheme}://{host}" if DEFAULT_PORTS[scheme] == port else f"{scheme}://{host}:{port}"


def header(scope: Scope, name: bytes) -> str | None:
    """The value of a request header; None if absent. Several of them: all, comma-joined."""
    values = [value.decode("latin-1") for key, value in scope["headers"] if key == name]
    return ", ".join(values) if values else None


def own_origin(scope: Scope) -> Origin | None:
    """This site's origin as the browser sees it: the request's scheme (``ws``/``wss`` for
    a socket) and ``Host``. None without a well-formed Host."""
    host = header(scope, b"host")
    match = None if host is None else HOST_RE.fullmatch(host.strip())
    if match is None:
        return None
    scheme = {"ws": "http", "wss": "https"}.get(scope["scheme"], scope["scheme"])
    if scheme not in DEFAULT_PORTS:
        return None
    return _origin(scheme, match["host"], match["port"])


def parse_allowed(setting: str) -> frozenset[Origin]:
    """``KODAMA_ALLOWED_ORIGINS``: comma-separated origins; a wrong one stops the start."""
    allowed = set()
    for item in setting.split(","):
        text = item.strip().rstrip("/")
        if not text:
            continue
        origin = parse_origin(text)
        if origin is None:
            raise ValueError(
                f"KODAMA_ALLOWED_ORIGINS: {text!r} is not an origin (scheme://host[:port])"
            )
        allowed.add(origin)
    return frozenset(allowed)


class OriginGuard:
    """Pure ASGI: refuses cross-origin requests that would act for the visitor (above)."""

    def __init__(self, app: ASGIApp, allowed: frozenset[Origin] = frozenset()) -> None:
        self.app = app
        self.allowed = allowed  # parse_allowed(KODAMA_ALLOWED_ORIGINS)

    def foreign(self, scope: Scope) -> str | None:
        """The request's Origin when it is another site's; None when it may go on."""
        text = header(scope, b"origin")
        if text is None:
            return None
        origin = parse_origin(text)
        if origin is not None and (origin == own_origin(scope) or origin in self.allowed):
            return None
        return text

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in UNSAFE_METHODS:
            origin = self.foreign(scope)
            if origin is not None and not _program(scope):
                response = JSONResponse(
                    {
                        "error": f"a page of another site ({origin}) may not act for you here",
                        "code": "origin.forbidden",
                    },
                    status_code=403,
                )
                await response(scope, receive, send)
                return
        elif scope["type"] == "websocket":
            origin = self.foreign(scope)
            if origin is not None:
                # A close before accept: the server answers the handshake 403. (Not a
                # denial response with a body: uvicorn logs an error after each one.)
                await WebSocketClose(code=1008)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _program(scope: Scope) -> bool:
    """A program authenticated by its token: an Authorization header and no identity
    cookie. With the cookie the request is checked like any browser's, token or not: the
    browser routes (games, invites) act for the cookie's player whatever else is sent."""
    if header(scope, b"authorization") is None:
        return False
    cookies = header(scope, b"cookie")
    return cookies is None or COOKIE not in cookie_parser(cookies)


class ForwardedHeaders:
    """Behind a reverse proxy: the client's scheme, address and Host, from the proxy's
    ``X-Forwarded-Proto``/``-For`` (uvicorn's ProxyHeadersMiddleware, unchanged) and
    ``X-Forwarded-Host`` (which uvicorn ignores), trusted only from ``trusted_hosts``
    (uvicorn's ``forwarded_allow_ips``: addresses, networks, or ``*``). Run by the app
    instead of by uvicorn so that the Host is taken from the proxy's own address."""

    def __init__(self, app: ASGIApp, trusted_hosts: str) -> None:
        self.proxy = ProxyHeadersMiddleware(app, trusted_hosts=trusted_hosts)  # type: ignore[arg-type]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            client = scope.get("client")
            forwarded = header(scope, b"x-forwarded-host")
            if forwarded and client and client[0] in self.proxy.trusted_hosts:
                # Each proxy appends: the last value is the one our trusted proxy wrote.
                host = forwarded.split(",")[-1].strip()
                if HOST_RE.fullmatch(host):
                    headers = [(k, v) for k, v in scope["headers"] if k != b"host"]
                    headers.append((b"host", host.encode("latin-1")))
                    scope = {**scope, "headers": headers}
        await self.proxy(scope, receive, send)  # type: ignore[arg-type]


__all__ = ["ForwardedHeaders", "OriginGuard", "own_origin", "parse_allowed", "parse_origin"]
