"""The players' ratings in a challenge's JSON, which lichess-bot's challenge filters read
(``challenge["challenger"]["rating"]``): in the event stream's ``challenge`` line, in
``GET /api/challenge`` and in the create answer."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.botapi.eventlines import ChallengeOut
from tests.app.accounts_and_streams import Account, Lines, challenge, check
from tests.app.matchmaking.test_pools import set_rating


@pytest.fixture
def fast(make_client: Any) -> TestClient:
    client: TestClient = make_client(keepalive_seconds=0.1)
    return client


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
