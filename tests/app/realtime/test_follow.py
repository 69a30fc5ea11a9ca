"""Every page of a player follows them to their new game: the lobby, game and site sockets of
an identity hear ``gameStart`` when a game of theirs starts (docs/protocol.md)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.chat import protocol as chatprotocol
from app.domain.enums import Side
from app.realtime.follow import Followers
from app.realtime.hub import LocalHub
from app.realtime.messages import HubCodec, NewGameMessage, PlayerLine, player_channel
from tests.app.conftest import Player, invite_token, receive, send


@pytest.fixture
def quick(make_client: Any) -> TestClient:
    client: TestClient = make_client(lobby_interval_seconds=0)
    return client


def _site(player: Player) -> Any:
    return player.client.websocket_connect("/ws/site", headers=player.headers)


def test_the_creator_on_the_lobby_hears_that_their_seek_was_joined(quick: TestClient):
    alice, bob = Player(quick, "alice"), Player(quick, "bob")
    with quick.websocket_connect("/ws/lobby", headers=alice.headers) as lobby:
        assert lobby.receive_json()["type"] == "lobby"
        created = alice.create("jungle", public=True, color="second")
        assert bob.post(f"/api/games/{created['id']}/join").status_code == 200
        started = receive(lobby, "gameStart")
        assert started == {
            "type": "gameStart",
            "game": {"id": created["id"], "side": "second", "myTurn": False},
        }


def test_both_players_site_sockets_hear_the_start_with_whose_turn(client: TestClient):
    alice, bob = Player(client, "alice"), Player(client, "bob")
    created = alice.create("dobutsu", color="first")
    with _site(alice) as a, _site(bob) as b:
        me = {"id": alice.who.id, "name": alice.who.name}
        assert a.receive_json() == {"type": "site", "me": me}
        assert b.receive_json()["type"] == "site"
        assert bob.post(f"/api/invite/{invite_token(created)}").status_code == 200
        assert a.receive_json()["game"] == {"id": created["id"], "side": "first", "myTurn": True}
        assert b.receive_json()["game"] == {"id": created["id"], "side": "second", "myTurn": False}


def test_a_game_page_hears_another_game_start_but_not_its_own(client: TestClient):
    alice, bob, carol = Player(client, "alice"), Player(client, "bob"), Player(client, "carol")
    watched = alice.create("yote", color="first")
    waiting = alice.create("dobutsu", color="first")
    with alice.socket(waiting["id"]) as own, alice.socket(watched["id"]) as other:
        receive(own, "state")
        receive(other, "state")
        assert bob.post(f"/api/invite/{invite_token(waiting)}").status_code == 200
        started = receive(other, "gameStart")
        assert started["game"]["id"] == waiting["id"]
        assert started["ply"] == 0  # the ply of the game that page shows, as every message
        # The page showing the game learns of its start from its own state: no gameStart.
        state = receive(own, "state")
        assert state["game"]["status"] == "started"
        send(own, type="ping")
        assert [m for m in _until_pong(own) if m["type"] == "gameStart"] == []
        # A stranger's game starting tells alice's pages nothing.
        third = carol.create("wali", color="first")
        assert bob.post(f"/api/invite/{invite_token(third)}").status_code == 200
        send(other, type="ping")
        assert [m for m in _until_pong(other) if m["type"] == "gameStart"] == []


def test_a_game_that_starts_once_a_page_has_its_state_is_told_to_it(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
):
    """The page follows its player before its state goes out: a game that starts between the
    state and what the socket sends next (the chat history, a database read) is not missed."""
    alice, bob = Player(client, "alice"), Player(client, "bob")
    watched = alice.create("yote", color="first")
    waiting = alice.create("dobutsu", color="first")
    joined = asyncio.Event()  # set on the app's loop, by the test's thread once bob joined
    history_text = chatprotocol.history_text

    async def history_once_joined(*args: Any) -> str:
        await joined.wait()
        return await history_text(*args)

    monkeypatch.setattr(chatprotocol, "history_text", history_once_joined)
    assert client.portal is not None
    with alice.socket(watched["id"]) as other:
        receive(other, "state")
        try:
            assert bob.post(f"/api/invite/{invite_token(waiting)}").status_code == 200
        finally:
            client.portal.call(joined.set)  # never leave the socket waiting
        send(other, type="ping")
        started = [m for m in _until_pong(other) if m["type"] == "gameStart"]
        assert [m["game"]["id"] for m in started] == [waiting["id"]]


def _until_pong(ws: Any) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    while not seen or seen[-1]["type"] != "pong":
        seen.append(ws.receive_json())
    return seen


def test_a_socket_without_identity_hears_nothing_of_anyone(client: TestClient):
    alice, bob = Player(client, "alice"), Player(client, "bob")
    with client.websocket_connect("/ws/site") as anonymous:
        assert anonymous.receive_json() == {"type": "site", "me": None}
        created = alice.create("dobutsu")
        bob.post(f"/api/invite/{invite_token(created)}")
        with _site(alice) as a:
            a.receive_json()
        services = client.app.state.services  # type: ignore[attr-defined]
        assert services.followers.following(alice.who.id) == 0


def test_one_hub_listener_per_identity_not_per_socket():
    hub = LocalHub()
    followers = Followers(hub)
    told: list[tuple[str, str]] = []

    def sender(name: str) -> Any:
        async def send(text: str) -> None:
            told.append((name, text))

        return send

    async def scenario() -> None:
        channel = player_channel("p1")
        with followers.follow("p1", sender("lobby"), lambda n: getattr(n, "game_id", None)):
            with followers.follow("p1", sender("game"), lambda n: None):  # shows that game
                assert hub.listeners(channel) == 1
                assert followers.following("p1") == 2
                await hub.publish(channel, PlayerLine("p1", {"type": "gameStart"}))
                await hub.publish(channel, NewGameMessage("p1", "g1", Side.FIRST, True))
                await asyncio.sleep(0)
            await hub.publish(channel, NewGameMessage("p1", "g2", Side.SECOND, False))
            await asyncio.sleep(0)
        assert hub.listeners(channel) == 0
        assert followers.following("p1") == 0
        await hub.publish(channel, NewGameMessage("p1", "g3", Side.FIRST, True))
        await asyncio.sleep(0)

    asyncio.run(scenario())
    assert told == [("lobby", "g1"), ("lobby", "g2")]


def test_a_new_game_crosses_instances_as_itself():
    codec = HubCodec()
    message = NewGameMessage("p1", "g1", Side.SECOND, False)
    assert codec.decode(codec.encode(message)) == message
