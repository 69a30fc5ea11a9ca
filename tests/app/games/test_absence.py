"""Absent players: the opponent sees a connection drop and come back; after the grace period
(shorter for a player who has never moved) the one still present may claim victory or a draw."""

from __future__ import annotations

from typing import Any

from app.core.time import ManualClock
from tests.app.conftest import (
    Player,
    invite_token,
    move_at,
    receive,
    send,
    started_game,
)


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


def test_victory_can_be_claimed_only_after_the_grace_period(make_client, clock):
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
        clock.advance(599)
        send(a, type="claim", result="victory")
        assert receive(a, "error")["code"] == "claim.too_early"
        clock.advance(1)
        send(a, type="claim", result="victory")
        state = receive(a, "state")["game"]
    assert state["status"] == "timeout"
    assert state["result"] == {"winner": "first", "reason": "opponent_gone", "status": "timeout"}


def test_a_draw_can_be_claimed_instead(make_client, clock):
    client = make_client(gone_seconds=60, gone_unmoved_seconds=0.3)
    alice, bob = Player(client, "alice"), Player(client, "bob")
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as a:
        receive(a, "state")
        send(a, type="move", move="b2b3", ply=0)
        move_at(a, 1)
        # bob never came: he has not moved, so the shorter grace applies
        clock.advance(300)
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


def _two_moves_then_both_leave(
    alice: Player, bob: Player, game_id: str, clock: ManualClock
) -> None:
    """Both move (the long grace applies to each), bob leaves, and 10 s later alice too."""
    with alice.socket(game_id) as a:
        receive(a, "state")
        with bob.socket(game_id) as b:
            receive(b, "state")
            send(a, type="move", move="b2b3", ply=0)
            move_at(b, 1)
            send(b, type="move", move="b4b3", ply=1)
            move_at(a, 2)
        _presence_until(a, {"first": True, "second": False})
        clock.advance(10_000)
    _until_server_saw_first_leave(alice, game_id)


def _until_server_saw_first_leave(alice: Player, game_id: str) -> None:
    """The test client's close waits for the socket's handler to end (it is cancelled and
    awaited): its departure is already counted, at the clock's time."""
    app: Any = alice.client.app  # the FastAPI app (typed as any ASGI app)
    assert not app.state.services.presence.online(game_id, "first")


def _claim(alice: Player, game_id: str) -> dict[str, object]:
    with alice.socket(game_id) as a:
        receive(a, "state")
        send(a, type="claim", result="victory")
        for _ in range(20):
            answer: dict[str, object] = a.receive_json()
            if answer["type"] in ("error", "state"):
                break
        else:
            raise AssertionError("the claim got no answer")
    _until_server_saw_first_leave(alice, game_id)
    return answer


def test_a_claimant_back_within_the_grace_period_keeps_the_opponents_count(make_client, clock):
    client = make_client(gone_seconds=30, gone_unmoved_seconds=15)
    alice, bob = Player(client, "alice"), Player(client, "bob")
    game_id = started_game(alice, bob)
    _two_moves_then_both_leave(alice, bob, game_id, clock)
    clock.advance(19_000)  # nobody here for 19 s (a page reloading slowly): still remembered
    assert _claim(alice, game_id)["code"] == "claim.too_early"  # bob gone 29 s
    clock.advance(1_000)
    claimed = _claim(alice, game_id)
    assert claimed["type"] == "state"
    assert claimed["game"]["result"] == {  # type: ignore[index]
        "winner": "first", "reason": "opponent_gone", "status": "timeout",
    }  # fmt: skip


def test_a_claimant_away_for_the_grace_period_too_finds_the_count_started_anew(make_client, clock):
    client = make_client(gone_seconds=30, gone_unmoved_seconds=15)
    alice, bob = Player(client, "alice"), Player(client, "bob")
    game_id = started_game(alice, bob)
    _two_moves_then_both_leave(alice, bob, game_id, clock)
    clock.advance(30_000)  # nobody here for the whole 30 s: the game is forgotten
    assert _claim(alice, game_id)["code"] == "claim.too_early"  # bob gone "since now"
    clock.advance(29_000)
    assert _claim(alice, game_id)["code"] == "claim.too_early"
    clock.advance(1_000)
    assert _claim(alice, game_id)["type"] == "state"
