"""The composition root (app/main.py): a start that fails leaves nothing running."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.core.config import Settings
from app.core.running import Running
from app.core.time import ManualClock
from app.games.timekeeper import Timekeeper
from app.lobby.feed import LobbyFeed
from app.main import create_app
from app.matchmaking.service import PoolService
from app.outbox.consumer import OutboxConsumer
from app.realtime.hub import LocalHub, PostgresHub
from app.realtime.presencefeed import PresenceFeed
from app.rematch.service import Rematches


class Refused(Exception):
    pass


def test_a_start_that_fails_stops_everything_started_before_it(
    settings: Settings, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
):
    stopped: list[str] = []
    kinds = (LocalHub, PostgresHub, OutboxConsumer, PresenceFeed, Timekeeper, LobbyFeed)
    for kind in kinds:
        original = kind.__dict__["stop"]
        name = "hub" if issubclass(kind, LocalHub) else kind.__name__

        async def stop(self: Any, original: Any = original, name: str = name) -> None:
            stopped.append(name)
            await original(self)

        monkeypatch.setattr(kind, "stop", stop)

    async def refuse(self: PoolService) -> None:
        raise Refused

    monkeypatch.setattr(PoolService, "start", refuse)
    rematch_started: list[bool] = []
    original_start = Rematches.start

    async def start_rematches(self: Rematches) -> None:
        rematch_started.append(True)
        await original_start(self)

    monkeypatch.setattr(Rematches, "start", start_rematches)
    left: list[asyncio.Task[Any]] = []

    async def lifespan() -> None:
        app = create_app(settings, clock)
        with pytest.raises(Refused):
            async with app.router.lifespan_context(app):
                pytest.fail("the app started")
        left.extend(t for t in asyncio.all_tasks() if t is not asyncio.current_task())

    asyncio.run(lifespan())
    # Stopped in the reverse order of their starts; nothing after the failure started.
    assert stopped == ["LobbyFeed", "Timekeeper", "PresenceFeed", "OutboxConsumer", "hub"]
    assert rematch_started == []
    assert left == []


def test_running_stops_in_reverse_order_and_passes_the_failure_on():
    calls: list[str] = []

    class Service:
        def __init__(self, name: str, fails: bool = False) -> None:
            self.name, self.fails = name, fails

        async def start(self) -> None:
            if self.fails:
                raise Refused(self.name)
            calls.append(f"start {self.name}")

        async def stop(self) -> None:
            calls.append(f"stop {self.name}")

    async def run() -> None:
        async with Running() as running:
            running.on_stop(lambda: _record(calls, "dispose"))
            await running.start(Service("a"))
            await running.start(Service("b"))
            await running.start(Service("c", fails=True))

    with pytest.raises(Refused):
        asyncio.run(run())
    assert calls == ["start a", "start b", "stop b", "stop a", "dispose"]


async def _record(calls: list[str], name: str) -> None:
    calls.append(name)
