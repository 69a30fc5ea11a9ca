"""The account's owner over HTTP: change the password, close the account, download its
data, set an e-mail address, reset a forgotten password (docs/api.md, "Account control").

All but the mailed links' endpoints are for the logged-in browser only, not for an API
token: a token given to a program must not be able to lock its owner out.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response, status
from pydantic import BaseModel, ConfigDict, Field

from app.accounts import export
from app.accounts.closing import close_account
from app.accounts.routes import ERRORS, AccountOut, OkOut, account_out, browser_only, set_identity
from app.accounts.schemas import PlayerOut
from app.core.errors import ServiceError
from app.core.words import request_language
from app.db.models import Player
from app.http.auth import Caller, account_caller, client_ip
from app.http.deps import Services, ServicesDep
from app.http.identity import Identities
from app.http.responses import CappedStreamingResponse, base_url

router = APIRouter(prefix="/api/account", tags=["accounts"])
Owner = Annotated[Caller, Depends(account_caller())]


# ---- bodies ------------------------------------------------------------------------------
class PasswordChangeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    currentPassword: str = Field(max_length=1000)
    newPassword: str = Field(max_length=1000, description="at least 8 characters")


class PasswordIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    password: str = Field(max_length=1000, description="the account's password")


class EmailIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    password: str = Field(max_length=1000, description="the account's password")
    email: str = Field(max_length=1000, description='the new address; "" removes it')


class TokenIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(max_length=200, description="the token of the mailed link")


class ForgotIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    email: str = Field(max_length=1000)


class ResetIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(max_length=200, description="the token of the mailed link")
    password: str = Field(max_length=1000, description="the new password")


class EmailOut(BaseModel):
    email: str | None = Field(description="null: none")
    verified: bool = Field(description="its link followed: a reset link can be sent to it")
    mail: bool = Field(description="whether this server sends mail at all")


# ---- helpers -----------------------------------------------------------------------------
def links_base(request: Request, services: Services) -> str:
    """The site's address for mailed links (KODAMA_PUBLIC_URL, else the request's)."""
    return services.settings.public_url.rstrip("/") or base_url(request)


def email_out(player: Player, services: Services) -> EmailOut:
    return EmailOut(
        email=player.email,
        verified=player.email_verified_ms is not None,
        mail=services.account_control.mailer.enabled,
    )


def json_only(request: Request) -> None:
    """An answer that logs a browser in takes JSON only: another site's plain form cannot
    send it (as ``POST /api/account/login``)."""
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type != "application/json":
        raise ServiceError("request.invalid", "send the body as JSON")


async def owner_account(who: Caller, services: Services) -> Player:
    browser_only(who)
    player = await services.accounts.by_id(who.identity.id)
    if player is None or player.username is None:  # pragma: no cover - checked by the caller
        raise ServiceError("account.required", "log in to an account", 401)
    return player


def log_in(response: Response, services: Services, player: Player) -> None:
    assert player.username is not None
    cookie = services.identities.account_cookie(player.id, player.username, player.session_gen)
    set_identity(response, services, cookie)


# ---- routes ------------------------------------------------------------------------------
@router.post("/password", response_model=OkOut, responses=ERRORS)
async def change_password(
    body: PasswordChangeIn, who: Owner, request: Request, response: Response, services: ServicesDep
) -> OkOut:
    """Change the password (the current one is required). Every other browser logged in to
    the account is logged out; this one stays logged in (a new cookie). API tokens stay:
    revoke them on the account page if they may have leaked."""
    browser_only(who)
    services.accounts.limits.password.hit(f"password:{client_ip(request)}")
    player = await services.account_control.change_password(
        who.identity.id, body.currentPassword, body.newPassword
    )
    log_in(response, services, player)
    return OkOut()


@router.post("/close", response_model=PlayerOut, response_model_exclude_none=True, responses=ERRORS)
async def close_my_account(
    body: PasswordIn, who: Owner, request: Request, response: Response, services: ServicesDep
) -> PlayerOut:
    """Close the account (the password is required): irreversible. Its games stay, under
    the name "<username> (closed)"; its tokens are revoked, every browser logged in to it
    is logged out, its games in progress are aborted or resigned, and its username is never
    given to anyone again. This browser gets a new anonymous identity."""
    browser_only(who)
    services.accounts.limits.password.hit(f"password:{client_ip(request)}")
    player = await services.accounts.by_id(who.identity.id)
    if player is None or player.password_hash is None:  # pragma: no cover - checked before
        raise ServiceError("account.required", "log in to an account", 401)
    if not await services.accounts.verify_password(player.password_hash, body.password):
        raise ServiceError("account.password_wrong", "the password is wrong", 403)
    await close_account(services, player.id, links_base(request, services))
    fresh = Identities.new()
    set_identity(response, services, services.identities.cookie(fresh))
    return PlayerOut(id=fresh.id, name=fresh.name)


@router.get(
    "/export",
    responses={
        200: {
            "description": "one JSON document: account, ratings, ratingHistory, tokens, "
            "games (as GET /game/export/{id}), chat",
            "content": {"application/json": {"schema": {"type": "object"}}},
        },
        **ERRORS,
    },
)
async def export_my_data(who: Owner, request: Request, services: ServicesDep) -> Response:
    """All the account's data as one JSON file (streamed), to keep or to take elsewhere."""
    player = await owner_account(who, services)
    assert player.username is not None
    return CappedStreamingResponse(
        export.document(services.accounts.sessions, player, base_url(request)),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="kodama-{player.username}.json"'},
    )


@router.get("/email", response_model=EmailOut, responses=ERRORS)
async def my_email(who: Owner, services: ServicesDep) -> EmailOut:
    """The account's e-mail address, whether it is verified, and whether the server mails."""
    return email_out(await owner_account(who, services), services)


@router.post("/email", response_model=EmailOut, responses=ERRORS)
async def set_email(body: EmailIn, who: Owner, request: Request, services: ServicesDep) -> EmailOut:
    """Set the e-mail address (the password is required), or remove it with ``""``. A link
    to verify it is mailed to it (valid a day; in the page's language: the kodama_lang cookie,
    else Accept-Language); until it is followed, no reset link is sent
    there. 503 ``mail.unavailable`` when the server has no SMTP server."""
    browser_only(who)
    services.accounts.limits.password.hit(f"password:{client_ip(request)}")
    player = await services.account_control.set_email(
        who.identity.id,
        body.password,
        body.email,
        links_base(request, services),
        request_language(request.cookies, request.headers.get("accept-language")),
    )
    return email_out(player, services)


@router.post("/email/verify", response_model=OkOut, responses=ERRORS)
async def verify_email(body: TokenIn, services: ServicesDep) -> OkOut:
    """Follow the verification link's token (from any browser, logged in or not)."""
    await services.account_control.verify_email(body.token)
    return OkOut()


@router.post(
    "/password/forgot",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=OkOut,
    responses=ERRORS,
)
async def forgot_password(body: ForgotIn, request: Request, services: ServicesDep) -> OkOut:
    """Mail a password reset link (valid an hour, once) to the accounts whose verified
    address this is. The answer is the same whether there is such an account or not."""
    await services.account_control.forgot_password(
        body.email,
        client_ip(request),
        links_base(request, services),
        request_language(request.cookies, request.headers.get("accept-language")),
    )
    return OkOut()


@router.post("/password/reset", response_model=AccountOut, responses=ERRORS)
async def reset_password(
    body: ResetIn, request: Request, response: Response, services: ServicesDep
) -> AccountOut:
    """Set a new password with a reset link's token. Every browser logged in to the account
    is logged out, and this one is logged in."""
    json_only(request)
    player = await services.account_control.reset_password(body.token, body.password)
    log_in(response, services, player)
    return account_out(player)
