"""Who is calling: a program with ``Authorization: Bearer <token>``, or a browser's cookie.

``caller("bot:play")`` is a FastAPI dependency factory::

    who: Annotated[Caller, Depends(caller("bot:play"))]

A token must be valid (401 ``token.invalid``) and hold every scope asked for (403
``token.scope``); without the header the browser's cookie identity is used (anonymous or
logged in), which holds every scope. ``account_caller`` also requires a registered account
(401 ``account.required``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.requests import HTTPConnection

from app.accounts.service import BOT, RESERVED_PREFIX, SCOPES
from app.core.errors import ServiceError
from app.games import Identity
from app.http.deps import ServicesDep, get_identity, player_cookie
from app.http.identity import display_name

ALL_SCOPES = frozenset(SCOPES)
# The cookie of a logged-in account, as /openapi.json names what the account-only routes need
# (a role of the PlayerCookie scheme: any visitor has a cookie, only an account has this).
ACCOUNT_ROLE = "account"
# Declares the scheme in /openapi.json (the docs page's "Authorize" button); the header
# itself is parsed below, so that a malformed one is refused instead of ignored.
bearer = HTTPBearer(auto_error=False, description="a personal API token: kdm_...")


@dataclass(frozen=True)
class Caller:
    identity: Identity  # id: the players row; name: the display name
    token_id: str | None  # the API token's id when authenticated by Bearer token, else None
    scopes: frozenset[str]  # a token's scopes; a browser (cookie) caller has every scope
    username: str | None  # None for an anonymous (cookie-only) player
    bot: bool  # the account is upgraded to BOT


def client_ip(request: HTTPConnection) -> str:
    """The caller's address (of a request or a WebSocket), as rate limits count it."""
    return request.client.host if request.client else "unknown"


def bearer_token(request: Request) -> str | None:
    """The token of the Authorization header; None without the header; 401 if malformed."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise invalid_token()
    return token


def invalid_token() -> ServiceError:
    return ServiceError("token.invalid", "this API token is not valid (unknown or revoked)", 401)


async def resolve(request: Request, services: ServicesDep, scopes: frozenset[str]) -> Caller:
    token = bearer_token(request)
    if token is not None:
        owner = await services.accounts.check_token(token)
        if owner is None:
            raise invalid_token()
        missing = sorted(scopes - owner.scopes)
        if missing:
            raise ServiceError(
                "token.scope",
                f"this token lacks the scope(s) {', '.join(missing)}",
                403,
                missing=missing,
            )
        player = owner.player
        if player.id.startswith(RESERVED_PREFIX):
            # The server's own opponents (no one else may have such a name): their streams
            # are bounded by their seats, not by their address's cap (app/http/responses.py).
            request.state.server_bot = True
        return Caller(
            identity=Identity(player.id, player.name),
            token_id=owner.token_id,
            scopes=owner.scopes,
            username=player.username,
            bot=player.title == BOT,
        )
    who = get_identity(request)
    if who.name == display_name(who.id):
        # An anonymous cookie (a username never has the space of "Anonymous 1A2B").
        return Caller(who, None, ALL_SCOPES, None, False)
    account = await services.accounts.by_id(who.id)
    if account is not None and account.closed_ms is not None:
        # Closed on another instance within the last seconds (app/accounts/sessions.py):
        # the cookie names an account nobody may act for any more.
        raise ServiceError("account.closed", "this account is closed", 401)
    if account is None or account.username is None:
        return Caller(Identity(who.id, display_name(who.id)), None, ALL_SCOPES, None, False)
    return Caller(
        identity=Identity(account.id, account.name),
        token_id=None,
        scopes=ALL_SCOPES,
        username=account.username,
        bot=account.title == BOT,
    )


def _check(scopes: tuple[str, ...]) -> frozenset[str]:
    unknown = set(scopes) - ALL_SCOPES
    if unknown:  # a typo in a route's declaration: fail at import, not at request time
        raise ValueError(f"unknown scope(s) {sorted(unknown)}")
    return frozenset(scopes)


def caller(*scopes: str) -> Callable[..., Awaitable[Caller]]:
    """A dependency: the caller, by token (holding these scopes) or by cookie (both are
    declared in /openapi.json as alternatives)."""
    required = _check(scopes)

    async def dependency(
        request: Request,
        services: ServicesDep,
        _credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
        _cookie: Annotated[str | None, Depends(player_cookie)],
    ) -> Caller:
        return await resolve(request, services, required)

    return dependency


def account_caller(*scopes: str) -> Callable[..., Awaitable[Caller]]:
    """Like ``caller``, but only a registered account will do (401 ``account.required``).
    /openapi.json says so with the cookie's role ``account`` (app/http/openapi.py)."""
    required = _check(scopes)

    async def dependency(
        request: Request,
        services: ServicesDep,
        _credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
        _cookie: Annotated[str | None, Security(player_cookie, scopes=[ACCOUNT_ROLE])],
    ) -> Caller:
        return require_account(await resolve(request, services, required))

    return dependency


def require_account(who: Caller) -> Caller:
    if who.username is None:
        raise ServiceError("account.required", "log in to an account (or send its API token)", 401)
    return who


__all__ = ["Caller", "account_caller", "bearer_token", "caller", "require_account", "resolve"]
