"""Requesting a review (``POST /api/game/{id}/analysis``) and reading it: who may, the
refusals with their stable codes, one review a game, one waiting review a person, a
bounded number running at once with everyone's place in the queue, a bounded queue, and a
review that outlives its instance (docs/decisions/game-review.md)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.time import ManualClock
from app.main import create_app
from tests.app.accounts_and_streams import assert_error, services_of
from tests.app.conftest import Player, make_settings
from tests.app.review.games import Gate, finished_game, settle, turn

URL = "/api/game/{}/analysis"


def gated(client: TestClient) -> Gate:
    gate = Gate()
    services_of(client).reviews.runner.evaluate = gate
    return gate


def open_gate(client: TestClient, gate: Gate) -> None:
    assert client.portal is not None
    client.portal.call(gate.opened.set)
    settle(client)


def review(player: Player, game_id: str) -> Any:
    return player.post(URL.format(game_id))


def status(player: Player, game_id: str) -> Any:
    return player.get(URL.format(game_id)).json()


def test_anyone_may_request_a_finished_games_review_once(
    client: TestClient, alice: Player, bob: Player, carol: Player
):
    game_id = finished_game(client, alice, bob)
    assert status(carol, game_id) == {"status": "none"}
    gate = gated(client)
    asked = review(carol, game_id)  # a spectator
    assert asked.status_code == 202, asked.text
    assert asked.json()["status"] in ("queued", "running")
    turn(client)
    # Asked again, by anyone: the same review, not a second one.
    again = review(alice, game_id)
    assert again.status_code == 202
    assert again.json() == {"status": "running", "progress": {"done": 0, "total": 6}}
    open_gate(client, gate)
    done = review(bob, game_id)
    assert done.status_code == 200
    body = done.json()
    assert body["status"] == "done" and body["progress"] == {"done": 6, "total": 6}
    assert [p["move"] for p in body["plies"]] == ["b1c2", "b4a3", "c2c3", "a3a2", "c3c4"]
    assert set(body["players"]) == {"first", "second"}
    assert status(alice, game_id) == body
    assert gate.asked == 6  # each position once


def test_the_refusals(client: TestClient, alice: Player, bob: Player):
    assert_error(review(alice, "nosuchgame"), 404, "game.not_found")
    assert_error(alice.get(URL.format("nosuchgame")), 404, "game.not_found")
    playing = finished_game(client, alice, bob, moves=())
    assert_error(review(alice, playing), 409, "review.unfinished")
    assert client.portal is not None
    client.portal.call(services_of(client).games.play.resign, alice.who, playing)
    assert_error(review(bob, playing), 409, "review.no_moves")


def test_one_waiting_review_a_person_and_places_in_the_queue(
    client: TestClient, clock: ManualClock, alice: Player, bob: Player, carol: Player
):
    games = [finished_game(client, alice, bob) for _ in range(4)]
    gate = gated(client)  # one runs at once (the default): the first holds the worker
    assert review(alice, games[0]).status_code == 202
    turn(client)
    assert_error(review(alice, games[1]), 429, "review.one_at_a_time")
    clock.advance(1)  # the queue's order is the requests' (at the same instant: the ids')
    assert review(bob, games[1]).status_code == 202
    clock.advance(1)
    assert review(carol, games[2]).status_code == 202
    turn(client)
    assert status(carol, games[0])["status"] == "running"
    assert (status(alice, games[1])["status"], status(alice, games[1])["position"]) == (
        "queued",
        1,
    )
    assert status(alice, games[2])["position"] == 2
    assert gate.asked <= 1  # only the running one was started
    open_gate(client, gate)
    for game_id in games[:3]:
        assert status(alice, game_id)["status"] == "done"
    # Done, alice may ask another.
    assert review(alice, games[3]).status_code == 202


def test_running_at_once_and_waiting_are_bounded(make_client: Any, clock: ManualClock):
    client = make_client(review_workers=2, review_queue_max=1)
    alice, bob, carol, dave = (Player(client, n) for n in ("alice", "bob", "carol", "dave"))
    games = [finished_game(client, alice, bob) for _ in range(4)]
    gate = gated(client)
    for player, game_id in zip((alice, bob, carol), games, strict=False):
        assert review(player, game_id).status_code == 202
        turn(client)
        clock.advance(1)
    assert [status(dave, g)["status"] for g in games[:3]] == ["running", "running", "queued"]
    assert status(dave, games[2]) == {
        "status": "queued",
        "position": 1,
        "progress": {"done": 0, "total": 6},
    }
    assert_error(review(dave, games[3]), 503, "review.busy")
    open_gate(client, gate)
    assert review(dave, games[3]).status_code == 202


@pytest.fixture
def instance(database_url: str, tmp_path: Path, clock: ManualClock) -> Iterator[Any]:
    """An app instance on the test's database, to stop before the test ends."""
    clients: list[TestClient] = []

    def make(**overrides: Any) -> TestClient:
        app = create_app(make_settings(database_url, tmp_path, **overrides), clock)
        client = TestClient(app)
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for client in clients:
        if client.portal is not None:
            client.__exit__(None, None, None)


def test_a_review_outlives_its_instance(instance: Any):
    first = instance()
    alice, bob = Player(first, "alice"), Player(first, "bob")
    game_id = finished_game(first, alice, bob)
    gated(first)
    assert review(alice, game_id).status_code == 202
    turn(first)
    # Another instance on the same database: the review is the first one's.
    second = instance()
    gate = gated(second)
    settle(second)
    assert gate.asked == 0
    # The first one stops: its review goes back in the queue and the other one runs it.
    first.__exit__(None, None, None)
    carol = Player(second, "carol")
    assert status(carol, game_id)["status"] == "queued"
    open_gate(second, gate)
    assert status(carol, game_id)["status"] == "done"
    assert gate.asked == 6


def test_a_review_whose_instance_went_silent_is_run_by_another(instance: Any, clock: ManualClock):
    first = instance(review_lease_seconds=30)
    alice, bob = Player(first, "alice"), Player(first, "bob")
    game_id = finished_game(first, alice, bob)
    gated(first)  # its worker never answers: the instance is stuck, not stopped
    assert review(alice, game_id).status_code == 202
    turn(first)
    second = instance(review_lease_seconds=30)
    gate = gated(second)
    settle(second)
    assert gate.asked == 0  # not yet: the first one may still be working
    clock.jump(31_000)  # past the lease
    open_gate(second, gate)
    assert status(Player(second, "carol"), game_id)["status"] == "done"
    assert gate.asked == 6
