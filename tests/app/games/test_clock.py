"""Server-authoritative clocks and deadlines: time is charged on the server, the increment
added, and a flag falls on the server at the right moment with no client doing anything."""

from __future__ import annotations

from typing import Any

from app.core.time import ManualClock
from tests.app.conftest import Player, move_at, receive, send, started_game


def _state_until(ws: Any, status: str) -> dict[str, Any]:
    for _ in range(20):
        message = receive(ws, "state")
        if message["game"]["status"] == status:
            return message
    raise AssertionError(f"the game never reached {status!r}")


def test_time_is_charged_from_both_first_moves_on_and_the_increment_added(client, clock):
    alice, bob = Player(client, "alice"), Player(client, "bob")
    game_id = started_game(alice, bob, clock={"minutes": 1, "increment": 2})
    with alice.socket(game_id) as a, bob.socket(game_id) as b:
        receive(a, "state")
        receive(b, "state")
        clock.advance(20_000)  # first moves are free: the clocks have not started
        send(a, type="move", move="b2b3", ply=0)
        first = move_at(a, 1)
        assert first["clock"] == {
            "initial": 60_000, "increment": 2_000, "first": 60_000, "second": 60_000,
            "running": False, "byoyomi": None, "periods": None, "firstPeriods": None,
            "secondPeriods": None, "firstPeriod": None, "secondPeriod": None,
        }  # fmt: skip
        clock.advance(5_000)
        send(b, type="move", move="b4b3", ply=1)
        assert move_at(a, 2)["clock"]["running"] is True
        clock.advance(10_000)  # first thinks 10 s: 60 - 10 + 2
        send(a, type="move", move="c1c2", ply=2)
        third = move_at(b, 3)
        assert third["clock"]["first"] == 52_000
        assert third["clock"]["second"] == 60_000
        clock.advance(3_000)
        send(b, type="resync")
        shown = receive(b, "state")["game"]["clock"]
        assert shown["second"] == 57_000  # second's time runs while it thinks


def test_the_flag_falls_on_the_server_without_any_client(
    alice: Player, bob: Player, carol: Player, clock: ManualClock
):
    game_id = started_game(alice, bob, clock={"minutes": 0.02, "increment": 0})  # 1.2 s
    with alice.socket(game_id) as a, bob.socket(game_id) as b:
        receive(a, "state")
        receive(b, "state")  # b has subscribed: the move reaches it as a move message
        send(a, type="move", move="b2b3", ply=0)
        move_at(b, 1)
        send(b, type="move", move="b4b3", ply=1)
        move_at(a, 2)
    # Both players have gone; first's clock runs out with nobody connected but a spectator.
    with carol.socket(game_id) as c:
        assert receive(c, "state")["game"]["status"] == "started"
        clock.advance(1_199)
        send(c, type="resync")
        assert receive(c, "state")["game"]["status"] == "started"  # 1 ms left
        clock.advance(1)
        state = _state_until(c, "outoftime")["game"]
    assert state["result"] == {"winner": "second", "reason": "outoftime", "status": "outoftime"}
    assert state["clock"]["first"] == 0
    assert state["legalMoves"] == []


def test_a_late_move_after_the_flag_is_refused_and_the_game_ends(client, clock):
    alice, bob = Player(client, "alice"), Player(client, "bob")
    game_id = started_game(alice, bob, clock={"minutes": 1, "increment": 0})
    with alice.socket(game_id) as a, bob.socket(game_id) as b:
        receive(a, "state")
        receive(b, "state")  # b has subscribed: the move reaches it as a move message
        send(a, type="move", move="b2b3", ply=0)
        move_at(b, 1)
        send(b, type="move", move="b4b3", ply=1)
        move_at(a, 2)
        # Past first's minute, as the server sees the time, before its timer has fired.
        clock.jump(61_000)
        send(a, type="move", move="c1c2", ply=2)
        assert receive(a, "error")["code"] == "game.over"
        game = alice.get(f"/api/games/{game_id}").json()["game"]
    assert game["status"] == "outoftime"
    assert game["result"]["winner"] == "second"
    assert game["moves"] == ["b2b3", "b4b3"]


def test_a_game_without_a_first_move_is_aborted_at_the_deadline(make_client, clock):
    client = make_client(first_move_seconds=0.5)
    alice, bob, carol = Player(client, "alice"), Player(client, "bob"), Player(client, "c")
    game_id = started_game(alice, bob)
    with carol.socket(game_id) as c:
        assert receive(c, "state")["game"]["status"] == "started"
        clock.advance(499)
        send(c, type="resync")
        assert receive(c, "state")["game"]["status"] == "started"
        clock.advance(1)
        state = _state_until(c, "noStart")["game"]
    assert state["result"] == {"winner": None, "reason": "first_move", "status": "noStart"}


def test_the_second_players_first_move_has_a_deadline_too(make_client, clock):
    client = make_client(first_move_seconds=3)
    alice, bob = Player(client, "alice"), Player(client, "bob")
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as a:
        receive(a, "state")
        clock.advance(2_000)  # first moves with a second to spare
        send(a, type="move", move="b2b3", ply=0)
        moved = move_at(a, 1)
        assert moved["deadline"] == clock.now_ms() + 3_000  # second's own three seconds
        clock.advance(3_000)
        state = _state_until(a, "noStart")["game"]
    assert state["moves"] == ["b2b3"]
    assert state["result"]["winner"] is None
