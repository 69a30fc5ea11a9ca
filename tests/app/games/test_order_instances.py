"""A game socket's messages in ply order across instances (docs/protocol.md, "Order"): two
app instances on one PostgreSQL, the other instance's ``state`` (a join) held back until
after a newer ``move`` made here, as a slow notification would be. The socket never gets the
older ``state``: it gets the game read afresh instead."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.time import ManualClock
from app.main import create_app
from app.realtime.messages import GameUpdate, game_channel
from tests.app.accounts_and_streams import services_of
from tests.app.conftest import Player, invite_token, make_settings, receive, send


@pytest.fixture
def two_instances(
    postgres_url: str, tmp_path: Path, clock: ManualClock
) -> Iterator[tuple[TestClient, TestClient]]:
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    one = TestClient(create_app(make_settings(postgres_url, tmp_path / "one"), clock))
    two = TestClient(create_app(make_settings(postgres_url, tmp_path / "two"), clock))
    with one, two:
        yield one, two


class Held:
    """Instance ``client``'s hub, holding back the game's updates at one ply until told."""

    def __init__(self, client: TestClient, game_id: str, ply: int) -> None:
        self.client = client
        self.hub = services_of(client).hub
        self.deliver = self.hub.deliver
        self.channel, self.ply = game_channel(game_id), ply
        self.held: list[object] = []
        self.arrived = asyncio.Event()  # (made on the test's thread: bound on first wait)
        self.hub.deliver = self._deliver

    def _deliver(self, channel: str, message: object) -> None:
        if channel == self.channel and isinstance(message, GameUpdate) and message.ply == self.ply:
            self.held.append(message)
            self.arrived.set()
            return
        self.deliver(channel, message)

    def wait(self) -> None:
        assert self.client.portal is not None
        self.client.portal.call(asyncio.wait_for, self.arrived.wait(), 30)

    def release(self) -> None:
        def deliver_held() -> None:
            self.hub.deliver = self.deliver
            for message in self.held:
                self.deliver(self.channel, message)

        assert self.client.portal is not None
        self.client.portal.call(deliver_held)


def plies(ws: Any, until: str) -> list[tuple[str, int]]:
    """The ``state`` and ``move`` messages' (type, ply), through the next ``until``."""
    seen = []
    for _ in range(30):
        message = ws.receive_json()
        if message["type"] in ("state", "move"):
            seen.append((message["type"], message["ply"]))
        if message["type"] == until:
            return seen
    raise AssertionError(f"no {until!r} among the next 30 messages")


def test_a_join_told_late_by_the_other_instance_does_not_take_the_page_back_a_move(
    two_instances: tuple[TestClient, TestClient],
):
    one, two = two_instances
    alice, bob = Player(one, "alice"), Player(two, "bob")
    created = alice.create("dobutsu")
    game_id = created["id"]
    with alice.socket(game_id) as a:
        assert receive(a, "state")["game"]["status"] == "created"
        late = Held(one, game_id, ply=0)
        response = bob.post(f"/api/invite/{invite_token(created)}")  # on the other instance
        assert response.status_code == 200, response.text
        late.wait()  # instance one has heard the join, and holds it back
        send(a, type="move", move="b2b3", ply=0)
        assert receive(a, "move")["ply"] == 1
        late.release()  # the join's state (ply 0) now reaches alice's socket
        state = receive(a, "state")
        assert state["ply"] == 1  # the game read now, not the join's older state
        assert state["game"]["status"] == "started" and state["game"]["moves"] == ["b2b3"]
        assert state["game"]["players"]["second"] is not None
        assert "me" not in state  # as a change is told, not a reconnection
        send(a, type="ping")
        seen = plies(a, "pong")
        assert all(ply >= 1 for _kind, ply in seen)
