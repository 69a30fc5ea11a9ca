"""``POST /api/analysis/moves`` off the event loop and bounded: the replay runs in a worker
process (not in the server's), each visitor and address has a rate limit (429 ``ratelimit``,
key ``analysis``), and the instance's workers and queue are bounded (503 ``analysis.busy``,
at once, without waiting)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastapi.testclient import TestClient

import engine
from app.analysis import positions
from app.core.errors import ServiceError
from app.core.time import ManualClock
from tests.app.accounts_and_streams import assert_error, services_of
from tests.app.games.test_record import random_game

URL = "/api/analysis/moves"
LONG = random_game("gorogoro", seed=7, plies=60)


def ask(client: TestClient, **body: Any) -> Any:
    return client.post(URL, json={"variant": "gorogoro", "moves": LONG, **body})


def test_the_replay_runs_in_a_worker_process_not_the_servers(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
):
    def on_the_loop(*_args: Any) -> Any:
        raise AssertionError("the analysis was replayed in the server's own process")

    monkeypatch.setattr(positions, "line", on_the_loop)
    response = ask(client)
    assert response.status_code == 200, response.text
    found = response.json()["positions"]
    game = engine.get_game("gorogoro")
    pos = game.start()
    for text in LONG:
        pos = game.play(pos, text)
    assert len(found) == len(LONG) + 1 and found[-1]["fen"] == game.to_text(pos)
    # the engine's refusals keep their codes and index, made in the worker too
    refused = assert_error(ask(client, moves=[*LONG[:3], "a1a1"]), 422, "move.illegal")
    assert refused["index"] == 3


def test_a_visitor_past_its_rate_is_refused_with_429_until_the_bucket_refills(
    make_client: Any, clock: ManualClock, alice: Any, bob: Any
):
    client = make_client(ratelimit_analysis_per_s=0.5, ratelimit_analysis_burst=2)
    for _ in range(2):
        assert client.post(URL, json={"variant": "dobutsu"}, headers=alice.headers).is_success
    refused = client.post(URL, json={"variant": "dobutsu"}, headers=alice.headers)
    error = assert_error(refused, 429, "ratelimit")
    assert error["ratelimit"] == {"key": "analysis", "seconds": 2}
    assert refused.headers["retry-after"] == "2"
    # another visitor has their own bucket; alice's refills on the app's clock
    assert client.post(URL, json={"variant": "dobutsu"}, headers=bob.headers).is_success
    clock.advance(2000)
    assert client.post(URL, json={"variant": "dobutsu"}, headers=alice.headers).is_success


def test_past_the_workers_and_the_queue_a_request_is_refused_at_once(make_client: Any):
    client = make_client(analysis_workers=1, analysis_queue=1)
    workers = services_of(client).analysis

    async def three_at_once() -> list[Any]:
        ask = [workers.line_json("gorogoro", {}, None, LONG) for _ in range(3)]
        return await asyncio.gather(*ask, return_exceptions=True)

    assert client.portal is not None
    first, second, third = client.portal.call(three_at_once)
    assert isinstance(first, bytes) and isinstance(second, bytes)
    assert isinstance(third, ServiceError) and (third.code, third.status) == ("analysis.busy", 503)
    assert workers.replays.running == 0  # every place is given back
    # over HTTP: every place taken (as by two requests still running) is a 503 with its code
    workers.replays.running = workers.replays.capacity
    try:
        assert_error(ask(client), 503, "analysis.busy")
    finally:
        workers.replays.running = 0
    assert ask(client).is_success
