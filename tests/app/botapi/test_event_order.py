"""A game's ``gameStart`` and ``gameFinish`` reach its players' event streams in that order,
however long the reads that make each line take."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.games import Identity
from app.games.terms import GameTerms
from app.realtime.messages import PlayerLine
from tests.app.accounts_and_streams import Account, services_of


class Recorder:
    """The hub of the bot event streams, recording what they publish as they publish it."""

    def __init__(self, hub: Any) -> None:
        self.hub = hub
        self.lines: list[tuple[str, str]] = []

    async def publish(self, channel: str, message: object) -> None:
        if isinstance(message, PlayerLine):
            self.lines.append((message.player_id, message.data["type"]))
        await self.hub.publish(channel, message)


async def _started_and_aborted(services: Any, one: Identity, two: Identity) -> None:
    """A game started then aborted at once, its start's line slow to read: held until both
    changes are told, and then, if the finish's line is being read already, until that is
    read too. Returns once every line went out."""
    events = services.game_events
    real = events.lines
    released, finish_read = asyncio.Event(), asyncio.Event()
    finish_started = False

    async def lines(game: Any, kind: str) -> Any:
        nonlocal finish_started
        if kind == "gameStart":
            got = await real(game, kind)
            await released.wait()
            if finish_started:
                await finish_read.wait()
            return got
        finish_started = True
        got = await real(game, kind)
        finish_read.set()
        return got

    events.lines = lines
    try:
        game = await services.games.setup.create_started(
            secrets.token_urlsafe(6),
            one,
            two,
            one,
            GameTerms("dobutsu"),
        )
        await services.games.play.abort(two, game.id)
        await asyncio.sleep(0)  # the lines' tasks take their first step
        released.set()
        while events._tasks:
            await asyncio.wait(tuple(events._tasks))
    finally:
        del events.lines


def test_a_game_aborted_at_once_reaches_the_bots_as_start_then_finish(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = Account(client, "alice", bot=True), Account(client, "bob", bot=True)
    one, two = Identity(alice.id, "alice"), Identity(bob.id, "bob")
    services = services_of(client)
    recorder = Recorder(services.game_events.hub)
    monkeypatch.setattr(services.game_events, "hub", recorder)
    for _ in range(3):
        recorder.lines.clear()
        client.portal.call(_started_and_aborted, services, one, two)  # type: ignore[union-attr]
        for player in (alice, bob):
            got = [kind for player_id, kind in recorder.lines if player_id == player.id]
            assert got == ["gameStart", "gameFinish"]
