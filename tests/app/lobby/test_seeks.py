"""A seek lives while its creator has a page open (docs/decisions/live-lobby.md):
hidden from the lobby within seconds of their last socket closing, back if they return within
the grace, cancelled after it; joining a hidden seek is refused. All on the injected clock."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from app.core.time import ManualClock
from app.domain.enums import EndReason, GameStatus
from tests.app.conftest import Player, invite_token


def _open_ids(client: TestClient) -> list[str]:
    return [g["id"] for g in client.get("/api/lobby").json()["open"]]


def _status(client: TestClient, game_id: str) -> dict[str, Any]:
    game: dict[str, Any] = client.get(f"/api/games/{game_id}").json()["game"]
    return game


def _site(player: Player) -> Any:
    return player.client.websocket_connect("/ws/site", headers=player.headers)


def test_a_seek_leaves_the_lobby_when_its_creator_leaves_and_comes_back_with_them(
    client: TestClient, clock: ManualClock
):
    alice, bob = Player(client, "alice"), Player(client, "bob")
    with _site(alice) as page:
        page.receive_json()
        game_id = alice.create("jungle", public=True)["id"]
        clock.advance(120_000)  # a page open: the seek lives as long as it likes
        assert _open_ids(client) == [game_id]
    clock.advance(5_000)  # within ~5 s of the last socket closing: hidden
    assert _open_ids(client) == []
    refused = bob.post(f"/api/games/{game_id}/join")
    assert refused.status_code == 409
    assert refused.json()["code"] == "seek.away"
    assert _status(client, game_id)["status"] == GameStatus.CREATED  # the refusal changed nothing
    with client.websocket_connect("/ws/lobby", headers=alice.headers) as lobby:
        lobby.receive_json()
        clock.advance(3_000)  # back within the grace: listed again, joinable
        assert _open_ids(client) == [game_id]
    clock.advance(5_000)
    assert _open_ids(client) == []
    assert bob.post(f"/api/games/{game_id}/join").status_code == 409


def test_a_seek_whose_creator_stays_away_past_the_grace_is_cancelled(
    client: TestClient, clock: ManualClock
):
    alice = Player(client, "alice")
    with _site(alice) as page:
        page.receive_json()
        game_id = alice.create("dobutsu", public=True)["id"]
        clock.advance(15_000)  # older than a new seek (10 s): only the page keeps it
    clock.advance(5_000)
    assert _open_ids(client) == []
    clock.advance(54_000)  # hidden for less than the grace (60 s) since 1-2 s after the close
    assert _status(client, game_id)["status"] == GameStatus.CREATED
    clock.advance(5_000)
    game = _status(client, game_id)
    assert game["status"] == GameStatus.ABORTED
    assert game["result"]["reason"] == EndReason.EXPIRED


def test_a_new_seek_waits_for_its_creators_first_page_and_private_games_are_not_seeks(
    client: TestClient, clock: ManualClock
):
    alice, bob = Player(client, "alice"), Player(client, "bob")
    public = alice.create("yote", public=True)["id"]
    private = alice.create("wali", public=False)
    clock.advance(8_000)  # the page opens after the POST that made the seek: shown meanwhile
    assert _open_ids(client) == [public]
    clock.advance(4_000)  # no page came
    assert _open_ids(client) == []
    clock.advance(120_000)
    assert _status(client, public)["status"] == GameStatus.ABORTED
    # A private game waits for its invitation, page or not; the invitation is never refused.
    assert _status(client, private["id"])["status"] == GameStatus.CREATED
    assert bob.post(f"/api/invite/{invite_token(private)}").status_code == 200


def test_a_seek_hidden_then_joined_by_invite_still_starts(client: TestClient, clock: ManualClock):
    alice, bob = Player(client, "alice"), Player(client, "bob")
    created = alice.create("dobutsu", public=True)
    clock.advance(12_000)
    assert _open_ids(client) == []
    assert bob.post(f"/api/invite/{invite_token(created)}").status_code == 200
    assert _status(client, created["id"])["status"] == GameStatus.STARTED
