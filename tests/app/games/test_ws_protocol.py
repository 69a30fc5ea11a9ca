"""The game WebSocket: full state first, a ply on every message, and for every bad input a
clear ``error`` with a stable code, no crash and no change to the game.

No test waits for a message that may never come: a bad input is followed by a ``ping``, and
the messages are read up to the ``pong`` (the error reply is sent before the ping is read).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect, WebSocketDisconnected
from websockets.exceptions import ConnectionClosed

from app.http.connections import Connection
from tests.app.conftest import Player, receive, send, started_game

# What this module tests is the same on either database (tests/app/conftest.py).
pytestmark = pytest.mark.sqlite_only

LIMIT = 4096  # Settings.max_message_bytes
# What a game's state must show for it to be "unchanged".
KEYS = ("ply", "fen", "moves", "status", "turn", "legalMoves", "result", "drawOffer", "players")


# ---- helpers -----------------------------------------------------------------------------
def until_pong(ws: Any, limit: int = 50) -> list[dict[str, Any]]:
    """Every message up to and including the next pong (send a ping first)."""
    messages = []
    for _ in range(limit):
        message: dict[str, Any] = ws.receive_json()
        messages.append(message)
        if message["type"] == "pong":
            return messages
    raise AssertionError(f"no pong among {messages}")


def exchange_raw(ws: Any, text: str) -> list[dict[str, Any]]:
    ws.send_text(text)
    send(ws, type="ping")
    return until_pong(ws)


def exchange(ws: Any, **message: Any) -> list[dict[str, Any]]:
    return exchange_raw(ws, json.dumps(message))


def only_error(messages: list[dict[str, Any]], code: str) -> dict[str, Any]:
    errors = [m for m in messages if m["type"] == "error"]
    assert [e["code"] for e in errors] == [code], messages
    error = errors[0]
    assert isinstance(error["error"], str) and error["error"].strip(), error
    return error


def refused(ws: Any, code: str, **message: Any) -> dict[str, Any]:
    return only_error(exchange(ws, **message), code)


def current(ws: Any) -> dict[str, Any]:
    """The game's state as a resync shows it, reduced to what a change would touch."""
    send(ws, type="resync")
    state = receive(ws, "state")
    assert state["ply"] == state["game"]["ply"]
    return {k: state["game"][k] for k in KEYS}


def stored(player: Player, game_id: str) -> dict[str, Any]:
    game = player.get(f"/api/games/{game_id}").json()["game"]
    return {k: game[k] for k in KEYS}


# ---- connecting --------------------------------------------------------------------------
def test_the_first_message_is_the_full_state(alice: Player, bob: Player):
    game_id = started_game(alice, bob, "jungle", clock={"minutes": 5, "increment": 3})
    with alice.socket(game_id) as ws:
        first = ws.receive_json()
    assert first["type"] == "state"
    assert first["ply"] == 0
    game = first["game"]
    rest = alice.get(f"/api/games/{game_id}").json()["game"]
    for key in rest:
        if key not in ("serverTime", "clock"):
            assert game[key] == rest[key], key
    assert game["clock"]["initial"] == 300_000
    assert game["legalMoves"]
    assert first["me"] == {"id": alice.who.id, "name": alice.who.name}
    assert "invite" not in first  # the game has started: the link is spent


def test_the_creator_of_a_waiting_game_sees_the_invite(alice: Player, carol: Player):
    created = alice.create("dobutsu")
    token = created["inviteUrl"].rsplit("/", 1)[1]
    with alice.socket(created["id"]) as ws:
        state = ws.receive_json()
    assert state["type"] == "state"
    assert state["invite"] == token
    assert state["game"]["status"] == "created"
    with carol.socket(created["id"]) as ws:
        state = ws.receive_json()
    assert state["type"] == "state"
    assert "invite" not in state
    assert token not in json.dumps(state)


def test_an_anonymous_spectator_gets_the_state_without_me(
    client: TestClient, alice: Player, bob: Player
):
    game_id = started_game(alice, bob)
    client.cookies.clear()
    with client.websocket_connect(f"/ws/game/{game_id}") as ws:
        state = ws.receive_json()
        assert state["type"] == "state"
        assert state["me"] is None
        refused(ws, "game.not_player", type="move", move="b2b3", ply=0)
    client.cookies.clear()


def test_a_reconnect_gets_the_full_state_again(alice: Player, bob: Player):
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as a, bob.socket(game_id) as b:
        receive(a, "state")
        receive(b, "state")
        send(a, type="move", move="b2b3", ply=0)
        receive(b, "move")
    with bob.socket(game_id) as b:
        state = b.receive_json()
    assert state["type"] == "state"
    assert state["ply"] == 1
    assert state["game"]["moves"] == ["b2b3"]
    assert state["game"]["turn"] == "second"


def test_an_unknown_game_gets_an_error_and_the_socket_closes(alice: Player):
    with alice.socket("nosuchgame") as ws:
        error = ws.receive_json()
        assert error["type"] == "error"
        assert error["code"] == "game.not_found"
        assert error["error"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 4404


# ---- the ply on every message ------------------------------------------------------------
def test_every_message_carries_the_ply(alice: Player, bob: Player, carol: Player):
    game_id = started_game(alice, bob)
    seen: list[tuple[int, dict[str, Any]]] = []  # (the ply the game is at, a message)
    with alice.socket(game_id) as a, bob.socket(game_id) as b:
        seen.append((0, a.receive_json()))  # the state
        receive(b, "state")
        seen += [(0, m) for m in exchange(a, type="ping")]  # presence, pong
        seen += [(0, m) for m in exchange(a, type="move", move="b2b4", ply=0)]  # an error
        send(a, type="move", move="b2b3", ply=0)
        seen.append((1, receive(a, "move")))
        seen += [(1, m) for m in exchange(a, type="move", move="c1c2", ply=1)]  # not your turn
        with carol.socket(game_id):
            seen.append((1, receive(a, "presence")))
        seen += [(1, m) for m in exchange(a, type="resync")]  # a state
        send(b, type="draw", action="offer")
        seen.append((1, receive(a, "state")))
        seen += [(1, m) for m in exchange(a, type="ping")]
    kinds = {m["type"] for _, m in seen}
    assert {"state", "move", "error", "presence", "pong"} <= kinds
    for ply, message in seen:
        assert isinstance(message.get("ply"), int), message
        assert message["ply"] == ply, message


def test_ping_gets_pong(alice: Player, bob: Player):
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as ws:
        receive(ws, "state")
        send(ws, type="ping")
        pong = receive(ws, "pong")
    assert pong["ply"] == 0


def test_resync_sends_the_full_state(alice: Player, bob: Player, carol: Player):
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as a, carol.socket(game_id) as c:
        first = receive(c, "state")
        receive(a, "state")
        send(a, type="move", move="b1c2", ply=0)
        receive(c, "move")
        send(c, type="resync")
        state = receive(c, "state")
    assert state["ply"] == 1
    assert state["game"]["moves"] == ["b1c2"]
    assert state["game"]["fen"] != first["game"]["fen"]
    assert state["me"] == {"id": carol.who.id, "name": carol.who.name}


# ---- bad input: an error, no crash, no change --------------------------------------------
MALFORMED: list[Any] = [
    pytest.param("not json", "request.malformed", id="not-json"),
    pytest.param('{"type": "move"', "request.malformed", id="truncated"),
    pytest.param("{'type': 'ping'}", "request.malformed", id="single-quotes"),
    pytest.param("", "request.malformed", id="empty"),
    pytest.param("[1, 2]", "request.malformed", id="array"),
    pytest.param('"move"', "request.malformed", id="string"),
    pytest.param("42", "request.malformed", id="number"),
    pytest.param("null", "request.malformed", id="null"),
    # 4000 bytes: under the size limit, but nested deeper than a parser recurses
    pytest.param("[" * 2000 + "]" * 2000, "request.malformed", id="nested-too-deep"),
    pytest.param("{}", "request.unknown_type", id="no-type"),
    pytest.param('{"type": "teleport"}', "request.unknown_type", id="unknown-type"),
    pytest.param('{"type": "MOVE", "move": "b2b3"}', "request.unknown_type", id="type-in-capitals"),
    pytest.param('{"type": 5}', "request.unknown_type", id="type-number"),
    pytest.param('{"type": null}', "request.unknown_type", id="type-null"),
    pytest.param('{"type": ["move"]}', "request.unknown_type", id="type-list"),
    pytest.param('{"type": "state"}', "request.unknown_type", id="server-only-type"),
    pytest.param(
        '{"type": "ping", "pad": "' + "x" * LIMIT + '"}', "request.too_large", id="oversized-ping"
    ),
    pytest.param(
        '{"type": "move", "move": "b2b3", "ply": 0, "pad": "' + "é" * 2100 + '"}',
        "request.too_large",
        id="oversized-move-multibyte",
    ),
    pytest.param('{"type": "move"}', "request.invalid", id="move-missing"),
    pytest.param('{"type": "move", "move": null}', "request.invalid", id="move-null"),
    pytest.param('{"type": "move", "move": 23}', "request.invalid", id="move-number"),
    pytest.param('{"type": "move", "move": ["b2b3"]}', "request.invalid", id="move-list"),
    pytest.param(
        '{"type": "move", "move": "b2b3", "ply": "0"}', "request.invalid", id="ply-string"
    ),
    pytest.param('{"type": "move", "move": "b2b3", "ply": true}', "request.invalid", id="ply-bool"),
    pytest.param('{"type": "move", "move": "b2b3", "ply": 0.5}', "request.invalid", id="ply-float"),
    pytest.param('{"type": "draw"}', "request.invalid", id="draw-no-action"),
    pytest.param('{"type": "draw", "action": "maybe"}', "request.invalid", id="draw-bad-action"),
    pytest.param('{"type": "draw", "action": 1}', "request.invalid", id="draw-action-number"),
    pytest.param('{"type": "claim"}', "request.invalid", id="claim-no-result"),
    pytest.param(
        '{"type": "claim", "result": "forfeit"}', "request.invalid", id="claim-bad-result"
    ),
    pytest.param('{"type": "move", "move": "", "ply": 0}', "move.invalid", id="move-empty"),
    pytest.param('{"type": "move", "move": "zz", "ply": 0}', "move.invalid", id="move-garbage"),
    pytest.param('{"type": "move", "move": "B2B3", "ply": 0}', "move.invalid", id="move-capitals"),
    pytest.param(
        '{"type": "move", "move": "b2b3 ", "ply": 0}', "move.invalid", id="move-trailing-space"
    ),
    pytest.param('{"type": "move", "move": "a9a8", "ply": 0}', "move.invalid", id="move-off-board"),
    pytest.param(
        '{"type": "move", "move": "' + "b2b3" * 50 + '", "ply": 0}',
        "move.invalid",
        id="move-too-long",
    ),
    pytest.param(
        '{"type": "move", "move": "b2b4", "ply": 0}', "move.illegal", id="illegal-chick-two-steps"
    ),
    pytest.param(
        '{"type": "move", "move": "a1a2", "ply": 0}', "move.illegal", id="illegal-elephant-straight"
    ),
    pytest.param(
        '{"type": "move", "move": "b2b3+", "ply": 0}', "move.illegal", id="illegal-promotion"
    ),
    pytest.param('{"type": "move", "move": "C*a3"}', "move.illegal", id="illegal-drop-empty-hand"),
]


@pytest.mark.parametrize(("text", "code"), MALFORMED)
def test_bad_input_gets_an_error_and_changes_nothing(
    alice: Player, bob: Player, carol: Player, text: str, code: str
):
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as a, bob.socket(game_id) as b, carol.socket(game_id) as c:
        receive(b, "state")
        receive(c, "state")
        before = current(a)
        error = only_error(exchange_raw(a, text), code)
        assert error["ply"] == 0
        assert current(a) == before
        # the socket still works: the player can go on and play
        send(a, type="move", move="b2b3", ply=0)
        for ws in (a, b, c):
            assert receive(ws, "move")["ply"] == 1
    assert stored(carol, game_id)["moves"] == ["b2b3"]


def test_a_message_of_exactly_the_limit_is_accepted(alice: Player, bob: Player):
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as ws:
        receive(ws, "state")
        head = '{"type": "ping", "pad": "'
        text = head + "x" * (LIMIT - len(head) - 2) + '"}'
        assert len(text.encode()) == LIMIT
        ws.send_text(text)
        messages = until_pong(ws)  # the pong to that padded ping
        send(ws, type="ping")
        messages += until_pong(ws)
    assert [m["type"] for m in messages if m["type"] in ("pong", "error")] == ["pong", "pong"]


def test_a_binary_frame_gets_an_error_and_changes_nothing(alice: Player, bob: Player):
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as ws:
        before = current(ws)
        ws.send_bytes(b'{"type": "move", "move": "b2b3", "ply": 0}')
        send(ws, type="ping")
        only_error(until_pong(ws), "request.malformed")
        assert current(ws) == before


# ---- moves refused by the game's state ---------------------------------------------------
@pytest.mark.parametrize("ply", [0, None])
def test_a_move_out_of_turn(alice: Player, bob: Player, ply: int | None):
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as a, bob.socket(game_id) as b:
        receive(a, "state")
        before = current(b)
        refused(b, "game.not_your_turn", type="move", move="b3b2", ply=ply)
        refused(b, "game.not_your_turn", type="move", move="b4b3", ply=ply)  # legal for bob
        assert current(b) == before
        assert current(a) == before


@pytest.mark.parametrize("ply", [1, 5, -1, 10**12])
def test_a_stale_ply(alice: Player, bob: Player, ply: int):
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as ws:
        before = current(ws)
        error = refused(ws, "game.stale", type="move", move="b2b3", ply=ply)
        assert error["ply"] == 0  # tells the client where the game is
        assert current(ws) == before


def test_the_same_move_sent_twice_is_played_once(alice: Player, bob: Player, carol: Player):
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as a, carol.socket(game_id) as c:
        receive(c, "state")
        receive(a, "state")
        send(a, type="move", move="b2b3", ply=0)
        messages = exchange(a, type="move", move="b2b3", ply=0)
        error = only_error(messages, "game.stale")
        assert error["ply"] == 1
        moved = receive(c, "move")
        assert (moved["move"], moved["ply"]) == ("b2b3", 1)
        after = current(a)
    assert after["ply"] == 1
    assert after["moves"] == ["b2b3"]
    assert stored(carol, game_id) == after


@pytest.mark.parametrize("color", ["first", "second", "random"])
def test_no_move_before_the_opponent_joined(alice: Player, color: str):
    created = alice.create("dobutsu", color=color)  # random: the default colour
    with alice.socket(created["id"]) as ws:
        before = current(ws)
        assert before["status"] == "created"
        refused(ws, "game.not_started", type="move", move="b2b3", ply=0)
        refused(ws, "game.not_started", type="move", move="b2b3")
        refused(ws, "game.not_started", type="resign")
        refused(ws, "game.not_started", type="draw", action="offer")
        refused(ws, "game.not_started", type="abort")
        assert current(ws) == before


def test_a_spectator_cannot_act(alice: Player, bob: Player, carol: Player):
    game_id = started_game(alice, bob)
    with carol.socket(game_id) as ws:
        before = current(ws)
        for message in (
            {"type": "move", "move": "b2b3", "ply": 0},
            {"type": "move", "move": "b2b3"},
            {"type": "resign"},
            {"type": "abort"},
            {"type": "draw", "action": "offer"},
            {"type": "draw", "action": "accept"},
            {"type": "claim", "result": "victory"},
        ):
            error = refused(ws, "game.not_player", **message)
            assert error["ply"] == 0
        assert current(ws) == before
    assert stored(carol, game_id) == before


def test_nothing_is_accepted_after_the_game_ended(alice: Player, bob: Player):
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as a, bob.socket(game_id) as b:
        receive(a, "state")
        receive(b, "state")
        send(a, type="move", move="b2b3", ply=0)
        receive(b, "move")
        send(b, type="resign")
        assert receive(a, "state")["game"]["status"] == "resign"
        before = current(a)
        for ws, message in (
            (a, {"type": "move", "move": "b3b4", "ply": 1}),
            (b, {"type": "move", "move": "a4b3", "ply": 1}),
            (b, {"type": "move", "move": "a4b3"}),
            (a, {"type": "resign"}),
            (b, {"type": "resign"}),
            (a, {"type": "abort"}),
            (a, {"type": "draw", "action": "offer"}),
            (b, {"type": "draw", "action": "accept"}),
            (b, {"type": "claim", "result": "victory"}),
        ):
            error = refused(ws, "game.over", **message)
            assert error["ply"] == 1
        assert current(a) == before
        assert current(b) == before
    assert stored(alice, game_id) == before


# ---- presence ----------------------------------------------------------------------------
def presence_until(ws: Any, first: bool, second: bool, spectators: int) -> None:
    """Read presence messages until one shows this (earlier ones may be older news: the
    test client cancels a closed socket's handler, which may or may not have published)."""
    expected = {"first": first, "second": second}
    seen = []
    for _ in range(10):
        message = receive(ws, "presence")
        assert isinstance(message["ply"], int), message
        seen.append(message)
        if (message["online"], message["spectators"]) == (expected, spectators):
            return
    raise AssertionError(f"no presence {expected}, {spectators} spectators among {seen}")


def test_presence_shows_players_online_and_the_spectator_count(
    alice: Player, bob: Player, carol: Player
):
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as a:
        assert a.receive_json()["type"] == "state"
        presence_until(a, True, False, 0)
        with bob.socket(game_id) as b:
            presence_until(a, True, True, 0)
            assert b.receive_json()["type"] == "state"
            presence_until(b, True, True, 0)
            with carol.socket(game_id) as c:
                presence_until(a, True, True, 1)
                assert c.receive_json()["type"] == "state"
                presence_until(c, True, True, 1)
                with carol.socket(game_id) as c2:
                    presence_until(a, True, True, 2)
                    presence_until(c2, True, True, 2)
            with carol.socket(game_id) as c:  # the two others have gone
                presence_until(c, True, True, 1)
            with bob.socket(game_id):  # a second tab of the same player
                presence_until(a, True, True, 0)
            with carol.socket(game_id) as c:  # bob is still there in his first tab
                presence_until(c, True, True, 1)
        with carol.socket(game_id) as c:  # bob has gone
            presence_until(c, True, False, 1)
            presence_until(a, True, False, 1)
    with bob.socket(game_id) as b:  # alice has gone
        presence_until(b, False, True, 0)


@pytest.mark.parametrize(
    "failure",
    [
        pytest.param(OSError("connection lost"), id="uvicorn-ClientDisconnected"),
        pytest.param(
            RuntimeError(
                "Unexpected ASGI message 'websocket.send', after sending 'websocket.close'."
            ),
            id="uvicorn-after-close",
        ),
        pytest.param(WebSocketDisconnected("Cannot call send once closed"), id="starlette"),
        pytest.param(ConnectionClosed(None, None), id="websockets"),
        pytest.param(WebSocketDisconnect(1006), id="starlette-disconnect"),
    ],
)
def test_a_send_or_close_to_a_client_that_left_is_one_disconnect(failure: Exception):
    """However the server's WebSocket implementation reports a client gone, the handlers see
    WebSocketDisconnect (which they expect) and nothing else."""

    class Gone:
        async def send_text(self, _text: str) -> None:
            raise failure

        async def close(self, code: int) -> None:
            raise failure

    conn = Connection(Gone())  # type: ignore[arg-type]
    with pytest.raises(WebSocketDisconnect):
        asyncio.run(conn.send_json({"type": "pong", "ply": 0}))
    with pytest.raises(WebSocketDisconnect):
        asyncio.run(conn.close(4404))
