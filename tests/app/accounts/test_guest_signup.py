"""Signing up keeps the guest's games: a browser playing as a guest that registers has its
games (finished and in progress), chat lines and counts become the account's, is logged in
to it, and sits in its seats at once; a logged-in account registering moves nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models import Challenge, ChatLine
from app.http.identity import COOKIE
from tests.app.accounts.test_accounts import FAST, PASSWORD, db_rows, generous
from tests.app.accounts_and_streams import services_of
from tests.app.conftest import Player, receive, send, started_game

WIN = ["b1c2", "b4a3", "c2c3", "a3a2", "c3c4"]  # dobutsu: the first player's lion takes c4


@pytest.fixture
def web(client: TestClient) -> TestClient:
    client.app.state.services.accounts.hasher = FAST  # type: ignore[attr-defined]
    client.app.state.services.accounts.limits = generous()  # type: ignore[attr-defined]
    return client


def register(player: Player, username: str) -> Any:
    """``player``'s browser registers ``username``: the answer."""
    return player.post("/api/account/register", {"username": username, "password": PASSWORD})


def logged_in(player: Player, answer: Any) -> Player:
    """The same browser with the cookie this answer set."""
    assert COOKIE in answer.cookies, answer.headers
    after = Player(player.client, player.label)
    after.cookie = f"{COOKIE}={answer.cookies[COOKIE]}"
    player.client.cookies.clear()
    return after


def my_games(player: Player) -> list[dict[str, Any]]:
    response = player.client.get(
        "/api/me/games", headers={**player.headers, "accept": "application/x-ndjson"}
    )
    assert response.status_code == 200, response.text
    return [json.loads(line) for line in response.text.splitlines() if line]


def play(game_id: str, first: Player, second: Player, moves: list[str]) -> None:
    with first.socket(game_id) as a, second.socket(game_id) as b:
        receive(a, "state")
        receive(b, "state")
        for ply, move in enumerate(moves):
            send(a if ply % 2 == 0 else b, type="move", move=move, ply=ply)
            receive(b, "move")


def test_a_guest_who_registers_keeps_its_games_and_its_seat(web: TestClient):
    guest, bob = Player(web, "guest"), Player(web, "bob")
    finished = started_game(guest, bob)
    play(finished, guest, bob, WIN)
    on = started_game(guest, bob)
    play(on, guest, bob, ["b1c2", "b4a3"])  # the pipeline now holds the game's row
    guest_id = guest.get("/api/me").json()["id"]

    answer = register(guest, "Alice")
    assert answer.status_code == 201, answer.text
    alice = logged_in(guest, answer)
    me = alice.get("/api/me").json()
    assert (me["id"], me["username"]) == ("alice", "Alice")
    assert me["count"]["all"] == 1 and me["count"]["win"] == 1 and me["count"]["playing"] == 1
    assert {g["id"] for g in my_games(alice)} == {finished, on}
    assert my_games(guest) == []
    for game_id in (finished, on):
        seats = alice.get(f"/api/games/{game_id}").json()["game"]["players"]
        assert seats["first"]["id"] == "alice", seats
        assert guest_id not in json.dumps(seats)

    # The game on: the old guest cookie is a spectator now, the account moves.
    with guest.socket(on) as old, alice.socket(on) as new, bob.socket(on) as b:
        receive(old, "state")
        assert receive(new, "state")["game"]["ply"] == 2
        receive(b, "state")
        send(old, type="move", move="c2c3", ply=2)
        assert receive(old, "error")["code"] == "game.not_player"
        send(new, type="move", move="c2c3", ply=2)
        assert receive(b, "move")["ply"] == 3


def test_a_guests_chat_lines_and_open_challenges_become_the_accounts(web: TestClient):
    guest, bob = Player(web, "guest"), Player(web, "bob")
    game_id = started_game(guest, bob)
    with guest.socket(game_id) as a:
        receive(a, "state")
        send(a, type="chat", room="player", text="good luck")
        assert receive(a, "error")["code"] == "chat.needs_account"  # guests write no line
    # Lines kept under a guest's id (a database of an older server may hold some).
    keep_line(web, game_id, guest, "good luck")
    made = guest.post("/api/challenge/open", {"variant": "dobutsu"})
    assert made.status_code == 200, made.text
    assert register(guest, "Alice").status_code == 201
    assert db_rows(web, select(ChatLine.player_id)) == ["alice"]
    assert db_rows(web, select(Challenge.challenger_id)) == ["alice"]


def keep_line(web: TestClient, game_id: str, player: Player, text: str) -> None:
    async def write() -> None:
        async with services_of(web).games.sessions() as session, session.begin():
            session.add(
                ChatLine(game_id=game_id, room="player", player_id=player.who.id,
                         username=player.who.name, text=text, created_ms=0)
            )  # fmt: skip

    assert web.portal is not None
    web.portal.call(write)


def test_a_second_registration_from_the_old_guest_cookie_moves_nothing(web: TestClient):
    guest, bob = Player(web, "guest"), Player(web, "bob")
    game_id = started_game(guest, bob)
    assert register(guest, "Alice").status_code == 201
    answer = register(guest, "Alice2")
    assert answer.status_code == 201, answer.text
    again = logged_in(guest, answer)
    assert my_games(again) == []
    seats = bob.get(f"/api/games/{game_id}").json()["game"]["players"]
    assert seats["first"]["id"] == "alice"


def test_a_logged_in_account_that_registers_another_moves_nothing(web: TestClient):
    guest, bob = Player(web, "guest"), Player(web, "bob")
    alice = logged_in(guest, register(guest, "Alice"))
    game_id = started_game(alice, bob)
    play(game_id, alice, bob, ["b1c2"])
    answer = register(alice, "Other")
    assert answer.status_code == 201, answer.text
    assert COOKIE not in answer.cookies  # still logged in to alice
    web.cookies.clear()
    assert alice.get("/api/me").json()["id"] == "alice"
    assert [g["id"] for g in my_games(alice)] == [game_id]
    seats = bob.get(f"/api/games/{game_id}").json()["game"]["players"]
    assert seats["first"]["id"] == "alice"


def test_a_request_with_a_token_that_registers_takes_nothing_from_the_cookie(web: TestClient):
    guest, bob = Player(web, "guest"), Player(web, "bob")
    game_id = started_game(guest, bob)
    web.cookies.clear()
    answer = web.post(
        "/api/account/register",
        json={"username": "robot", "password": PASSWORD},
        headers={"cookie": guest.cookie, "authorization": "Bearer kdm_not_a_token"},
    )
    web.cookies.clear()
    assert answer.status_code == 201, answer.text
    assert COOKIE not in answer.cookies
    seats = bob.get(f"/api/games/{game_id}").json()["game"]["players"]
    assert seats["first"]["id"] == guest.get("/api/me").json()["id"]
