"""Waiting for a challenge's answer on the challenger's behalf (app/challenges/waiting.py):
the built-in opponent's answer within a time of the app's clock, a kept-alive challenge
withdrawn once when its request closes, and challenge statuses read as the enum."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from app.challenges.waiting import answer_of
from app.core.time import ManualClock
from app.db.models import Challenge
from app.domain.enums import ChallengeStatus
from app.domain.players import Identity
from app.realtime.messages import player_channel
from tests.app.accounts_and_streams import Account, Lines, services_of
from tests.app.conftest import settle

ROOT = Path(__file__).resolve().parents[3]


async def _awaited(
    client: TestClient, clock: ManualClock, challenge_id: str, during: Any
) -> Challenge:
    """``answer_of`` (20 s) of the challenger alice, and ``during`` run on the loop while it
    waits."""
    challenges = services_of(client).challenges
    async with challenges.hub.subscribe(player_channel("alice")) as sub:
        challenge = await challenges.get(challenge_id)
        waiting = asyncio.ensure_future(answer_of(challenges, sub, challenge, 20))
        try:
            await asyncio.sleep(0)  # the wait has begun: its time runs from now
            await during(waiting)
            return await asyncio.wait_for(waiting, 10)  # (a safety net, never reached)
        finally:
            waiting.cancel()


def test_the_answer_is_awaited_on_the_apps_clock(client: TestClient, clock: ManualClock):
    alice, robot = Account(client, "alice"), Account(client, "robot", bot=True)
    created = alice.post("/api/challenge/robot", {"variant": "dobutsu"}).json()

    async def unanswered(waiting: asyncio.Future[Challenge]) -> None:
        await clock.advance_async(19_999)
        assert not waiting.done()  # (the robot never answers)
        await clock.advance_async(1)  # the time is up on the app's clock, not the wall's

    portal: Any = client.portal
    challenge = portal.call(_awaited, client, clock, created["id"], unanswered)
    assert challenge.status == ChallengeStatus.CREATED  # the caller withdraws it
    assert robot.get(f"/api/challenge/{created['id']}/show").json()["status"] == "created"


def test_an_answer_within_the_time_ends_the_wait(client: TestClient, clock: ManualClock):
    alice, robot = Account(client, "alice"), Account(client, "robot", bot=True)
    created = alice.post("/api/challenge/robot", {"variant": "dobutsu"}).json()
    challenges = services_of(client).challenges

    async def accepted(waiting: asyncio.Future[Challenge]) -> None:
        await challenges.accept(Identity(robot.id, "robot"), created["id"])

    portal: Any = client.portal
    challenge = portal.call(_awaited, client, clock, created["id"], accepted)
    assert challenge.status == ChallengeStatus.ACCEPTED


def _counted_withdrawals(client: TestClient) -> list[str]:
    challenges = services_of(client).challenges
    real = challenges.withdraw
    calls: list[str] = []

    async def withdraw(who: Any, challenge_id: str, base: str) -> bool:
        calls.append(challenge_id)
        done: bool = await real(who, challenge_id, base)
        return done

    challenges.withdraw = withdraw
    return calls


def test_closing_a_kept_alive_challenge_withdraws_it_once(make_client: Any):
    fast = make_client(keepalive_seconds=0.1)
    alice, robot = Account(fast, "alice"), Account(fast, "robot", bot=True)
    calls = _counted_withdrawals(fast)
    body = {"variant": "dobutsu", "keepAliveStream": True}
    with alice.stream("/api/challenge/robot", method="POST", json=body) as response:
        challenge_id = Lines(response).next()["id"]
    settle(fast)
    assert calls == [challenge_id]
    assert alice.get(f"/api/challenge/{challenge_id}/show").json()["status"] == "canceled"
    # An answered one is not withdrawn at all: its stream ended with the answer.
    with alice.stream("/api/challenge/robot", method="POST", json=body) as response:
        lines = Lines(response)
        answered = lines.next()["id"]
        assert robot.post(f"/api/challenge/{answered}/decline").status_code == 200
        assert lines.rest() == [{"done": "declined"}]
    settle(fast)
    assert calls == [challenge_id]


def test_challenge_statuses_are_compared_as_the_enum():
    """``ChallengeStatus`` (app/domain/enums.py), never its values spelt out beside it."""
    spelt = re.compile(
        r"""(==|!=|\bin)\s*\(?\s*["'](created|accepted|declined|canceled|expired)["']"""
    )
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for folder in ("app/challenges", "app/botapi")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for n, text in enumerate(path.read_text().splitlines(), start=1)
        if spelt.search(text)
    ]
    assert found == []
