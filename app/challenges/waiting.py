"""Waiting for a challenge's answer on the challenger's behalf: lichess's kept-alive
challenge (``keepAliveStream``: the request stays open until the answer, and closing it
withdraws the challenge) and ``POST /api/challenge/ai`` (the built-in opponent's answer,
within a time of the app's clock). The challenger's event channel wakes the wait (a
``gameStart`` or a decline); the stored status decides.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from app.botapi.gamestream import detach
from app.botapi.streams import KEEPALIVE, line, next_message
from app.challenges.service import ChallengeService
from app.db.models import Challenge
from app.domain.enums import ChallengeStatus
from app.domain.players import Identity
from app.http.deps import Services
from app.realtime.hub import CLOSING, Subscription
from app.realtime.messages import player_channel

# How often a wait reads the stored status even if no message came (one may be missed).
RECHECK_SECONDS = 1.0


async def kept_alive(
    services: Services, who: Identity, first: dict[str, Any], base: str
) -> AsyncIterator[bytes]:
    """The challenge, keep-alive lines while it waits, then ``{"done": status}``. The
    stream's end is the one place the challenge is withdrawn: if it was not answered by
    then, the challenger closed the request (or the server is shutting down)."""
    keepalive = services.settings.keepalive_seconds
    status = ChallengeStatus.CREATED
    try:
        async with services.hub.subscribe(player_channel(who.id)) as sub:
            yield line(first)
            status = ChallengeStatus((await services.challenges.get(first["id"])).status)
            while status == ChallengeStatus.CREATED:
                text = await next_message(sub, keepalive)
                if text is CLOSING:
                    return
                if text is None:
                    yield KEEPALIVE
                status = ChallengeStatus((await services.challenges.get(first["id"])).status)
            yield line({"done": status})
    finally:
        if status == ChallengeStatus.CREATED:
            # (Detached: a closing stream's own task is being cancelled.)
            detach(withdrawn(services.challenges, who, first["id"], base))


async def withdrawn(
    challenges: ChallengeService, who: Identity, challenge_id: str, base: str
) -> None:
    await challenges.withdraw(who, challenge_id, base)


async def answer_of(
    challenges: ChallengeService, sub: Subscription, challenge: Challenge, seconds: float
) -> Challenge:
    """The challenge once answered, or as it stands after ``seconds`` of the challenges'
    clock (then the caller withdraws it), or at once if the server is shutting down.
    ``sub``: the challenger's player channel, subscribed before the challenge was made."""
    clock = challenges.clock
    expired = asyncio.Event()
    timer = clock.call_at(clock.now_ms() + round(seconds * 1000), expired.set)
    expiry = asyncio.ensure_future(expired.wait())
    try:
        while challenge.status == ChallengeStatus.CREATED and not expired.is_set():
            message = asyncio.ensure_future(next_message(sub, RECHECK_SECONDS))
            await asyncio.wait((message, expiry), return_when=asyncio.FIRST_COMPLETED)
            if not message.done():  # the time is up: only the wait for a message is cut
                message.cancel()
                await asyncio.wait((message,))
            challenge = await challenges.get(challenge.id)
            if message.done() and not message.cancelled() and message.result() is CLOSING:
                break
    finally:
        timer.cancel()
        expiry.cancel()
    return challenge
