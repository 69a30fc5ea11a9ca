"""Challenges (to a user, open to anyone), their answers, and ``POST /api/board/seek``.

Bodies are JSON or forms read as lichess reads them (``clock.limit=300``, ``rules.traps=any``;
``null`` or ``""``: not given; bodies.py). Browsers call these with their cookie: the lobby's
"play the computer" is ``POST /api/challenge/{bot}`` then ``GET /api/challenge/{id}/show``
until accepted. ``POST /api/challenge/ai`` challenges a built-in opponent, lichess's way.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import Field

from app.botapi.bodies import (
    AiChallengeIn,
    ChallengeIn,
    DeclineIn,
    OpenChallengeIn,
    UserChallengeIn,
)
from app.botapi.callers import limit
from app.botapi.eventlines import ChallengeOut, ChallengesOut, GameJsonOut
from app.botapi.models import DoneOut
from app.builtin.seats import PREFIX
from app.builtin.service import AI_LEVELS
from app.challenges.lichess import game_json
from app.challenges.terms import Terms
from app.challenges.waiting import answer_of, kept_alive
from app.core.errors import ServiceError
from app.domain.enums import ChallengeStatus
from app.games import Identity
from app.http.auth import Caller, caller
from app.http.bodies import form_or_json, read_body
from app.http.deps import Services, ServicesDep
from app.http.responses import NDJSONResponse, base_url, errors
from app.realtime.messages import player_channel

router = APIRouter(prefix="/api", tags=["challenges"])
Reader = Annotated[Caller, Depends(caller("challenge:read"))]
Writer = Annotated[Caller, Depends(caller("challenge:write"))]
Anyone = Annotated[Caller, Depends(caller())]
WRITE_ERRORS = errors(400, 401, 403, 404, 409, 429)
# How long POST /api/challenge/ai waits for the built-in opponent to accept.
AI_ANSWER_SECONDS = 20.0


class AcceptedOut(DoneOut):
    challenge: ChallengeOut = Field(description="the challenge now (accepted: gameId)")


def terms_of(body: ChallengeIn | AiChallengeIn) -> Terms:
    return Terms.asked(
        variant=body.variant,
        rules=body.rules,
        limit=None if body.clock is None else body.clock.limit,
        increment=0 if body.clock is None else body.clock.increment,
        days=body.days,
        color=body.color,
        rated=body.rated if isinstance(body, ChallengeIn) else False,
        fen=body.fen,
        byoyomi=0 if body.clock is None else body.clock.byoyomi,
        periods=0 if body.clock is None else body.clock.periods,
    )


def unsupported(field: str, why: str) -> ServiceError:
    """A lichess field whose meaning this server cannot honour: refused, never ignored."""
    return ServiceError("request.unsupported", f"{field} is not supported here: {why}")


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
    openapi_extra=form_or_json(OpenChallengeIn),
    summary="Create an open challenge",
)
async def open_challenge(who: Anyone, services: ServicesDep, request: Request) -> ChallengeOut:
    """No account needed. Anyone who opens ``url`` takes a free seat (``urlWhite`` /
    ``urlBlack``: that colour); the game starts when both seats are taken."""
    body = await read_body(request, OpenChallengeIn, lichess=True)
    terms = terms_of(body)
    if body.users is not None:
        raise unsupported("users", "anyone with the links may take the seats")
    if body.expiresAt is not None:
        raise unsupported("expiresAt", "a challenge expires after KODAMA_CHALLENGE_EXPIRE_MINUTES")
    limit(services, "challenge", who, request)
    challenge = await services.challenges.create_open(who.identity, terms, body.name)
    return await challenge_out(services, challenge, request)


@router.post(
    "/challenge/ai",
    response_model=GameJsonOut,
    responses={**WRITE_ERRORS, **errors(503)},
    openapi_extra=form_or_json(AiChallengeIn),
    summary="Play a built-in computer opponent",
)
async def challenge_ai(who: Writer, services: ServicesDep, request: Request) -> GameJsonOut:
    """lichess's AI challenge: ``level`` 1-8 picks a built-in opponent (1-2 kodama-random,
    3-4 kodama-easy, 5-6 kodama-medium, 7-8 kodama-hard). It is challenged as any bot, accepts
    as usual, and the answer is the started game. ``503 ai.unavailable`` if the built-in
    opponents are off, not running yet, or do not accept in time (the challenge is then
    withdrawn); a decline is ``409 challenge.declined``."""
    body = await read_body(request, AiChallengeIn, lichess=True)
    terms = terms_of(body)
    if not services.settings.builtin_bots:
        raise ai_unavailable("the built-in computer opponents are off on this server")
    username = PREFIX + AI_LEVELS[body.level]
    limit(services, "challenge", who, request)
    base = base_url(request)
    async with services.hub.subscribe(player_channel(who.identity.id)) as sub:
        try:
            challenge = await services.challenges.create(who.identity, username, terms, base)
        except ServiceError as exc:
            if exc.code == "user.not_found":  # the server makes its accounts as it starts
                raise ai_unavailable(f"{username} is not there yet: try again shortly") from None
            raise
        challenge = await answer_of(services.challenges, sub, challenge, AI_ANSWER_SECONDS)
    if challenge.status == ChallengeStatus.CREATED and not await services.challenges.withdraw(
        who.identity, challenge.id, base
    ):
        challenge = await services.challenges.get(challenge.id)  # accepted at the last moment
    if challenge.status == ChallengeStatus.DECLINED:
        raise ServiceError(
            "challenge.declined",
            f"{username} declined ({challenge.decline_reason}): try again later",
            409,
            declineReason=challenge.decline_reason,
        )
    if challenge.status != ChallengeStatus.ACCEPTED:
        raise ai_unavailable(f"{username} did not answer: is it running?")
    game = await services.games.reads.get(challenge.id)
    side = services.games.reads.seat_of(game, who.identity.id) or "first"
    return GameJsonOut.model_validate(game_json(game, side, "ai"))


def ai_unavailable(why: str) -> ServiceError:
    return ServiceError("ai.unavailable", why, 503)


@router.post(
    "/challenge/{username}",
    response_model=ChallengeOut,
    response_model_exclude_unset=True,
    responses=WRITE_ERRORS,
    openapi_extra=form_or_json(UserChallengeIn),
    summary="Challenge a player",
)
async def create_challenge(
    username: str, who: Writer, services: ServicesDep, request: Request
) -> ChallengeOut | NDJSONResponse:
    """The challenged player's event stream gets a ``challenge`` event (and yours a copy).
    With ``acceptByToken`` (the challenged player's token, scope challenge:write) it is
    accepted at once: the answer is the accepted challenge with its ``game``. With
    ``keepAliveStream=true`` the answer is NDJSON: the challenge, keep-alive lines while it
    waits, then ``{"done": "<its status>"}`` once answered; closing it cancels the challenge."""
    body = await read_body(request, UserChallengeIn, lichess=True)
    terms = terms_of(body)
    acceptor = None
    if body.acceptByToken is not None:
        acceptor = await accepting_player(services, username, body.acceptByToken)
    limit(services, "challenge", who, request)
    base = base_url(request)
    challenge = await services.challenges.create(who.identity, username, terms, base)
    if body.keepAliveStream and acceptor is None:
        first = (await challenge_out(services, challenge, request)).model_dump(exclude_unset=True)
        return NDJSONResponse(kept_alive(services, who.identity, first, base))
    if acceptor is None:
        return await challenge_out(services, challenge, request)
    challenge = await services.challenges.accept(acceptor, challenge.id)
    out = await challenge_out(services, challenge, request)
    game = await services.games.reads.get(challenge.id)
    side = services.games.reads.seat_of(game, who.identity.id) or "first"
    out.game = GameJsonOut.model_validate(game_json(game, side, "friend"))
    return out


async def accepting_player(services: Services, username: str, token: str) -> Identity:
    """The challenged player, if ``token`` is theirs and may accept challenges."""
    owner = await services.accounts.check_token(token)
    if (
        owner is None
        or owner.player.username is None
        or owner.player.username.lower() != username.lower()
        or "challenge:write" not in owner.scopes
    ):
        raise ServiceError(
            "challenge.accept_token",
            f"acceptByToken must be a valid API token of {username} with the scope challenge:write",
        )
    return Identity(owner.player.id, owner.player.name)


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
    body = await read_body(request, DeclineIn, empty_ok=True, lichess=True)
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
