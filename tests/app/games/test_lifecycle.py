"""A game's life over the WebSocket: resign, draw offers, abort, claims, time-outs, and the
endings of the rules, each seen by the players and a spectator and kept in the stored game.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest

import engine
from app.core.time import ManualClock
from tests.app.conftest import Player, move_at, receive, send, started_game

# What this module tests is the same on either database (tests/app/conftest.py).
pytestmark = pytest.mark.sqlite_only

# ---- helpers -----------------------------------------------------------------------------


@contextmanager
def sockets(game_id: str, *players: Player) -> Iterator[list[Any]]:
    """Every player's socket, its first state already read."""
    with ExitStack() as stack:
        opened = [stack.enter_context(p.socket(game_id)) for p in players]
        for ws in opened:
            assert receive(ws, "state")["game"]["id"] == game_id
        yield opened


def until_pong(ws: Any) -> list[dict[str, Any]]:
    send(ws, type="ping")
    messages = []
    for _ in range(50):
        message: dict[str, Any] = ws.receive_json()
        messages.append(message)
        if message["type"] == "pong":
            return messages
    raise AssertionError(f"no pong among {messages}")


def refused(ws: Any, code: str, **message: Any) -> dict[str, Any]:
    """Send ``message``: exactly one error, of this code, must come back."""
    send(ws, **message)
    messages = until_pong(ws)
    errors = [m for m in messages if m["type"] == "error"]
    assert [e["code"] for e in errors] == [code], messages
    return errors[0]


def game_of(player: Player, game_id: str) -> dict[str, Any]:
    response = player.get(f"/api/games/{game_id}")
    assert response.status_code == 200, response.text
    game: dict[str, Any] = response.json()["game"]
    return game


def current(ws: Any) -> dict[str, Any]:
    send(ws, type="resync")
    game: dict[str, Any] = receive(ws, "state")["game"]
    game.pop("serverTime")
    game.pop("clock")
    return game


def play(sockets_by_side: tuple[Any, Any], moves: list[str], *watchers: Any) -> dict[str, Any]:
    """Play ``moves`` alternately from first's socket and second's; every socket named sees
    each move. The last move message, as the last watcher saw it."""
    last: dict[str, Any] = {}
    for ply, move in enumerate(moves):
        mover = sockets_by_side[ply % 2]
        send(mover, type="move", move=move, ply=ply)
        for ws in dict.fromkeys((mover, *sockets_by_side, *watchers)):
            for _ in range(20):  # the mover may get an error instead: never wait for more
                last = ws.receive_json()
                if last["type"] in ("move", "error"):
                    break
            assert (last["type"], last.get("move"), last["ply"]) == ("move", move, ply + 1), last
    return last


def states(*sockets: Any) -> list[dict[str, Any]]:
    """The next state message on every socket (a change is broadcast to all)."""
    return [receive(ws, "state")["game"] for ws in sockets]


# ---- the opponent arrives, or the creator withdraws --------------------------------------
@pytest.mark.parametrize("color", ["first", "second", "random"])
def test_the_creators_page_sees_the_opponent_arrive(
    alice: Player, bob: Player, carol: Player, color: str
):
    created = alice.create("dobutsu", color=color)
    with sockets(created["id"], alice, carol) as (a, c):
        assert bob.post(f"/api/games/{created['id']}/join").status_code == 200
        for game in states(a, c):
            assert game["status"] == "started"
            assert {game["players"]["first"]["id"], game["players"]["second"]["id"]} == {
                alice.who.id,
                bob.who.id,
            }
            assert game["legalMoves"]
            assert game["deadline"] is not None


def test_the_creators_page_sees_the_cancel(alice: Player, carol: Player):
    created = alice.create("dobutsu")
    with sockets(created["id"], alice, carol) as (a, c):
        assert alice.post(f"/api/games/{created['id']}/cancel").status_code == 200
        for game in states(a, c):
            assert game["status"] == "aborted"
            assert game["result"] == {"winner": None, "reason": "canceled", "status": "aborted"}
        refused(a, "game.over", type="move", move="b2b3", ply=0)


# ---- resign ------------------------------------------------------------------------------
def test_resign_gives_the_game_to_the_opponent(alice: Player, bob: Player, carol: Player):
    game_id = started_game(alice, bob)
    with sockets(game_id, alice, bob, carol) as (a, b, c):
        send(a, type="resign")
        for ws in (a, b, c):
            state = receive(ws, "state")
            game = state["game"]
            assert state["ply"] == 0
            assert game["status"] == "resign"
            assert game["result"] == {"winner": "second", "reason": "resign", "status": "resign"}
            assert game["legalMoves"] == []
            assert game["finishedAt"] is not None
    assert game_of(carol, game_id)["result"]["winner"] == "second"


def test_resign_when_it_is_not_your_turn(alice: Player, bob: Player):
    game_id = started_game(alice, bob)
    with sockets(game_id, alice, bob) as (a, b):
        send(a, type="move", move="b2b3", ply=0)
        receive(b, "move")
        send(a, type="resign")
        game = receive(b, "state")["game"]
    assert game["status"] == "resign"
    assert game["result"]["winner"] == "second"
    assert game["moves"] == ["b2b3"]


# ---- draws -------------------------------------------------------------------------------
def test_a_draw_offer_is_shown_and_accepted(alice: Player, bob: Player, carol: Player):
    game_id = started_game(alice, bob)
    with sockets(game_id, alice, bob, carol) as (a, b, c):
        send(a, type="draw", action="offer")
        for ws in (a, b, c):
            state = receive(ws, "state")
            assert state["game"]["drawOffer"] == "first"
            assert state["game"]["status"] == "started"
        send(b, type="draw", action="accept")
        for ws in (a, b, c):
            game = receive(ws, "state")["game"]
            assert game["status"] == "draw"
            assert game["result"] == {"winner": None, "reason": "agreement", "status": "draw"}
            assert game["drawOffer"] is None
            assert game["legalMoves"] == []
    assert game_of(carol, game_id)["result"]["reason"] == "agreement"


def test_a_declined_offer_is_cleared(alice: Player, bob: Player):
    game_id = started_game(alice, bob)
    with sockets(game_id, alice, bob) as (a, b):
        send(b, type="draw", action="offer")
        assert [g["drawOffer"] for g in states(a, b)] == ["second", "second"]
        send(a, type="draw", action="decline")
        for game in states(a, b):
            assert game["drawOffer"] is None
            assert game["status"] == "started"
        # declined: accepting it now is refused
        refused(a, "draw.no_offer", type="draw", action="accept")
    assert game_of(alice, game_id)["drawOffer"] is None


def test_the_offerer_is_told_that_the_offer_was_declined(alice: Player, bob: Player, carol: Player):
    game_id = started_game(alice, bob)
    with sockets(game_id, alice, bob, carol) as (a, b, c):
        send(b, type="draw", action="offer")
        states(a, b, c)
        send(a, type="draw", action="decline")
        for ws in (a, b, c):
            assert receive(ws, "state")["game"]["drawOffer"] is None
            # Right after the state: who declined, at which ply.
            assert ws.receive_json() == {"type": "drawDeclined", "ply": 0, "by": "first"}


def test_a_move_that_declines_an_offer_tells_its_maker(alice: Player, bob: Player):
    game_id = started_game(alice, bob)
    with sockets(game_id, alice, bob) as (a, b):
        send(a, type="draw", action="offer")
        states(a, b)
        play((a, b), ["b2b3"])
        # first's own move left the offer standing: nothing declined
        assert [m["type"] for m in until_pong(a)] == ["pong"]
        send(b, type="move", move="b4b3", ply=1)
        assert receive(a, "move")["drawOffer"] is None
        assert a.receive_json() == {"type": "drawDeclined", "ply": 2, "by": "second"}


def test_accepting_or_declining_without_an_offer(alice: Player, bob: Player):
    game_id = started_game(alice, bob)
    with sockets(game_id, alice, bob) as (a, b):
        before = current(a)
        refused(b, "draw.no_offer", type="draw", action="accept")
        refused(b, "draw.no_offer", type="draw", action="decline")
        assert current(a) == before
        send(a, type="draw", action="offer")
        states(a, b)
        offered = current(a)
        # one cannot accept or decline one's own offer
        refused(a, "draw.no_offer", type="draw", action="accept")
        refused(a, "draw.no_offer", type="draw", action="decline")
        assert current(a) == offered
        assert offered["drawOffer"] == "first"


def test_offering_while_the_opponent_offers_is_accepting(alice: Player, bob: Player):
    game_id = started_game(alice, bob)
    with sockets(game_id, alice, bob) as (a, b):
        send(a, type="draw", action="offer")
        states(a, b)
        send(b, type="draw", action="offer")
        for game in states(a, b):
            assert game["status"] == "draw"
            assert game["result"] == {"winner": None, "reason": "agreement", "status": "draw"}


def test_a_move_by_the_player_offered_to_declines_the_offer(
    alice: Player, bob: Player, carol: Player
):
    game_id = started_game(alice, bob)
    with sockets(game_id, alice, bob, carol) as (a, b, c):
        send(a, type="draw", action="offer")
        states(a, b, c)
        assert play((a, b), ["b2b3"], c)["drawOffer"] == "first"  # the offer stands
        send(b, type="move", move="b4b3", ply=1)
        moved = receive(c, "move")
        assert moved["drawOffer"] is None
        assert moved["status"] == "started"
        refused(b, "draw.no_offer", type="draw", action="accept")
    assert game_of(carol, game_id)["drawOffer"] is None


# ---- abort -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("moves", "who"),
    [([], "first"), ([], "second"), (["b2b3"], "first"), (["b2b3"], "second")],
)
def test_abort_before_both_have_moved(
    alice: Player, bob: Player, carol: Player, moves: list[str], who: str
):
    game_id = started_game(alice, bob)
    with sockets(game_id, alice, bob, carol) as (a, b, c):
        play((a, b), moves, c)
        send(a if who == "first" else b, type="abort")
        for ws in (a, b, c):
            game = receive(ws, "state")["game"]
            assert game["status"] == "aborted"
            assert game["result"] == {"winner": None, "reason": "abort", "status": "aborted"}
            assert game["moves"] == moves
    assert game_of(carol, game_id)["status"] == "aborted"


@pytest.mark.parametrize("moves", [["b2b3", "b4b3"], ["b2b3", "b4b3", "c1c2"]])
def test_no_abort_once_both_have_moved(alice: Player, bob: Player, moves: list[str]):
    game_id = started_game(alice, bob)
    with sockets(game_id, alice, bob) as (a, b):
        play((a, b), moves)
        before = current(a)
        for ws in (a, b):
            error = refused(ws, "game.not_abortable", type="abort")
            assert error["ply"] == len(moves)
        assert current(b) == before
    assert game_of(alice, game_id)["status"] == "started"


# ---- endings by the rules ----------------------------------------------------------------
# Jungle: first's wolf walks up the middle file into the den while second's rat paces.
JUNGLE_DEN = [
    "c3d3", "a7a8", "d3d4", "a8a7", "d4d5", "a7a8", "d5d6",
    "a8a7", "d6d7", "a7a8", "d7d8", "a8a7", "d8d9",
]  # fmt: skip
ENDINGS = [
    pytest.param(
        "dobutsu",
        {},
        ["b1c2", "b4a3", "c2c3", "a3a2", "c3c4"],
        ("variantEnd", "first", "try"),
        id="dobutsu-try-first",
    ),
    pytest.param(
        "dobutsu",
        {},
        ["b1a2", "b4c3", "c1b1", "c3c2", "b1c1", "c2c1"],
        ("variantEnd", "second", "try"),
        id="dobutsu-try-second",
    ),
    pytest.param(
        "dobutsu",
        {},
        ["b1a2", "b4c3", "a2b1", "a4b4", "c1c2"],
        ("mate", "first", "checkmate"),
        id="dobutsu-checkmate",
    ),
    pytest.param(
        "dobutsu",
        {"ruleset": "yokai"},
        ["b1a2", "b4a3", "a2a3"],
        ("variantEnd", "first", "capture"),
        id="dobutsu-yokai-lion-captured",
    ),
    pytest.param(
        "dobutsu",
        {},
        ["b1a2", "a4a3", "a2b1", "a3a4"] * 2,
        ("variantEnd", None, "repetition"),
        id="dobutsu-repetition",
    ),
    pytest.param(
        "jungle",
        {},
        JUNGLE_DEN,
        ("variantEnd", "first", "den"),
        id="jungle-den",
    ),
]


@pytest.mark.parametrize(("variant", "rules", "moves", "ending"), ENDINGS)
def test_a_game_ends_by_its_rules(
    alice: Player,
    bob: Player,
    carol: Player,
    variant: str,
    rules: dict[str, str],
    moves: list[str],
    ending: tuple[str, str | None, str],
):
    status, winner, reason = ending
    result = {"winner": winner, "reason": reason, "status": status}
    # the sequence really ends this way by the engine's rules
    game = engine.get_game(variant, **rules)
    pos = game.start()
    for move in moves:
        pos = game.play(pos, move)
    assert game.result(pos) == engine.Result(
        None if winner is None else engine.Side(winner), engine.RuleReason(reason)
    )

    game_id = started_game(alice, bob, variant, rules=rules)
    with sockets(game_id, alice, bob, carol) as (a, b, c):
        last = play((a, b), moves, c)
        assert last["status"] == status
        assert last["result"] == result
        assert last["legalMoves"] == []
        assert last["fen"] == game.to_text(pos)
        # after the end: no more moves from either side
        mover = a if len(moves) % 2 == 0 else b
        error = refused(mover, "game.over", type="move", move="x", ply=len(moves))
        assert error["ply"] == len(moves)
        refused(a, "game.over", type="resign")
    stored = game_of(carol, game_id)
    assert stored["status"] == status
    assert stored["result"] == result
    assert stored["moves"] == moves
    assert stored["ply"] == len(moves)
    assert stored["fen"] == game.to_text(pos)
    assert stored["finishedAt"] is not None
    assert stored["legalMoves"] == []


# ---- the server's own endings ------------------------------------------------------------
QUICK = {"first_move_seconds": 2.0, "gone_seconds": 0.0, "gone_unmoved_seconds": 0.0}


def test_a_first_move_not_made_in_time_ends_the_game(make_client: Any, clock: ManualClock):
    quick = make_client(**QUICK)
    alice, bob = Player(quick, "alice"), Player(quick, "bob")
    game_id = started_game(alice, bob)
    assert game_of(alice, game_id)["deadline"] == clock.now_ms() + 2_000
    clock.advance(1_999)
    assert game_of(alice, game_id)["status"] == "started"
    clock.advance(1)  # the timer's expiry has run (and committed) when advance returns
    game = game_of(alice, game_id)
    assert game["result"] == {"winner": None, "reason": "first_move", "status": "noStart"}


def test_a_flag_falls(alice: Player, bob: Player, clock: ManualClock):
    game_id = started_game(
        alice, bob, clock={"minutes": 1 / 60, "increment": 0}
    )  # 1 s, the shortest
    with sockets(game_id, alice, bob) as (a, b):
        play((a, b), ["b2b3", "b4b3"])  # the clocks start once both have moved
        clock.advance(999)
        assert game_of(alice, game_id)["status"] == "started"
        clock.advance(1)
        assert game_of(alice, game_id)["status"] == "outoftime"
        game = receive(a, "state")["game"]
    assert game["result"] == {"winner": "second", "reason": "outoftime", "status": "outoftime"}
    assert game["clock"]["first"] == 0
    assert game_of(bob, game_id)["clock"]["first"] == 0


def test_claims_are_refused_while_the_opponent_is_here(alice: Player, bob: Player):
    game_id = started_game(alice, bob)
    with sockets(game_id, alice, bob) as (a, _b):
        before = current(a)
        refused(a, "claim.opponent_present", type="claim", result="victory")
        refused(a, "claim.opponent_present", type="claim", result="draw")
        assert current(a) == before


def test_claims_are_refused_before_the_grace_period(alice: Player, bob: Player):
    game_id = started_game(alice, bob)  # the default grace: 15 s for a player yet to move
    with sockets(game_id, alice) as (a,):
        before = current(a)
        refused(a, "claim.too_early", type="claim", result="victory")
        refused(a, "claim.too_early", type="claim", result="draw")
        assert current(a) == before


@pytest.mark.parametrize(
    ("claim", "result"),
    [
        ("victory", {"winner": "first", "reason": "opponent_gone", "status": "timeout"}),
        ("draw", {"winner": None, "reason": "opponent_gone", "status": "draw"}),
    ],
)
def test_a_gone_opponent_can_be_claimed_against(
    make_client: Any, claim: str, result: dict[str, Any]
):
    quick = make_client(**QUICK)  # no grace period
    alice, bob = Player(quick, "alice"), Player(quick, "bob")
    game_id = started_game(alice, bob)
    with sockets(game_id, alice) as (a,):
        send(a, type="claim", result=claim)
        game = receive(a, "state")["game"]
    assert game["result"] == result
    assert game_of(bob, game_id)["result"] == result


def test_a_game_carries_every_position_for_replay(alice: Player, bob: Player):
    game_id = started_game(alice, bob)
    with sockets(game_id, alice, bob) as (a, b):
        assert current(a)["positions"] == ["gle/1c1/1C1/ELG f -"]
        send(a, type="move", move="b2b3", ply=0)
        move_at(b, 1)
        # While the game goes on too: a page reloaded mid-game replays it from the start.
        assert current(a)["positions"] == ["gle/1c1/1C1/ELG f -", "gle/1C1/3/ELG s C"]
        send(b, type="resign")
        game = receive(a, "state")["game"]
    assert game["positions"] == ["gle/1c1/1C1/ELG f -", "gle/1C1/3/ELG s C"]
