"""What the page needs to show a claim's countdown and the last move's capture: the state's
``claimGrace`` and the presence message's ``goneSince`` (a claim opens at their sum), and
``captureMarks`` (yote's jumped stone, wali's capturing line) in ``move`` and ``state``."""

from __future__ import annotations

from typing import Any

from tests.app.conftest import Player, move_at, receive, send, started_game
from tests.openings import WALI_PLACEMENTS

WALI = [*WALI_PLACEMENTS, "c3b3", "e5d5xc2"]


def _presence_until(ws: Any, online: dict[str, bool]) -> dict[str, Any]:
    for _ in range(20):
        message: dict[str, Any] = receive(ws, "presence")
        if message["online"] == online:
            return message
    raise AssertionError(f"presence never became {online}")


def test_a_claim_opens_at_gone_since_plus_the_grace(make_client, clock):
    client = make_client(gone_seconds=30, gone_unmoved_seconds=15)
    alice, bob = Player(client, "alice"), Player(client, "bob")
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as a:
        state = receive(a, "state")["game"]
        # Nobody has moved: the short grace for both.
        assert state["claimGrace"] == {"first": 15_000, "second": 15_000}
        with bob.socket(game_id) as b:
            receive(b, "state")
            assert _presence_until(a, {"first": True, "second": True})["goneSince"] == {
                "first": None,
                "second": None,
            }
            send(a, type="move", move="b2b3", ply=0)
            assert move_at(b, 1)["claimGrace"] == {"first": 30_000, "second": 15_000}
            send(b, type="move", move="b4b3", ply=1)
            assert move_at(a, 2)["claimGrace"] == {"first": 30_000, "second": 30_000}
            clock.advance(5_000)
            left_at = clock.now_ms()
        gone = _presence_until(a, {"first": True, "second": False})["goneSince"]
        assert gone == {"first": None, "second": left_at}
        clock.advance(29_999)  # one ms before goneSince + claimGrace
        send(a, type="claim", result="victory")
        assert receive(a, "error")["code"] == "claim.too_early"
        clock.advance(1)  # at goneSince + claimGrace exactly
        send(a, type="claim", result="victory")
        ended = receive(a, "state")["game"]
    assert ended["status"] == "timeout"
    assert ended["claimGrace"] is None  # over: no claim any more


def test_no_claim_grace_in_a_correspondence_game(alice: Player, bob: Player):
    game_id = started_game(alice, bob, days=3)
    with alice.socket(game_id) as a:
        assert receive(a, "state")["game"]["claimGrace"] is None


def test_a_yote_jump_marks_the_jumped_stone(alice: Player, bob: Player):
    game_id = started_game(alice, bob, "yote")
    with alice.socket(game_id) as a, bob.socket(game_id) as b:
        assert receive(a, "state")["game"]["captureMarks"] == {"jumped": [], "line": []}
        receive(b, "state")
        send(a, type="move", move="*f5", ply=0)
        assert move_at(b, 1)["captureMarks"] == {"jumped": [], "line": []}
        send(b, type="move", move="*f4", ply=1)
        move_at(a, 2)
        send(a, type="move", move="f5f3", ply=2)
        assert move_at(b, 3)["captureMarks"] == {"jumped": ["f4"], "line": []}
    with bob.socket(game_id) as b:  # and in the state, after a reload
        assert receive(b, "state")["game"]["captureMarks"] == {"jumped": ["f4"], "line": []}


def test_a_wali_capture_marks_its_line(alice: Player, bob: Player):
    game_id = started_game(alice, bob, "wali")
    with alice.socket(game_id) as a:
        turn = receive(a, "state")["game"]["turn"]
        with bob.socket(game_id) as b:
            receive(b, "state")
            for ply, text in enumerate(WALI):
                # wali passes automatically in its placement phase: the state says who moves
                send(a if turn == "first" else b, type="move", move=text, ply=ply)
                message = move_at(a, ply + 1)
                move_at(b, ply + 1)
                turn = message["turn"]
            assert message["move"] == "e5d5xc2"
            assert message["captureMarks"] == {"jumped": [], "line": ["d3", "d4", "d5"]}
