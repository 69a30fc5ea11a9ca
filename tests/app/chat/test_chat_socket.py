"""Chat on the game socket (docs/protocol.md, "chat"): players write in both rooms, a signed-in
spectator in the spectators' room; every refusal is an ``error`` that keeps nothing; the
players' room never reaches a spectator (socket, NDJSON, another instance); the kept lines
come back after every ``state``; flood control per person over the socket and the API.

No test waits for a message that may never come: a line that must not arrive is checked by
a later line that must (the socket delivers in order), or by the ``pong`` after a ping."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.time import ManualClock
from app.domain.enums import ChatRoom
from app.domain.events import ChatPosted
from app.main import create_app
from app.realtime.messages import HubCodec
from tests.app.accounts_and_streams import Lines, assert_error
from tests.app.chat.conftest import account
from tests.app.conftest import Player, make_settings, receive, send, started_game
from tests.app.games.test_ws_protocol import exchange, only_error


def say(ws: Any, room: str, text: str) -> None:
    send(ws, type="chat", room=room, text=text)


def refused(ws: Any, code: str, **message: Any) -> dict[str, Any]:
    return only_error(exchange(ws, type="chat", **message), code)


def lines_of(client: Player, game_id: str) -> list[tuple[str, str, str]]:
    kept = client.get(f"/api/board/game/{game_id}/chat").json()
    return [(x["room"], x["user"], x["text"]) for x in kept]


# ---- writing -----------------------------------------------------------------------------
def test_players_chat_and_a_spectator_sees_the_spectators_room_only(alice, bob, carol):
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as a, bob.socket(game_id) as b, carol.socket(game_id) as c:
        for ws in (a, b, c):
            receive(ws, "state")
            assert receive(ws, "chatLines")["lines"] == []
        say(a, "player", "  good luck  ")
        seen = receive(b, "chat")
        assert seen["room"] == "player" and seen["text"] == "good luck"
        assert seen["username"] == alice.who.name and seen["userId"] == alice.who.id
        assert isinstance(seen["id"], int) and seen["ply"] == 0
        assert receive(a, "chat") == seen  # the writer's own line comes back too
        say(b, "player", "<b>thanks</b> & you")
        assert receive(a, "chat")["text"] == "<b>thanks</b> & you"  # plain text, as written
        say(b, "spectator", "hello watchers")
        # The spectator's first line is the spectators' room's: the two before never came.
        first = receive(c, "chat")
        assert (first["room"], first["text"]) == ("spectator", "hello watchers")
        assert receive(a, "chat")["room"] == "spectator"  # the players see both rooms
    assert lines_of(alice, game_id) == [
        ("player", alice.who.name, "good luck"),
        ("player", bob.who.name, "<b>thanks</b> & you"),
        ("spectator", bob.who.name, "hello watchers"),
    ]


def test_a_signed_in_spectator_writes_in_the_spectators_room(client, alice, bob):
    game_id = started_game(alice, bob)
    dave = account(client, "dave")
    with dave.socket(game_id) as d, alice.socket(game_id) as a:
        receive(d, "state")
        receive(a, "state")
        say(d, "spectator", "nice opening")
        line = receive(a, "chat")
        assert (line["room"], line["username"], line["userId"]) == ("spectator", "dave", "dave")
        assert receive(d, "chat")["text"] == "nice opening"
        refused(d, "chat.forbidden", room="player", text="psst")  # an account is no player


def test_refusals_keep_nothing(client, alice, bob, carol):
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as a, carol.socket(game_id) as c:
        receive(a, "state")
        receive(c, "state")
        refused(c, "chat.forbidden", room="player", text="hint: b2b3")
        refused(c, "chat.needs_account", room="spectator", text="hello")
        refused(a, "chat.invalid", room="player", text="x" * 141)
        refused(a, "chat.invalid", room="player", text="   ")
        refused(a, "chat.invalid", room="player", text="two\nlines")
        refused(a, "chat.invalid", room="player", text="two\u2028lines")
        refused(a, "chat.invalid", room="player", text="tab\there")
        refused(a, "request.invalid", room="lobby", text="hi")
        refused(a, "request.invalid", text="hi")
        refused(a, "request.invalid", room="player", text=5)
        refused(a, "request.invalid", room=["player"], text="hi")
        # exactly 140 characters is allowed (counted as characters, not bytes)
        messages = exchange(a, type="chat", room="player", text="é" * 140)
        assert [m["text"] for m in messages if m["type"] == "chat"] == ["é" * 140]
    client.cookies.clear()
    with client.websocket_connect(f"/ws/game/{game_id}") as nobody:  # no cookie at all
        receive(nobody, "state")
        refused(nobody, "chat.forbidden", room="player", text="hi")
        refused(nobody, "chat.needs_account", room="spectator", text="hi")
    assert lines_of(alice, game_id) == [("player", alice.who.name, "é" * 140)]


def test_chat_after_the_game_and_in_a_game_not_started(alice, bob):
    created = alice.create()
    with alice.socket(created["id"]) as a:
        receive(a, "state")
        say(a, "player", "anyone?")  # the creator holds a seat already
        assert receive(a, "chat")["text"] == "anyone?"
    game_id = started_game(alice, bob)
    assert alice.post(f"/api/board/game/{game_id}/resign").status_code == 200
    with bob.socket(game_id) as b:
        receive(b, "state")
        say(b, "player", "good game")
        assert receive(b, "chat")["text"] == "good game"


# ---- the players' room never reaches a spectator -----------------------------------------
def test_the_spectators_ndjson_stream_has_the_spectators_room_only(make_client):
    client = make_client(keepalive_seconds=0.1)
    alice, bob = account(client, "alice"), account(client, "bob")
    game_id = started_game(alice, bob)
    with (
        client.stream("GET", f"/api/game/{game_id}?format=ndjson") as s,
        alice.socket(game_id) as a,
    ):
        watching = Lines(s)
        watching.next()  # the game
        receive(a, "state")
        say(a, "player", "secret plan")
        say(a, "spectator", "hi all")
        line = watching.next("chatLine")
        assert (line["room"], line["text"]) == ("spectator", "hi all")
    # The player's own stream has both.
    with client.stream("GET", f"/api/board/game/stream/{game_id}", headers=alice.headers) as p:
        mine = Lines(p)
        mine.next("gameFull")
        say_by_api = {"room": "player", "text": "after"}
        assert bob.post(f"/api/board/game/{game_id}/chat", say_by_api).status_code == 200
        assert mine.next("chatLine")["text"] == "after"
        with bob.socket(game_id) as b:  # a line from a page reaches the stream too
            receive(b, "state")
            say(b, "player", "from the page")
            line = mine.next("chatLine")
        assert line == {
            "type": "chatLine",
            "room": "player",
            "username": bob.who.name,
            "text": "from the page",
        }


@pytest.fixture
def two_instances(postgres_url: str, tmp_path: Path) -> Any:
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    one = TestClient(create_app(make_settings(postgres_url, tmp_path / "one"), ManualClock()))
    two = TestClient(create_app(make_settings(postgres_url, tmp_path / "two"), ManualClock()))
    with one, two:
        yield one, two


def test_across_instances_the_players_room_reaches_the_players_only(two_instances):
    one, two = two_instances
    alice, bob = account(one, "alice"), account(one, "bob")
    game_id = started_game(alice, bob)
    bob_two, carol = Player(two, "bob"), Player(two, "carol")
    bob_two.who, bob_two.cookie = bob.who, bob.cookie
    with alice.socket(game_id) as a, bob_two.socket(game_id) as b, carol.socket(game_id) as c:
        for ws in (a, b, c):
            receive(ws, "state")
        say(a, "player", "between us")
        say(a, "spectator", "for everyone")
        line = receive(b, "chat")
        assert (line["room"], line["text"]) == ("player", "between us")
        assert receive(b, "chat")["room"] == "spectator"
        line = receive(c, "chat")
        assert (line["room"], line["text"]) == ("spectator", "for everyone")


def test_a_chat_event_crosses_instances_with_its_room():
    event = ChatPosted("g", 3, ChatRoom.PLAYER, "p1", "alice", "hi", 42)
    back = HubCodec.decode(HubCodec.encode(event))
    assert back == event and isinstance(back, ChatPosted) and back.room is ChatRoom.PLAYER


# ---- kept lines ----------------------------------------------------------------------------
def test_kept_lines_come_after_every_state_each_reading_what_it_may(alice, bob, carol):
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as a:
        receive(a, "state")
        say(a, "player", "p1")
        say(a, "spectator", "s1")
        said = [receive(a, "chat"), receive(a, "chat")]
    with bob.socket(game_id) as b:
        assert b.receive_json()["type"] == "state"
        history = b.receive_json()
        assert history["type"] == "chatLines" and history["ply"] == 0
        assert [(x["room"], x["text"]) for x in history["lines"]] == [
            ("player", "p1"),
            ("spectator", "s1"),
        ]
        # the same ids as told live: a page counts each line once
        assert [x["id"] for x in history["lines"]] == [m["id"] for m in said]
        assert history["lines"][0] == {k: said[0][k] for k in history["lines"][0]}
        send(b, type="resync")
        receive(b, "state")
        assert receive(b, "chatLines")["lines"] == history["lines"]
    with carol.socket(game_id) as c:
        receive(c, "state")
        lines = receive(c, "chatLines")["lines"]
        assert [(x["room"], x["text"]) for x in lines] == [("spectator", "s1")]
        send(c, type="resync")
        receive(c, "state")
        assert receive(c, "chatLines")["lines"] == lines


def test_a_page_is_sent_the_newest_hundred_lines(make_client):
    client = make_client(chat_flood_lines=200, ratelimit_chat_burst=200)
    alice, bob = account(client, "alice"), account(client, "bob")
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as a:
        receive(a, "state")
        for n in range(105):
            say(a, "player", f"line {n}")
        for _ in range(105):
            receive(a, "chat")
    with bob.socket(game_id) as b:
        receive(b, "state")
        lines = receive(b, "chatLines")["lines"]
    assert [x["text"] for x in lines] == [f"line {n}" for n in range(5, 105)]


# ---- flood control -----------------------------------------------------------------------
def test_flood_control_a_few_lines_then_a_pause_over_socket_and_api(client, clock, alice, bob):
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as a:
        receive(a, "state")
        for n in range(5):
            say(a, "player", f"spam {n}")
            receive(a, "chat")
        error = refused(a, "chat.too_fast", room="player", text="spam 5")
        assert error["ratelimit"] == {"key": "chat", "seconds": 3}
        # the same person through the API: the same budget, 429 with Retry-After
        answer = alice.post(f"/api/board/game/{game_id}/chat", {"room": "player", "text": "x"})
        body = assert_error(answer, 429, "chat.too_fast")
        assert body["ratelimit"]["seconds"] == 3 and answer.headers["retry-after"] == "3"
        clock.advance(2_000)
        assert refused(a, "chat.too_fast", room="player", text="x")["ratelimit"]["seconds"] == 1
        clock.advance(1_000)
        say(a, "player", "back")
        assert receive(a, "chat")["text"] == "back"
        refused(a, "chat.too_fast", room="spectator", text="again")  # both rooms count
        # another person is not held back
        with bob.socket(game_id) as b:
            receive(b, "state")
            say(b, "player", "my turn to talk")
            assert receive(b, "chat")["text"] == "my turn to talk"
    kept = [text for _, _, text in lines_of(alice, game_id)]
    assert kept == [*(f"spam {n}" for n in range(5)), "back", "my turn to talk"]
