"""Challenges (to a user, open to anyone), their answers, and ``POST /api/board/seek``.

Bodies are JSON or forms as lichess clients post them (``clock.limit=300``,
``rules.traps=any``). Browsers call these with their cookie: the lobby's "play the computer"
is ``POST /api/challenge/{bot}`` then ``GET /api/challenge/{id}/show`` until accepted.
"""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import Field
from starlette.background import BackgroundTask

from ...realtime.hub import CLOSING, RESYNC
from ...services.challenges import MAX_LIMIT_SECONDS, Terms
from ...services.errors import ServiceError
from ...services.games import ENDED, MIN_CLOCK_SECONDS, Identity, game_channel
from ...services.streams import KEEPALIVE, line, next_message
from ..auth import Caller, caller, client_ip
from ..bodies import form_or_json, read_body
from ..botmodels import (
    ChallengeIn,
    ChallengeOut,
    ChallengesOut,
    DeclineIn,
    DoneOut,
    SeekIn,
    SeekLine,
)
from ..deps import Services, ServicesDep
from .bot import (
    NDJSONResponse,
    base_url,
    board_player,
    detach,
    errors,
    json_errors,
    limit,
    ndjson,
)

router = APIRouter(prefix="/api", tags=["challenges"])
Reader = Annotated[Caller, Depends(caller("challenge:read"))]
Writer = Annotated[Caller, Depends(caller("challenge:write"))]
Anyone = Annotated[Caller, Depends(caller())]
WRITE_ERRORS = errors(400, 401, 403, 404, 409, 429)


class AcceptedOut(DoneOut):
    challenge: ChallengeOut = Field(description="the challenge now (accepted: gameId)")


def terms_of(body: ChallengeIn) -> Terms:
    return Terms(
        variant=body.variant,
        rules=body.rules,
        limit=None if body.clock is None else body.clock.limit,
        increment=0 if body.clock is None else body.clock.increment,
        days=body.days,
        color=body.color,
        rated=body.rated,
    ).checked()


async def challenge_out(services: Services, challenge: Any, request: Request) -> ChallengeOut:
    data = await services.challenges.to_json(challenge, base_url(request))
    return ChallengeOut.model_validate(data)


@router.get(
    "/challenge", response_model=ChallengesOut, responses=errors(401, 403), summary="My challenges"
)
async def list_challenges(who: Reader, services: ServicesDep, request: Request) -> ChallengesOut:
    """The challenges waiting for an answer: ``in`` (received) and ``out`` (sent)."""
    received, sent = await services.challenges.pending(who.identity.id)
    base = base_url(request)
    return ChallengesOut.model_validate(
        {
            "in": [await services.challenges.to_json(c, base, "in") for c in received],
            "out": [await services.challenges.to_json(c, base, "out") for c in sent],
        }
    )


@router.post(
    "/challenge/open",
    response_model=ChallengeOut,
    response_model_exclude_unset=True,
    responses=WRITE_ERRORS,
    openapi_extra=form_or_json(ChallengeIn),
    summary="Create an open challenge",
)
async def open_challenge(who: Anyone, services: ServicesDep, request: Request) -> ChallengeOut:
    """No account needed. Anyone who opens ``url`` takes a free seat (``urlWhite`` /
    ``urlBlack``: that colour); the game starts when both seats are taken."""
    body = await read_body(request, ChallengeIn)
    terms = terms_of(body)
    limit(services, "challenge", who, request)
    challenge = await services.challenges.create_open(who.identity, terms)
    return await challenge_out(services, challenge, request)


@router.post(
    "/challenge/{username}",
    response_model=ChallengeOut,
    response_model_exclude_unset=True,
    responses=WRITE_ERRORS,
    openapi_extra=form_or_json(ChallengeIn),
    summary="Challenge a player",
)
async def create_challenge(
    username: str, who: Writer, services: ServicesDep, request: Request
) -> ChallengeOut:
    """The challenged player's event stream gets a ``challenge`` event (and yours a copy)."""
    body = await read_body(request, ChallengeIn)
    terms = terms_of(body)
    limit(services, "challenge", who, request)
    challenge = await services.challenges.create(who.identity, username, terms, base_url(request))
    return await challenge_out(services, challenge, request)


@router.get(
    "/challenge/{challenge_id}/show",
    response_model=ChallengeOut,
    response_model_exclude_unset=True,
    responses=errors(401, 403, 404),
    summary="Show a challenge",
)
async def show_challenge(
    challenge_id: str, who: Reader, services: ServicesDep, request: Request
) -> ChallengeOut:
    """``status``: created, accepted (then ``gameId``), declined (``declineReason``),
    canceled or expired."""
    challenge = await services.challenges.get(challenge_id)
    return await challenge_out(services, challenge, request)


@router.post(
    "/challenge/{challenge_id}/accept",
    response_model=AcceptedOut,
    response_model_exclude_unset=True,
    responses=WRITE_ERRORS,
    summary="Accept a challenge (or take an open challenge's seat)",
)
async def accept_challenge(
    challenge_id: str,
    who: Writer,
    services: ServicesDep,
    request: Request,
    color: Annotated[
        str | None, Query(description="an open challenge's seat: white or black")
    ] = None,
) -> AcceptedOut:
    """The game starts at once, under the challenge's id; both players' event streams get
    ``gameStart``."""
    limit(services, "challenge", who, request)
    challenge = await services.challenges.accept(who.identity, challenge_id, color)
    return AcceptedOut(ok=True, challenge=await challenge_out(services, challenge, request))


@router.post(
    "/challenge/{challenge_id}/decline",
    response_model=DoneOut,
    responses=WRITE_ERRORS,
    openapi_extra=form_or_json(DeclineIn, required=False),
    summary="Decline a challenge",
)
async def decline_challenge(
    challenge_id: str, who: Writer, services: ServicesDep, request: Request
) -> DoneOut:
    body = await read_body(request, DeclineIn, empty_ok=True)
    limit(services, "challenge", who, request)
    await services.challenges.decline(who.identity, challenge_id, body.reason, base_url(request))
    return DoneOut()


@router.post(
    "/challenge/{challenge_id}/cancel",
    response_model=DoneOut,
    responses=WRITE_ERRORS,
    summary="Cancel a challenge you made",
)
async def cancel_challenge(
    challenge_id: str, who: Writer, services: ServicesDep, request: Request
) -> DoneOut:
    limit(services, "challenge", who, request)
    await services.challenges.cancel(who.identity, challenge_id, base_url(request))
    return DoneOut()


# ---- seeks -----------------------------------------------------------------------------------
@router.post(
    "/board/seek",
    response_class=NDJSONResponse,
    responses={
        **ndjson(SeekLine, "keep-alive lines, then the game's id once paired"),
        **json_errors(409),  # game.too_many_open
    },
    openapi_extra=form_or_json(SeekIn),
    summary="Seek an opponent",
    tags=["board"],
)
async def seek(
    who: Annotated[Caller, Depends(board_player)], services: ServicesDep, request: Request
) -> NDJSONResponse:
    """Pairs at once with the oldest compatible public game of the lobby, else opens one
    there (browsers see it too) and keeps the request open until someone takes the seat:
    then one line ``{"id": gameId}`` and the end (both event streams get ``gameStart``).
    Closing the request withdraws the seek."""
    body = await read_body(request, SeekIn)
    seconds = None
    if body.time is not None:
        # Rounded to whole seconds, then in range: under half a second rounds to no clock at
        # all, and NaN or an infinity (Python's JSON reader takes them) cannot be rounded.
        seconds = round(body.time * 60) if math.isfinite(body.time * 60) else 0
        if not MIN_CLOCK_SECONDS <= seconds <= MAX_LIMIT_SECONDS:
            raise ServiceError(
                "clock.invalid",
                f"time must make {MIN_CLOCK_SECONDS} to {MAX_LIMIT_SECONDS} seconds"
                " (minutes, rounded to whole seconds)",
            )
    if body.time is not None and body.days is not None:
        raise ServiceError("request.invalid", "give time and increment, or days, not both")
    terms = Terms(
        variant=body.variant,
        rules=body.rules,
        limit=seconds,
        increment=body.increment,
        days=body.days,
        color=body.color,
        rated=body.rated,
    ).checked()
    limit(services, "challenge", who, request)
    paired = await services.challenges.pair(who.identity, terms)
    if paired is not None:
        return NDJSONResponse(one_line({"id": paired.id}))
    address = client_ip(request)
    await services.open_games.check(address)
    game = await services.challenges.seek(who.identity, terms)
    services.open_games.add(address, game.id)
    return NDJSONResponse(
        wait_for_opponent(services, who.identity, game.id),
        background=BackgroundTask(withdraw, services, who.identity, game.id),
    )


async def one_line(data: dict[str, Any]) -> AsyncIterator[bytes]:
    yield line(data)


async def withdraw(services: Services, who: Identity, game_id: str) -> None:
    """The seeker left: cancel the open game if nobody took its seat."""
    with contextlib.suppress(ServiceError):
        game = await services.games.get(game_id)
        if game.status == "created":
            await services.games.cancel(who, game_id)


async def wait_for_opponent(
    services: Services, who: Identity, game_id: str
) -> AsyncIterator[bytes]:
    keepalive = services.settings.keepalive_seconds
    try:
        async with services.hub.subscribe(game_channel(game_id)) as sub:
            status = (await services.games.get(game_id)).status  # joined before we listened?
            while status == "created":
                text = await next_message(sub, keepalive)
                if text is None:
                    yield KEEPALIVE
                    continue
                if text == CLOSING:
                    return  # the server is shutting down: the seek is withdrawn
                if text == RESYNC:
                    status = (await services.games.get(game_id)).status
                elif text.startswith('{"type":"state"'):
                    status = json.loads(text)["game"]["status"]
            if status not in ENDED:
                yield line({"id": game_id})
    finally:
        detach(withdraw(services, who, game_id))
