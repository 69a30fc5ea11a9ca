"""What a committed change sets off: the subscribers a running app registers (one list,
app/main.py ``subscribe``), and a failing subscriber stopping none of the rest."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Sequence
from typing import Any

from fastapi.testclient import TestClient

from app.db.models import Game
from app.domain.events import GameEnded, GameEvent
from app.games import Identity, game_channel
from app.games.terms import GameTerms
from app.realtime.hub import Subscription
from app.realtime.messages import GameUpdate, RatingsChanged
from tests.app.accounts_and_streams import MATE, Account, services_of


def test_a_running_app_lists_exactly_its_subscribers(client: TestClient) -> None:
    assert services_of(client).games.subscribers.names() == {
        "heard": [
            "presence",
            "timekeeper",
            "lobby feed",
            "bot event streams",
            "players' pages follow",
            "rematch offers",
        ],
        "durable": ["outbox"],
        "told": ["outbox"],
        "consumed": ["arena waves", "swiss rounds", "ratings announcer"],
    }


def _rated_game(client: TestClient, first: Account, second: Account) -> str:
    services = services_of(client)
    one, two = Identity(first.id, "one"), Identity(second.id, "two")
    game = client.portal.call(  # type: ignore[union-attr]
        lambda: services.games.setup.create_started(
            secrets.token_urlsafe(6),
            one,
            two,
            one,
            GameTerms("dobutsu", rated=True),
        )
    )
    return str(game.id)


def _next(client: TestClient, sub: Subscription) -> Any:
    async def get() -> object:
        async with asyncio.timeout(10):  # a guard only: the message is already on its way
            return await sub.get()

    return client.portal.call(get)  # type: ignore[union-attr]


def test_a_failing_subscriber_stops_nothing_of_a_committed_change(client: TestClient) -> None:
    """The moves are committed: each is answered, still goes out on the hub, the subscribers
    after the failing one still hear it, and the game's end is still consumed and told (the
    ratings), leaving nothing in the outbox's hands."""
    alice, bob = Account(client, "alice"), Account(client, "bob")
    game_id = _rated_game(client, alice, bob)
    services = services_of(client)
    subscribers = services.games.subscribers
    outbox = dict(subscribers.told)["outbox"].__self__
    heard: list[GameEvent] = []

    def broken(_game: Game, _events: Sequence[GameEvent]) -> None:
        raise RuntimeError("a subscriber's bug")

    subscribers.heard.add("broken", broken)
    subscribers.heard.add("after the broken one", lambda _game, events: heard.extend(events))
    sub = Subscription()
    client.portal.call(services.hub.listen, game_channel(game_id), sub)  # type: ignore[union-attr]
    try:
        for ply, move in enumerate(MATE, start=1):
            mover = alice if ply % 2 else bob
            response = mover.post(f"/api/board/game/{game_id}/move/{move}")
            assert response.status_code == 200, response.text
            update = _next(client, sub)
            assert isinstance(update, GameUpdate) and update.ply == ply
        assert isinstance(_next(client, sub), RatingsChanged)  # the consumption, told
    finally:
        client.portal.call(services.hub.unlisten, game_channel(game_id), sub)  # type: ignore[union-attr]
    assert len([e for e in heard if isinstance(e, GameEnded)]) == 1
    assert outbox._untold == {}
