"""Absent players: the opponent sees a connection drop and come back; after the grace period
(shorter for a player who has never moved) the one still present may claim victory or a draw."""

from __future__ import annotations

import time

from tests.app.conftest import Player, invite_token, move_at, receive, send, started_game


def _presence_until(ws, online: dict[str, bool]) -> dict[str, object]:
    for _ in range(20):
        message = receive(ws, "presence")
        if message["online"] == online:
            return message
    raise AssertionError(f"presence never became {online}")


def test_the_opponent_sees_a_connection_drop_and_come_back(alice: Player, bob: Player):
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as a:
        receive(a, "state")
        with bob.socket(game_id) as b:
            receive(b, "state")
            _presence_until(a, {"first": True, "second": True})
        _presence_until(a, {"first": True, "second": False})
        with bob.socket(game_id) as b:
            receive(b, "state")
            _presence_until(a, {"first": True, "second": True})


def test_victory_can_be_claimed_only_after_the_grace_period(make_client):
    client = make_client(gone_seconds=0.6, gone_unmoved_seconds=60)
    alice, bob = Player(client, "alice"), Player(client, "bob")
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as a:
        receive(a, "state")
        with bob.socket(game_id) as b:
            receive(b, "state")
            send(a, type="move", move="b2b3", ply=0)
            move_at(b, 1)
            send(b, type="move", move="b4b3", ply=1)  # bob has moved: the short grace
            move_at(a, 2)
        send(a, type="claim", result="victory")
        error = receive(a, "error")
        assert error["code"] == "claim.too_early"
        assert error["ply"] == 2
        time.sleep(0.7)
        send(a, type="claim", result="victory")
        state = receive(a, "state")["game"]
    assert state["status"] == "timeout"
    assert state["result"] == {"winner": "first", "reason": "opponent_gone", "status": "timeout"}


def test_a_draw_can_be_claimed_instead(make_client):
    client = make_client(gone_seconds=60, gone_unmoved_seconds=0.3)
    alice, bob = Player(client, "alice"), Player(client, "bob")
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as a:
        receive(a, "state")
        send(a, type="move", move="b2b3", ply=0)
        move_at(a, 1)
        # bob never came: he has not moved, so the shorter grace applies
        time.sleep(0.4)
        send(a, type="claim", result="draw")
        state = receive(a, "state")["game"]
    assert state["status"] == "draw"
    assert state["result"] == {"winner": None, "reason": "opponent_gone", "status": "draw"}


def test_a_present_opponent_cannot_be_claimed_against(make_client):
    client = make_client(gone_seconds=0, gone_unmoved_seconds=0)
    alice, bob = Player(client, "alice"), Player(client, "bob")
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as a, bob.socket(game_id) as b:
        receive(a, "state")
        receive(b, "state")
        _presence_until(a, {"first": True, "second": True})
        send(a, type="claim", result="victory")
        assert receive(a, "error")["code"] == "claim.opponent_present"
        send(a, type="claim", result="resign")
        assert receive(a, "error")["code"] == "request.invalid"


def test_a_random_colour_creator_counts_as_online_once_seated(alice: Player, bob: Player):
    created = alice.create("dobutsu", color="random")
    with alice.socket(created["id"]) as a:
        assert receive(a, "presence")["spectators"] == 1  # no seat yet: a watcher
        bob.post(f"/api/invite/{invite_token(created)}")
        shown = None
        for _ in range(20):
            shown = receive(a, "presence")
            if shown["spectators"] == 0:
                break
        assert shown is not None
        assert shown["spectators"] == 0
        assert True in shown["online"].values()
