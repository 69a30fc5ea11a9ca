"""Moderation over HTTP (docs/api.md, "Reports and moderation"): an account reports a
player; a player reads and acknowledges the warnings given to them; moderators read the
open reports with their context, act, and read the audit log; the moderation page ``/mod``.

Reports and warnings: accounts only (401 ``account.required``). Everything under
``/api/mod/`` and the page: moderators only (401 for a guest, 403 ``mod.required``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from app.accounts.closing import close_account
from app.core.errors import ServiceError
from app.http.auth import Caller, account_caller, caller, resolve
from app.http.deps import ServicesDep
from app.http.responses import base_url, errors
from app.moderation.service import MAX_MUTE_MINUTES, MAX_TEXT, REASONS, required
from app.web.assets import STATIC

router = APIRouter(tags=["moderation"])
page_router = APIRouter(include_in_schema=False)
Member = Annotated[Caller, Depends(account_caller())]
Anyone = Annotated[Caller, Depends(caller())]
THANKS = "Thank you: the moderators will look at your report."


async def moderator(who: Member, services: ServicesDep) -> Caller:
    """A dependency: the caller, a moderator (403 ``mod.required``)."""
    await services.moderation.require(who.identity.id)
    return who


Mod = Annotated[Caller, Depends(moderator)]


# ---- bodies and answers --------------------------------------------------------------------
class ReportIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: str = Field(max_length=100, description="the player reported (an account)")
    reason: str = Field(description=f"one of: {', '.join(REASONS)}")
    text: str = Field(default="", max_length=2000, description=f"at most {MAX_TEXT} characters")
    gameId: str | None = Field(default=None, max_length=100, description="the game concerned")
    chatLineId: int | None = Field(default=None, description="the chat line reported")


class ReportedOut(BaseModel):
    ok: bool
    id: int = Field(description="the report's id")
    message: str = Field(description="a thank-you to show")


class OkOut(BaseModel):
    ok: bool


class WarningOut(BaseModel):
    id: int
    text: str = Field(description="the moderator's words")
    createdAt: int


class WarningsOut(BaseModel):
    warnings: list[WarningOut] = Field(description="not acknowledged yet, oldest first")


class ActionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: str = Field(max_length=2000, description=f"why: 1 to {MAX_TEXT} characters (logged)")
    reportId: int | None = Field(default=None, description="the report this answers: closed")


class MuteIn(ActionIn):
    minutes: int = Field(ge=0, le=MAX_MUTE_MINUTES, description="from now; 0 lifts a mute")


class RestrictIn(ActionIn):
    on: bool = Field(description="true: their lines are shown to themselves only")


class MutedOut(OkOut):
    until: int | None = Field(description="the mute's end (epoch ms); null: not muted")


class LineOut(BaseModel):
    id: int
    gameId: str
    room: str
    userId: str
    username: str
    text: str
    createdAt: int
    hidden: bool = Field(description="a moderator hid it")
    authorOnly: bool = Field(description="written while its author's chat was theirs only")


class ReportOut(BaseModel):
    id: int
    reporter: str | None
    username: str | None = Field(description="the player reported")
    userId: str
    reason: str
    text: str
    gameId: str | None
    chatLineId: int | None
    createdAt: int
    closedAt: int | None
    outcome: str | None = Field(description="dismiss, or the action that closed it")


class QueuedOut(ReportOut):
    lineText: str | None = Field(description="the reported line's text")
    openAboutPlayer: int = Field(description="open reports about the same player")


class QueueOut(BaseModel):
    reports: list[QueuedOut] = Field(description="the open reports, oldest first (at most 100)")


class GameOut(BaseModel):
    id: str
    variant: str
    status: str
    rated: bool
    first: str | None
    second: str | None
    winner: str | None
    createdAt: int


class StandingOut(BaseModel):
    mutedUntil: int | None
    chatToThemselves: bool
    moderator: bool


class LogOut(BaseModel):
    id: int
    moderator: str | None
    action: str
    userId: str
    username: str
    reason: str
    reportId: int | None
    chatLineId: int | None
    until: int | None
    createdAt: int


class DetailsOut(ReportOut):
    around: list[LineOut] = Field(description="the reported line with the lines around it")
    recentGames: list[GameOut]
    recentLines: list[LineOut] = Field(description="the player's latest lines, newest first")
    standing: StandingOut
    log: list[LogOut] = Field(description="what moderators did to the player, newest first")


class LogListOut(BaseModel):
    entries: list[LogOut]


# ---- reports and warnings ----------------------------------------------------------------
@router.post(
    "/api/report",
    response_model=ReportedOut,
    responses=errors(400, 401, 404, 429),
    summary="Report a player to the moderators",
)
async def report(body: ReportIn, who: Member, services: ServicesDep) -> ReportedOut:
    """Report an account (``reason``: cheat, abuse, sandbag or other; ``text``: at most 500
    characters), from their profile, a game (``gameId``) or a chat line (``chatLineId``).
    Not yourself (``400 report.self``); a few reports an hour (``429 report.too_many``)."""
    report_id = await services.moderation.report(
        who.identity.id, body.username, body.reason, body.text, body.gameId, body.chatLineId
    )
    return ReportedOut(ok=True, id=report_id, message=THANKS)


@router.get(
    "/api/account/warnings",
    response_model=WarningsOut,
    summary="The moderators' warnings to acknowledge",
)
async def warnings(who: Anyone, services: ServicesDep) -> WarningsOut:
    """What every page shows its player until they acknowledge it (a guest has none)."""
    if who.username is None:
        return WarningsOut(warnings=[])
    shown = await services.moderation.warnings(who.identity.id)
    return WarningsOut(
        warnings=[WarningOut(id=w.id, text=w.text, createdAt=w.created_ms) for w in shown]
    )


@router.post(
    "/api/account/warnings/{warning_id}/seen",
    response_model=OkOut,
    responses=errors(401, 404),
    summary="Acknowledge a warning",
)
async def acknowledge(warning_id: int, who: Member, services: ServicesDep) -> OkOut:
    """The warning is not shown again."""
    await services.moderation.acknowledge(who.identity.id, warning_id)
    return OkOut(ok=True)


# ---- the moderators' -----------------------------------------------------------------------
@router.get(
    "/api/mod/reports",
    response_model=QueueOut,
    responses=errors(401, 403),
    summary="The open reports",
)
async def queue(_who: Mod, services: ServicesDep) -> QueueOut:
    return QueueOut.model_validate({"reports": await services.moderation.queue()})


@router.get(
    "/api/mod/reports/{report_id}",
    response_model=DetailsOut,
    responses=errors(401, 403, 404),
    summary="A report with its context",
)
async def details(report_id: int, _who: Mod, services: ServicesDep) -> DetailsOut:
    """The reported line among the lines around it, the player's recent games and lines,
    the sanctions on them now and what moderators did to them."""
    return DetailsOut.model_validate(await services.moderation.details(report_id))


@router.post(
    "/api/mod/reports/{report_id}/dismiss",
    response_model=OkOut,
    responses=errors(400, 401, 403, 404, 409),
    summary="Dismiss a report",
)
async def dismiss(report_id: int, body: ActionIn, who: Mod, services: ServicesDep) -> OkOut:
    await services.moderation.dismiss(who.identity.id, report_id, body.reason)
    return OkOut(ok=True)


@router.post(
    "/api/mod/users/{username}/warn",
    response_model=OkOut,
    responses=errors(400, 401, 403, 404),
    summary="Warn a player",
)
async def warn(username: str, body: ActionIn, who: Mod, services: ServicesDep) -> OkOut:
    """``reason`` is what the player's pages show them until they acknowledge it."""
    await services.moderation.warn(who.identity.id, username, body.reason, body.reportId)
    return OkOut(ok=True)


@router.post(
    "/api/mod/users/{username}/mute",
    response_model=MutedOut,
    responses=errors(400, 401, 403, 404),
    summary="Mute a player's chat for a time",
)
async def mute(username: str, body: MuteIn, who: Mod, services: ServicesDep) -> MutedOut:
    """Until then their lines are refused (``chat.muted``); ``minutes`` 0 lifts it."""
    until = await services.moderation.mute(
        who.identity.id, username, body.minutes, body.reason, body.reportId
    )
    return MutedOut(ok=True, until=until)


@router.post(
    "/api/mod/users/{username}/restrict",
    response_model=OkOut,
    responses=errors(400, 401, 403, 404),
    summary="Make a player's chat visible only to themselves",
)
async def restrict(username: str, body: RestrictIn, who: Mod, services: ServicesDep) -> OkOut:
    """The lines they write from now on are shown to them alone (``on``: false lifts it)."""
    await services.moderation.restrict(
        who.identity.id, username, body.on, body.reason, body.reportId
    )
    return OkOut(ok=True)


@router.post(
    "/api/mod/users/{username}/close",
    response_model=OkOut,
    responses=errors(400, 401, 403, 404, 409),
    summary="Close a player's account",
)
async def close(
    username: str, body: ActionIn, who: Mod, services: ServicesDep, request: Request
) -> OkOut:
    """As its owner closes it (docs/decisions/account-control.md); 409 ``account.closed``
    if it is closed already."""
    base = base_url(request)

    async def closer(player_id: str) -> Any:
        return await close_account(services, player_id, base)

    await services.moderation.close(who.identity.id, username, body.reason, body.reportId, closer)
    return OkOut(ok=True)


@router.post(
    "/api/mod/chat/{line_id}/hide",
    response_model=OkOut,
    responses=errors(400, 401, 403, 404),
    summary="Hide a chat line from everyone",
)
async def hide(line_id: int, body: ActionIn, who: Mod, services: ServicesDep) -> OkOut:
    """Gone from the kept chat, and from the pages showing it (``chatHidden``)."""
    await services.moderation.hide(who.identity.id, line_id, body.reason, body.reportId)
    return OkOut(ok=True)


@router.get(
    "/api/mod/log",
    response_model=LogListOut,
    responses=errors(400, 401, 403, 404),
    summary="The audit log",
)
async def audit_log(
    _who: Mod,
    services: ServicesDep,
    username: Annotated[str | None, Query(max_length=100)] = None,
) -> LogListOut:
    """Every moderator's action, newest first (the latest 50; of one player's with
    ``username``)."""
    return LogListOut.model_validate({"entries": await services.moderation.log(username)})


# ---- the page ----------------------------------------------------------------------------
@page_router.get("/mod")
async def mod_page(request: Request, services: ServicesDep) -> Response:
    """The moderation page, for moderators: anyone else gets it answered 401 or 403 (the
    page then says why, from the API's refusal)."""
    status = 200
    try:
        who = await resolve(request, services, frozenset())
        if who.username is None:
            status = 401
        elif not await services.moderation.is_moderator(who.identity.id):
            raise required()
    except ServiceError as exc:
        status = exc.status
    return STATIC.page("mod.html", request, status_code=status)
