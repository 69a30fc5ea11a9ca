"""Accounts over HTTP: register, log in/out, my profile, API tokens, the BOT upgrade.

A bot author needs no browser: ``POST /api/account/register`` then ``POST /api/token`` with
the username and password gives a token (shown once). Register and token creation take JSON
or a form (``application/x-www-form-urlencoded``, as lichess tools post); log in takes JSON
only, so that another site cannot log a visitor in to its own account with a plain form.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response, status
from pydantic import BaseModel, ConfigDict, Field

from app.accounts.schemas import PerfOut, PlayerOut
from app.accounts.service import ANONYMOUS_ID, MAX_DESCRIPTION, RESERVED_PREFIX, SCOPES
from app.core.errors import ServiceError
from app.db.models import ApiToken, Player
from app.http.auth import Caller, account_caller, caller, client_ip, require_account, resolve
from app.http.bodies import form_or_json, read_body
from app.http.deps import ServicesDep
from app.http.identity import COOKIE, Identities
from app.http.schemas import ErrorOut
from app.http.visitor import set_identity_cookie
from app.ratings.reading import perfs_json

router = APIRouter(prefix="/api", tags=["accounts"])
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (400, 401, 403, 404, 409, 429)
}


# ---- bodies ------------------------------------------------------------------------------
class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: str = Field(max_length=100, description="2 to 20 letters, digits, _ or -")
    password: str = Field(max_length=1000, description="at least 8 characters")


class TokenIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: str | None = Field(
        default=None, max_length=100, description="omit both when logged in (browser)"
    )
    password: str | None = Field(default=None, max_length=1000)
    description: str = Field(default="", description=f"at most {MAX_DESCRIPTION} characters")
    scopes: (
        Annotated[list[Annotated[str, Field(max_length=200)]], Field(max_length=20)]
        | Annotated[str, Field(max_length=200)]
    ) = Field(
        default_factory=list,
        description=f"any of {', '.join(SCOPES)}: a list, or one string split on , or spaces",
    )


class AccountOut(BaseModel):
    id: str = Field(description="the player id (the same as in games)")
    username: str
    title: str | None = Field(default=None, description='"BOT" for a bot account')
    createdAt: int = Field(description="epoch milliseconds")
    perfs: dict[str, PerfOut] | None = Field(
        default=None, description="GET /api/account only: a rating per game played rated"
    )


class TokenOut(BaseModel):
    token: str = Field(description="shown once: only its hash is stored")
    id: str
    description: str
    scopes: list[str]
    createdAt: int


class TokenInfoOut(BaseModel):
    id: str
    description: str
    scopes: list[str]
    createdAt: int
    lastUsedAt: int | None = Field(description="within a minute")


class TokensOut(BaseModel):
    tokens: list[TokenInfoOut]


class OkOut(BaseModel):
    ok: bool = True


# ---- helpers -----------------------------------------------------------------------------
def account_out(player: Player) -> AccountOut:
    assert player.username is not None
    return AccountOut(
        id=player.id, username=player.username, title=player.title, createdAt=player.created_ms
    )


def token_info(entry: ApiToken) -> TokenInfoOut:
    return TokenInfoOut(
        id=entry.id,
        description=entry.description,
        scopes=entry.scopes.split(),
        createdAt=entry.created_ms,
        lastUsedAt=entry.last_used_ms,
    )


def set_identity(response: Response, services: ServicesDep, value: str) -> None:
    set_identity_cookie(response, value, secure=services.settings.cookie_secure)


def registering_guest(request: Request, identities: Identities) -> str | None:
    """The guest player id of a browser registering: its identity cookie is an anonymous
    player's and it sends no token. None for a program, a first visit or a logged-in browser
    (whose account keeps what it has: a second account takes nothing from it)."""
    if "authorization" in request.headers:
        return None
    who = identities.read(request.cookies.get(COOKIE))
    if who is None or not ANONYMOUS_ID.fullmatch(who.id):
        return None
    return who.id


def browser_only(who: Caller) -> None:
    """Managing tokens is for the account's owner in a browser, not for a token."""
    if who.token_id is not None:
        raise ServiceError(
            "token.scope", "API tokens are managed from a logged-in browser, not with a token", 403
        )


# ---- routes ------------------------------------------------------------------------------
@router.post(
    "/account/register",
    status_code=status.HTTP_201_CREATED,
    response_model=AccountOut,
    response_model_exclude_none=True,
    responses=ERRORS,
    openapi_extra=form_or_json(Credentials),
)
async def register(request: Request, response: Response, services: ServicesDep) -> AccountOut:
    """Create an account. From a browser playing as a guest (its identity cookie, no token),
    the guest's games, open challenges, chat lines and counts become the account's, and the
    browser is logged in to it: the guest's seats are its seats. Otherwise nothing is logged
    in: ``POST /api/account/login`` does that."""
    services.accounts.limits.register.hit(f"register:{client_ip(request)}")
    body = await read_body(request, Credentials)
    if body.username.lower().startswith(RESERVED_PREFIX):
        raise ServiceError(
            "account.username_reserved",
            f"names beginning with {RESERVED_PREFIX} are the server's own",
            409,
        )
    guest = registering_guest(request, services.identities)
    player, moved = await services.accounts.register_claiming(body.username, body.password, guest)
    # Committed: the move pipeline's cached rows of those games still name the guest.
    for game_id in moved:
        services.games.pipeline.cache.drop(game_id)
    if guest is not None:
        assert player.username is not None
        set_identity(
            response, services, services.identities.account_cookie(player.id, player.username)
        )
    return account_out(player)


@router.post(
    "/account/login",
    response_model=AccountOut,
    response_model_exclude_none=True,
    responses=ERRORS,
)
async def login(
    body: Credentials, request: Request, response: Response, services: ServicesDep
) -> AccountOut:
    """Log this browser in: its identity cookie becomes the account's player. The games
    played anonymously before stay with the anonymous identity."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != (
        "application/json"
    ):
        raise ServiceError("request.invalid", "send the credentials as JSON")
    services.accounts.limits.password.hit(f"password:{client_ip(request)}")
    player = await services.accounts.authenticate(body.username, body.password)
    assert player.username is not None
    set_identity(
        response,
        services,
        services.identities.account_cookie(player.id, player.username, player.session_gen),
    )
    return account_out(player)


@router.post(
    "/account/logout", response_model=PlayerOut, response_model_exclude_none=True, responses=ERRORS
)
async def logout(response: Response, services: ServicesDep) -> PlayerOut:
    """Log this browser out: a fresh anonymous identity, as on a first visit."""
    who = Identities.new()
    set_identity(response, services, services.identities.cookie(who))
    return PlayerOut(id=who.id, name=who.name)


@router.get(
    "/account", response_model=AccountOut, response_model_exclude_none=True, responses=ERRORS
)
async def my_account(
    who: Annotated[Caller, Depends(account_caller())], services: ServicesDep
) -> AccountOut:
    """The account of the token or of the logged-in browser (lichess: get my profile)."""
    player = await services.accounts.by_id(who.identity.id)
    if player is None or player.username is None:  # pragma: no cover - checked by the caller
        raise ServiceError("account.required", "log in to an account", 401)
    perfs = await perfs_json(services.games.sessions, player.id, services.games.now())
    return account_out(player).model_copy(
        update={"perfs": {k: PerfOut(**v) for k, v in perfs.items()}}
    )


@router.post(
    "/token",
    status_code=status.HTTP_201_CREATED,
    response_model=TokenOut,
    responses=ERRORS,
    openapi_extra=form_or_json(TokenIn),
)
async def create_token(request: Request, services: ServicesDep) -> TokenOut:
    """A new personal API token, shown once. With ``username`` and ``password`` (no browser
    needed), or from a logged-in browser without them."""
    body = await read_body(request, TokenIn)
    if body.username is not None or body.password is not None:
        if body.username is None or body.password is None:
            raise ServiceError("request.invalid", "send both username and password")
        services.accounts.limits.password.hit(f"password:{client_ip(request)}")
        player = await services.accounts.authenticate(body.username, body.password)
        player_id = player.id
    else:
        who = require_account(await resolve(request, services, frozenset()))
        browser_only(who)
        player_id = who.identity.id
    scopes = [body.scopes] if isinstance(body.scopes, str) else body.scopes
    token, entry = await services.accounts.new_token(player_id, body.description, scopes)
    info = token_info(entry)
    return TokenOut(
        token=token,
        id=info.id,
        description=info.description,
        scopes=info.scopes,
        createdAt=info.createdAt,
    )


@router.delete("/token", status_code=status.HTTP_204_NO_CONTENT, responses=ERRORS)
async def revoke_this_token(
    who: Annotated[Caller, Depends(caller())], services: ServicesDep
) -> Response:
    """Revoke the token sent in the Authorization header (lichess: revoke access token)."""
    if who.token_id is None:
        raise ServiceError(
            "token.required", "send the token to revoke as Authorization: Bearer", 401
        )
    await services.accounts.revoke_token(who.identity.id, who.token_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/account/tokens", response_model=TokensOut, responses=ERRORS)
async def list_tokens(
    who: Annotated[Caller, Depends(account_caller())], services: ServicesDep
) -> TokensOut:
    """The logged-in account's tokens in use (never the tokens themselves)."""
    browser_only(who)
    return TokensOut(
        tokens=[token_info(t) for t in await services.accounts.tokens(who.identity.id)]
    )


@router.delete(
    "/account/tokens/{token_id}", status_code=status.HTTP_204_NO_CONTENT, responses=ERRORS
)
async def revoke_token(
    token_id: str, who: Annotated[Caller, Depends(account_caller())], services: ServicesDep
) -> Response:
    """Revoke one of the logged-in account's tokens."""
    browser_only(who)
    await services.accounts.revoke_token(who.identity.id, token_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post("/bot/account/upgrade", response_model=OkOut, responses=ERRORS)
async def upgrade_to_bot(
    who: Annotated[Caller, Depends(account_caller("bot:play"))], services: ServicesDep
) -> OkOut:
    """Make this account a BOT: irreversible, and only before it has played any game."""
    await services.accounts.upgrade_to_bot(who.identity.id)
    return OkOut()
