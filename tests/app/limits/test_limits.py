"""Limits on creating things and on sockets, in the app: the "game" and
"socket" buckets, the caps of open public games (per player, per address), game-socket
messages sharing the HTTP API's "move" bucket, sockets per address. The same attacks against
a real server: test_limits_server.py; Retry-After on every 429: test_retry_after.py."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.core.config import Settings
from app.core.errors import ServiceError
from app.limits.api import ApiLimits
from tests.app.accounts_and_streams import MATE, Account, Lines, assert_error, services_of
from tests.app.conftest import Player, invite_token, receive, send, started_game
from tests.app.http.test_retry_after import assert_retry_after

MakeClient = Callable[..., TestClient]
SLOW = 0.01  # a bucket refilled this slowly stays empty for the whole test


def open_ids(client: TestClient) -> set[str]:
    return {g["id"] for g in client.get("/api/lobby").json()["open"]}


# ---- the "game" bucket: creations, joins, invite use, cancels --------------------------------
def test_the_game_bucket_holds_ten_then_one_every_ten_seconds():
    now = [0.0]
    limits = ApiLimits(Settings(secret_key="x"), clock=lambda: now[0])
    for _ in range(10):
        limits.hit("game", "player:a", "1.2.3.4")
    with pytest.raises(ServiceError) as refused:
        limits.hit("game", "player:a", "1.2.3.4")
    assert refused.value.extra["ratelimit"] == {"key": "game", "seconds": 10}
    now[0] += 10
    limits.hit("game", "player:a", "1.2.3.4")
    # Another player at the same address has a budget of its own (the address's is 10 times).
    limits.hit("game", "player:b", "1.2.3.4")


def test_creating_joining_invites_and_cancels_share_one_bucket_per_player(
    make_client: MakeClient,
):
    client = make_client(ratelimit_game_burst=4, ratelimit_game_per_s=SLOW)
    alice, bob = Player(client, "alice"), Player(client, "bob")
    first = alice.create()
    assert alice.post(f"/api/games/{first['id']}/cancel").status_code == 200
    assert alice.post("/api/games/nothere/join").status_code == 404
    assert alice.post("/api/invite/not-a-token").status_code == 404
    for refused in (
        alice.post("/api/games", {"variant": "dobutsu"}),
        alice.post(f"/api/games/{first['id']}/cancel"),
        alice.post("/api/invite/not-a-token"),
    ):
        assert_retry_after(refused, "game")
    assert open_ids(client) == set()  # the refused creation made nothing
    second = bob.create()  # another player is not held back by alice's budget
    assert open_ids(client) == {second["id"]}
    assert_retry_after(alice.post(f"/api/invite/{invite_token(second)}"), "game")
    assert bob.get(f"/api/games/{second['id']}").json()["game"]["status"] == "created"


def test_new_identities_do_not_escape_the_address_bucket(make_client: MakeClient):
    client = make_client(ratelimit_game_burst=2, ratelimit_game_per_s=SLOW, ratelimit_ip_factor=2)
    for n in range(4):  # the address's bucket: 2 × 2
        Player(client, f"visitor {n}").create()
    body = assert_retry_after(
        Player(client, "visitor 4").post("/api/games", {"variant": "yote"}), "game"
    )
    assert "address" in body["error"]
    assert len(open_ids(client)) == 4


# ---- open public games: per player, per address ----------------------------------------------
def test_a_player_has_at_most_the_cap_of_open_public_games(make_client: MakeClient):
    client = make_client(max_open_games=2)
    alice, bob = Player(client, "alice"), Player(client, "bob")
    first, _second = alice.create(), alice.create("jungle")
    refused = alice.post("/api/games", {"variant": "yote"})
    body = assert_error(refused, 409, "game.too_many_open")
    assert "at most 2" in body["error"]
    assert "retry-after" not in refused.headers  # waiting is not what helps
    assert len(open_ids(client)) == 2
    # A private game fills no lobby: not capped (the rate limit still counts it).
    assert alice.post("/api/games", {"variant": "yote", "public": False}).status_code == 201
    # A game joined or cancelled no longer waits: room for another.
    assert bob.post(f"/api/games/{first['id']}/join").status_code == 200
    third = alice.create("wali")
    assert_error(alice.post("/api/games", {"variant": "yote"}), 409, "game.too_many_open")
    assert alice.post(f"/api/games/{third['id']}/cancel").status_code == 200
    assert alice.post("/api/games", {"variant": "yote"}).status_code == 201


def test_an_address_has_at_most_the_cap_of_open_public_games(make_client: MakeClient):
    client = make_client(max_open_games=5, max_open_games_per_ip=3)
    creators = [Player(client, f"visitor {n}") for n in range(3)]
    games = [p.create() for p in creators]
    late = Player(client, "visitor 3")
    body = assert_error(late.post("/api/games", {"variant": "dobutsu"}), 409, "game.too_many_open")
    assert "address" in body["error"]
    assert late.post("/api/games", {"variant": "dobutsu", "public": False}).status_code == 201
    assert creators[0].post(f"/api/games/{games[0]['id']}/cancel").status_code == 200
    assert late.post("/api/games", {"variant": "dobutsu"}).status_code == 201
    assert len(open_ids(client)) == 3


def test_a_seek_is_an_open_public_game_and_counts_against_the_caps(make_client: MakeClient):
    client = make_client(max_open_games=1, keepalive_seconds=0.1)
    alice = Account(client, "alice")
    with alice.stream("/api/board/seek", method="POST", json={"variant": "yote"}) as waiting:
        Lines(waiting).raw()  # the seek waits in the lobby
        refused = alice.post("/api/board/seek", {"variant": "wali"})
        assert_error(refused, 409, "game.too_many_open")
    client.cookies.clear()


def test_an_address_cap_counts_seeks(make_client: MakeClient):
    client = make_client(max_open_games_per_ip=1, keepalive_seconds=0.1)
    alice = Account(client, "alice")
    with alice.stream("/api/board/seek", method="POST", json={"variant": "yote"}) as waiting:
        Lines(waiting).raw()
        client.cookies.clear()
        body = assert_error(
            Player(client, "browser").post("/api/games", {"variant": "wali"}),
            409,
            "game.too_many_open",
        )
        assert "address" in body["error"]


# ---- the game socket: actions share the "move" bucket; everything else the "socket" one ------
def test_socket_actions_take_from_the_bucket_of_the_http_moves(make_client: MakeClient):
    client = make_client(ratelimit_move_burst=3, ratelimit_move_per_s=SLOW)
    alice, bob = Player(client, "alice"), Player(client, "bob")
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as ws:
        receive(ws, "state")
        send(ws, type="move", move=MATE[0], ply=0)
        receive(ws, "move")
        send(ws, type="move", move=MATE[2], ply=1)  # not alice's turn: refused, but counted
        assert receive(ws, "error")["code"] == "game.not_your_turn"
        send(ws, type="draw", action="offer")
        receive(ws, "state")
        send(ws, type="resign")
        refused = receive(ws, "error")
        assert refused["code"] == "ratelimit"
        assert refused["ratelimit"] == {"key": "move", "seconds": 100}
        assert refused["ply"] == 1
    # The HTTP API's moves of the same player: the same (empty) bucket.
    assert_retry_after(alice.post(f"/api/board/game/{game_id}/resign"), "move")
    assert alice.get(f"/api/games/{game_id}").json()["game"]["status"] == "started"
    # The opponent's budget is untouched.
    assert bob.post(f"/api/board/game/{game_id}/move/{MATE[1]}").status_code == 200


def test_pings_resyncs_and_bad_input_take_from_the_socket_bucket(make_client: MakeClient):
    client = make_client(ratelimit_socket_burst=3, ratelimit_socket_per_s=SLOW)
    alice, bob = Player(client, "alice"), Player(client, "bob")
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as ws:
        receive(ws, "state")
        send(ws, type="ping")
        receive(ws, "pong")
        send(ws, type="resync")
        receive(ws, "state")
        ws.send_text("not json")
        assert receive(ws, "error")["code"] == "request.malformed"
        for message in ({"type": "resync"}, {"type": "ping"}, {"type": "nonsense"}):
            send(ws, **message)
            refused = receive(ws, "error")
            assert (refused["code"], refused["ratelimit"]["key"]) == ("ratelimit", "socket")
        # Moves are not held back by a flood of pings.
        send(ws, type="move", move=MATE[0], ply=0)
        assert receive(ws, "move")["ply"] == 1


def test_a_socket_without_identity_has_a_socket_bucket_too(make_client: MakeClient):
    client = make_client(ratelimit_socket_burst=1, ratelimit_socket_per_s=SLOW)
    alice, bob = Player(client, "alice"), Player(client, "bob")
    game_id = started_game(alice, bob)
    client.cookies.clear()
    with client.websocket_connect(f"/ws/game/{game_id}") as ws:
        receive(ws, "state")
        send(ws, type="move", move=MATE[0])
        assert receive(ws, "error")["code"] == "game.not_player"
        send(ws, type="move", move=MATE[0])
        assert receive(ws, "error")["ratelimit"]["key"] == "socket"


# ---- sockets per address -----------------------------------------------------------------------
def closed_with(client: TestClient, url: str) -> tuple[int, str]:
    with client.websocket_connect(url) as ws, pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    return closed.value.code, closed.value.reason


def test_an_address_has_at_most_the_cap_of_sockets_then_1013(make_client: MakeClient):
    client = make_client(max_sockets_per_ip=2)
    alice = Player(client, "alice")
    game_id = alice.create()["id"]
    with alice.socket(game_id) as game_ws, client.websocket_connect("/ws/lobby") as lobby_ws:
        receive(game_ws, "state")
        assert lobby_ws.receive_json()["type"] == "lobby"
        for url in ("/ws/lobby", f"/ws/game/{game_id}"):
            assert closed_with(client, url) == (1013, "too many connections from this address")
    # Both closed: the address may open sockets again.
    with alice.socket(game_id) as again:
        assert receive(again, "state")["game"]["id"] == game_id
    assert services_of(client).sockets.held("testclient") == 0
