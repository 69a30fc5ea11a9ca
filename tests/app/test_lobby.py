"""The lobby WebSocket: open public games and live games, updated live for everyone."""

from __future__ import annotations

from typing import Any

from tests.app.conftest import Player, invite_token, move_at, receive, send


def _lobby_until(ws: Any, check: Any) -> dict[str, Any]:
    for _ in range(20):
        message: dict[str, Any] = ws.receive_json()
        assert message["type"] == "lobby"
        if check(message):
            return message
    raise AssertionError("the lobby never showed the expected lists")


def test_the_lobby_lists_update_live(client, alice: Player, bob: Player):
    with client.websocket_connect("/ws/lobby") as lobby:
        first = lobby.receive_json()
        assert first == {"type": "lobby", "open": [], "live": []}
        public = alice.create("jungle", public=True, color="random")
        shown = _lobby_until(lobby, lambda m: m["open"])
        entry = shown["open"][0]
        assert entry["id"] == public["id"]
        assert entry["variant"] == "jungle"
        assert entry["color"] == "random"
        assert entry["creator"].startswith("Anonymous ")
        assert "invite" not in str(entry)  # the seat's secret never reaches the lobby
        private = alice.create("yote", public=False)
        joined = bob.post(f"/api/games/{public['id']}/join")
        assert joined.status_code == 200
        shown = _lobby_until(lobby, lambda m: m["live"] and not m["open"])
        assert [g["id"] for g in shown["live"]] == [public["id"]]
        assert private["id"] not in str(shown)
        bob.post(f"/api/invite/{invite_token(private)}")
        with alice.socket(public["id"]) as ws:
            send(ws, type="abort")
            shown = _lobby_until(lobby, lambda m: not m["live"])
        # A private game is link-only: never listed, not even to watch once it has started.
        assert private["id"] not in str(shown)


def test_moves_do_not_flood_the_lobby(client, alice: Player, bob: Player):
    created = alice.create("dobutsu", color="first")
    bob.post(f"/api/invite/{invite_token(created)}")
    with client.websocket_connect("/ws/lobby") as lobby:
        assert len(lobby.receive_json()["live"]) == 1
        with alice.socket(created["id"]) as a, bob.socket(created["id"]) as b:
            for ply, (ws, move) in enumerate([(a, "b2b3"), (b, "b4b3"), (a, "c1c2")]):
                send(ws, type="move", move=move, ply=ply)
                move_at(ws, ply + 1)
            send(b, type="resign")
            assert receive(a, "state")["game"]["status"] == "resign"
        ended = _lobby_until(lobby, lambda m: not m["live"])
        assert ended["live"] == []  # the first lobby message after the start is the end


def test_a_seat_nobody_takes_is_withdrawn_after_a_day(client, clock):
    alice = Player(client, "alice")
    created = alice.create("wali")
    # Hours pass in one step; then the sweeper's next round (every 30 s) runs, late.
    clock.jump(23 * 3_600_000)
    clock.advance(0)
    assert alice.get(f"/api/games/{created['id']}").json()["game"]["status"] == "created"
    clock.jump(2 * 3_600_000)
    clock.advance(0)
    game = alice.get(f"/api/games/{created['id']}").json()["game"]
    assert game["status"] == "aborted"
    assert game["result"]["reason"] == "expired"
