"""``Retry-After`` on every 429 the server sends: set once, from the refusal's
``ratelimit.seconds``, whichever limit refused."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.accounts.service import Limits
from app.core.errors import ServiceError
from app.core.time import ManualClock
from app.limits.ratelimit import RateLimiter
from tests.app.accounts_and_streams import Account, Lines, assert_error, services_of
from tests.app.chat.conftest import account
from tests.app.conftest import Player, started_game

# What this module tests is the same on either database (tests/app/conftest.py).
pytestmark = pytest.mark.sqlite_only

MakeClient = Callable[..., TestClient]
SLOW = 0.01  # a bucket refilled this slowly stays empty for the whole test
STILL = ManualClock()  # the limiters' time: it stands still


def assert_retry_after(response: Any, key: str) -> dict[str, Any]:
    """A 429 whose ``Retry-After`` header (whole seconds) is the body's ``seconds``."""
    body = assert_error(response, 429, "ratelimit")
    assert body["ratelimit"]["key"] == key, body
    seconds = body["ratelimit"]["seconds"]
    assert isinstance(seconds, int) and seconds >= 1, body
    assert response.headers["retry-after"] == str(seconds)
    return body


def _move_429(make_client: MakeClient) -> Any:
    player = Player(make_client(ratelimit_move_burst=1, ratelimit_move_per_s=SLOW), "p")
    assert player.post("/api/board/game/nothere/resign").status_code == 404
    return player.post("/api/board/game/nothere/resign")


def _challenge_429(make_client: MakeClient) -> Any:
    client = make_client(ratelimit_challenge_burst=1, ratelimit_challenge_per_s=SLOW)
    player = Player(client, "p")
    assert player.post("/api/challenge/open", {"variant": "dobutsu"}).status_code == 200
    return player.post("/api/challenge/open", {"variant": "dobutsu"})


def _stream_429(make_client: MakeClient) -> Any:
    player = Player(make_client(ratelimit_stream_burst=1, ratelimit_stream_per_s=SLOW), "p")
    assert player.get("/api/board/game/stream/nothere").status_code == 404
    return player.get("/api/board/game/stream/nothere")


def _chat_429(make_client: MakeClient) -> Any:
    client = make_client(ratelimit_chat_burst=1, ratelimit_chat_per_s=SLOW)
    alice, bob = account(client, "alice"), account(client, "bob")  # only accounts chat
    game_id = started_game(alice, bob)
    line = {"room": "player", "text": "good luck"}
    assert alice.post(f"/api/board/game/{game_id}/chat", line).status_code == 200
    return alice.post(f"/api/board/game/{game_id}/chat", line)


def _game_429(make_client: MakeClient) -> Any:
    player = Player(make_client(ratelimit_game_burst=1, ratelimit_game_per_s=SLOW), "p")
    assert player.post("/api/games/nothere/join").status_code == 404
    return player.post("/api/games/nothere/join")


def _event_stream_429(make_client: MakeClient) -> Any:
    client = make_client(keepalive_seconds=0.1)
    robot = Account(client, "robot", bot=True)
    with robot.stream("/api/stream/event") as first:
        Lines(first).raw()
        return robot.get("/api/stream/event")


def _password_429(make_client: MakeClient) -> Any:
    client = make_client()
    services_of(client).accounts.limits = Limits(
        password=RateLimiter(SLOW, 1, STILL.monotonic),
        register=RateLimiter(1000, 1000, STILL.monotonic),
    )
    wrong = {"username": "nobody", "password": "not the password"}
    assert client.post("/api/account/login", json=wrong).status_code == 401
    return client.post("/api/account/login", json=wrong)


def _register_429(make_client: MakeClient) -> Any:
    client = make_client()
    services_of(client).accounts.limits = Limits(
        password=RateLimiter(1000, 1000, STILL.monotonic),
        register=RateLimiter(SLOW, 1, STILL.monotonic),
    )
    short = {"username": "someone", "password": "short"}  # refused, but it counts
    assert client.post("/api/account/register", json=short).status_code == 400
    return client.post("/api/account/register", json=short)


PRODUCERS_OF_429 = {
    "move": _move_429,
    "challenge": _challenge_429,
    "stream": _stream_429,
    "chat": _chat_429,
    "game": _game_429,
    "stream.event": _event_stream_429,
    "password:testclient": _password_429,
    "register:testclient": _register_429,
}


@pytest.mark.parametrize("key", sorted(PRODUCERS_OF_429))
def test_every_429_says_when_to_come_back_in_a_retry_after_header(
    make_client: MakeClient, key: str
):
    assert_retry_after(PRODUCERS_OF_429[key](make_client), key)


def test_retry_after_is_whole_seconds_of_at_least_one():
    def wait(seconds: object) -> int | None:
        return ServiceError(
            "ratelimit", "slow down", 429, ratelimit={"seconds": seconds}
        ).retry_after()

    assert (wait(0.2), wait(1), wait(2.5), wait(100)) == (1, 1, 3, 100)
    assert ServiceError("ratelimit", "slow down", 429).retry_after() == 1
    assert ServiceError("game.not_found", "no game", 404).retry_after() is None
