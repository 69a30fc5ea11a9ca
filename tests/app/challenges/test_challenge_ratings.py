"""The players' ratings in a challenge's JSON, which lichess-bot's challenge filters read
(``challenge["challenger"]["rating"]``): in the event stream's ``challenge`` line, in
``GET /api/challenge`` and in the create answer."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.botapi.eventlines import ChallengeOut
from app.db.models import PlayerRating
from tests.app.accounts_and_streams import Account, Lines, challenge, check, services_of


@pytest.fixture
def fast(make_client: Any) -> TestClient:
    client: TestClient = make_client(keepalive_seconds=0.1)
    return client


def set_rating(client: TestClient, account: Account, variant: str, rating: float) -> None:
    """An established rating (RD 60: not provisional) as of now."""

    async def write() -> None:
        services = services_of(client)
        async with services.games.sessions() as session, session.begin():
            session.add(
                PlayerRating(
                    player_id=account.id,
                    variant=variant,
                    rating=rating,
                    deviation=60.0,
                    volatility=0.06,
                    games=30,
                    rated_ms=services.games.now(),
                )
            )

    client.portal.call(write)  # type: ignore[union-attr]


def test_a_challenge_carries_both_players_ratings_in_its_game(fast):
    alice, robot = Account(fast, "alice"), Account(fast, "robot", bot=True)
    set_rating(fast, alice, "dobutsu", 1742.4)
    set_rating(fast, alice, "chess", 2100.0)  # another game's rating is not this one's
    with robot.stream("/api/stream/event") as response:
        events = Lines(response)
        created = check(ChallengeOut, challenge(alice, "robot"))
        line = events.next("challenge")["challenge"]
    # robot has never played rated: the new rating, provisional, as lichess sends it
    for sent in (created, line):
        assert sent["challenger"] == {
            "id": alice.id,
            "name": "alice",
            "title": None,
            "rating": 1742,
        }
        assert sent["destUser"] == {
            "id": robot.id,
            "name": "robot",
            "title": "BOT",
            "rating": 1500,
            "provisional": True,
        }
    listed = robot.get("/api/challenge").json()["in"][0]
    assert listed["challenger"]["rating"] == 1742
    assert listed["destUser"]["rating"] == 1500 and listed["destUser"]["provisional"] is True
