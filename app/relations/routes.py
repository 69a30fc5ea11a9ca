"""Following players (docs/api.md, "Relations"): lichess's ``POST /api/rel/follow/{username}``,
``POST /api/rel/unfollow/{username}`` and ``GET /api/rel/following`` (NDJSON), as berserk's
``relations`` client calls them, and what the site's pages read: the followed players online
or playing (the lobby's list) and one player's status (the profile's dot and button).

Accounts only, by token or by the browser's cookie (``account_caller``); a player's status is
public, as on lichess."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field

from app.accounts.schemas import PerfOut
from app.botapi.callers import limit
from app.core.jsontext import json_text
from app.http.auth import Caller, account_caller, caller
from app.http.deps import ServicesDep
from app.http.responses import NDJSONResponse, errors, ndjson
from app.relations.service import MAX_LIVE, Now, user_json

router = APIRouter(tags=["relations"])
Member = Annotated[Caller, Depends(account_caller())]
Anyone = Annotated[Caller, Depends(caller())]


class OkOut(BaseModel):
    ok: bool


class FollowedOut(BaseModel):
    id: str
    username: str
    title: str | None = Field(default=None, description='"BOT"; absent for none')
    createdAt: int
    perfs: dict[str, PerfOut] = Field(description="a rating per game played rated")


class NowOut(BaseModel):
    id: str
    username: str
    title: str | None = Field(default=None, description='"BOT"; absent for none')
    online: bool = Field(description="a page or an event stream of theirs is open")
    playing: bool = Field(description="a game of theirs is on")
    playingId: str | None = Field(default=None, description="that game (the latest started)")


class LiveOut(BaseModel):
    count: int = Field(description="how many players you follow")
    users: list[NowOut] = Field(
        description=f"those online or playing, by name (at most {MAX_LIVE})"
    )


class StatusOut(NowOut):
    following: bool | None = Field(
        default=None, description="whether you follow them; absent for a guest and for yourself"
    )
    blocking: bool | None = Field(
        default=None, description="whether you block them; absent for a guest and for yourself"
    )


class BlockedOut(BaseModel):
    id: str
    username: str
    title: str | None = Field(default=None, description='"BOT"; absent for none')
    blockedAt: int = Field(description="when you blocked them (ms since the epoch)")


def now_out(now: Now) -> NowOut:
    return NowOut(
        id=now.id,
        username=now.username,
        title=now.title,
        online=now.online,
        playing=now.playing is not None,
        playingId=now.playing,
    )


@router.post(
    "/api/rel/follow/{username}",
    response_model=OkOut,
    responses=errors(400, 401, 404, 409),
    summary="Follow a player",
)
async def follow(username: str, who: Member, services: ServicesDep) -> OkOut:
    """From now on you follow this account (following again changes nothing). Not
    yourself (``400 follow.self``); at most 5000 players (``409 follow.limit``)."""
    await services.relations.follow(who.identity.id, username)
    return OkOut(ok=True)


@router.post(
    "/api/rel/unfollow/{username}",
    response_model=OkOut,
    responses=errors(401, 404),
    summary="Unfollow a player",
)
async def unfollow(username: str, who: Member, services: ServicesDep) -> OkOut:
    """You no longer follow this account (not following it changes nothing)."""
    await services.relations.unfollow(who.identity.id, username)
    return OkOut(ok=True)


@router.get(
    "/api/rel/following",
    response_class=NDJSONResponse,
    responses=ndjson(FollowedOut, "one line per account you follow, the latest followed first"),
    summary="The players you follow",
)
async def following(who: Member, request: Request, services: ServicesDep) -> NDJSONResponse:
    """One line per account you follow: as ``GET /api/user/{username}`` without ``count``
    and ``playing``. Counts as opening a stream in the rate limits."""
    limit(services, "stream", who, request)
    relations = services.relations

    async def lines() -> AsyncIterator[bytes]:
        async for players in relations.followed(who.identity.id):
            perfs = await relations.perfs([p.id for p in players])
            for player in players:
                yield (json_text(user_json(player, perfs)) + "\n").encode()

    return NDJSONResponse(lines())


@router.get(
    "/api/rel/following/live",
    response_model=LiveOut,
    response_model_exclude_none=True,
    responses=errors(401),
    summary="The players you follow who are online or playing",
)
async def following_live(who: Member, services: ServicesDep) -> LiveOut:
    """The lobby's "Following" list: how many players you follow, and those of them with a
    page or an event stream open, or a game on (its id to watch it)."""
    count, users = await services.relations.live(who.identity.id)
    return LiveOut(count=count, users=[now_out(u) for u in users])


@router.get(
    "/api/rel/status/{username}",
    response_model=StatusOut,
    response_model_exclude_none=True,
    responses=errors(404),
    summary="Whether a player is online or playing, and whether you follow them",
)
async def status(username: str, who: Anyone, services: ServicesDep) -> StatusOut:
    """A profile's dot and its Follow button: ``online``, ``playing`` (``playingId``: the
    game), and ``following`` for an account looking at another."""
    viewer = who.identity.id if who.username is not None else None
    now, followed = await services.relations.now(viewer, username)
    blocking = None
    if viewer is not None and viewer != now.id:
        blocking = await services.relations.blocks.blocks(viewer, now.id)
    return StatusOut(**now_out(now).model_dump(), following=followed, blocking=blocking)


# ---- blocking (app/relations/blocks.py) ----------------------------------------------------
@router.post(
    "/api/rel/block/{username}",
    response_model=OkOut,
    responses=errors(400, 401, 404, 409),
    summary="Block a player",
)
async def block(username: str, who: Member, services: ServicesDep) -> OkOut:
    """From now on you block this account (blocking again changes nothing): neither of you
    can challenge the other, take a seat of the other's games or be paired with them, and
    their chat lines no longer reach you. Neither follows the other any more. Not yourself
    (``400 block.self``); at most 1000 players (``409 block.limit``)."""
    blocked = await services.relations.find(username)
    await services.relations.blocks.block(who.identity.id, blocked)
    return OkOut(ok=True)


@router.post(
    "/api/rel/unblock/{username}",
    response_model=OkOut,
    responses=errors(401, 404),
    summary="Unblock a player",
)
async def unblock(username: str, who: Member, services: ServicesDep) -> OkOut:
    """You no longer block this account (not blocking it changes nothing)."""
    blocked = await services.relations.find(username)
    await services.relations.blocks.unblock(who.identity.id, blocked)
    return OkOut(ok=True)


@router.get(
    "/api/rel/blocking",
    response_class=NDJSONResponse,
    responses=ndjson(BlockedOut, "one line per account you block, the latest blocked first"),
    summary="The players you block",
)
async def blocking(who: Member, request: Request, services: ServicesDep) -> NDJSONResponse:
    """Yours only: nobody else learns whom you block (nor the blocked that they are)."""
    limit(services, "stream", who, request)
    blocks = services.relations.blocks

    async def lines() -> AsyncIterator[bytes]:
        async for players in blocks.listed(who.identity.id):
            for player in players:
                out = BlockedOut(
                    id=player.id, username=player.username, title=player.title,
                    blockedAt=player.since_ms,
                )  # fmt: skip
                yield (out.model_dump_json(exclude_none=True) + "\n").encode()

    return NDJSONResponse(lines())
