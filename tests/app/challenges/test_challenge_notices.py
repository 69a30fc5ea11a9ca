"""Challenges on every page (docs/protocol.md): whatever page a player has open — its site
socket, the lobby's socket or a game's — hears at once a challenge made to them and its
cancellation, and the challenger's pages hear a decline (app/challenges/notices.py)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.challenges.notices import notice
from tests.app.accounts_and_streams import Account
from tests.app.conftest import Player, receive
from tests.app.ratings.test_rated_games import browser

RATED_BLITZ = {
    "variant": "dobutsu",
    "rated": True,
    "color": "white",
    "clock": {"limit": 300, "increment": 3},
}


@pytest.fixture
def pair(client: TestClient) -> tuple[Account, Account]:
    return Account(client, "alice"), Account(client, "bob")


def site(player: Player) -> Any:
    ws = player.client.websocket_connect("/ws/site", headers=player.headers)
    return ws


def test_the_challenged_players_site_socket_hears_it_at_once_and_the_challenger_a_decline(
    client: TestClient, pair: tuple[Account, Account]
) -> None:
    alice, bob = pair
    with site(browser(client, alice)) as a, site(browser(client, bob)) as b:
        assert a.receive_json()["type"] == b.receive_json()["type"] == "site"
        made = alice.post("/api/challenge/bob", RATED_BLITZ).json()
        told = b.receive_json()
        assert told["type"] == "challenge"
        challenge = told["challenge"]
        assert challenge["id"] == made["id"] and challenge["rated"] is True
        assert challenge["challenger"] == {
            "id": alice.id,
            "name": "alice",
            "title": None,
            "rating": 1500,
            "provisional": True,
        }
        assert challenge["timeControl"]["show"] == "5+3"
        assert (
            bob.post(f"/api/challenge/{made['id']}/decline", {"reason": "later"}).status_code == 200
        )
        # alice hears the decline, not her own copy of the challenge before it.
        declined = a.receive_json()
        assert declined["type"] == "challengeDeclined"
        assert declined["challenge"]["declineReasonKey"] == "later"
        # bob hears nothing of his own decline: his next message is the next challenge.
        again = alice.post("/api/challenge/bob", RATED_BLITZ).json()
        assert b.receive_json()["challenge"]["id"] == again["id"]
        assert alice.post(f"/api/challenge/{again['id']}/cancel").status_code == 200
        canceled = b.receive_json()
        assert (canceled["type"], canceled["challenge"]["id"]) == ("challengeCanceled", again["id"])
        # An accepted challenge: both pages hear the game start (and go there).
        third = alice.post("/api/challenge/bob", RATED_BLITZ).json()
        assert b.receive_json()["challenge"]["id"] == third["id"]
        assert bob.post(f"/api/challenge/{third['id']}/accept").status_code == 200
        assert receive(a, "gameStart")["game"]["id"] == third["id"]
        assert receive(b, "gameStart")["game"]["id"] == third["id"]


def test_the_lobby_and_a_game_page_hear_a_challenge_too(
    client: TestClient, pair: tuple[Account, Account]
) -> None:
    alice, bob = pair
    page = browser(client, bob)
    shown = Player(client, "someone").create("yote")["id"]  # bob watches a game
    with (
        client.websocket_connect("/ws/lobby", headers=page.headers) as lobby,
        page.socket(shown) as game,
    ):
        receive(lobby, "lobby")
        receive(game, "state")
        made = alice.post("/api/challenge/bob", {**RATED_BLITZ, "clock": None, "days": 3}).json()
        in_lobby = receive(lobby, "challenge")
        assert in_lobby["challenge"]["id"] == made["id"]
        assert in_lobby["challenge"]["timeControl"] == {"type": "correspondence", "daysPerTurn": 3}
        on_game = receive(game, "challenge")
        assert on_game["challenge"]["id"] == made["id"]
        assert on_game["ply"] == 0  # as every message of a game socket: the shown game's ply


def test_only_the_end_concerned_hears_a_line_and_never_a_rematch_or_an_open_challenge() -> None:
    alice = {"id": "alice", "name": "alice"}
    bob = {"id": "bob", "name": "bob"}
    made = {"id": "c1", "challenger": alice, "destUser": bob}
    line = {"type": "challenge", "challenge": made}
    assert notice(line, "bob") == line
    assert notice(line, "alice") is None  # lichess sends the challenger a copy: not shown
    declined = {"type": "challengeDeclined", "challenge": made}
    assert notice(declined, "alice") == declined and notice(declined, "bob") is None
    canceled = {"type": "challengeCanceled", "challenge": made}
    assert notice(canceled, "bob") == canceled and notice(canceled, "alice") is None
    assert notice({"type": "challenge", "challenge": {**made, "rematchOf": "g1"}}, "bob") is None
    assert notice({"type": "challenge", "challenge": {**made, "destUser": None}}, "bob") is None
    assert notice({"type": "gameStart", "game": {"id": "g1"}}, "bob") is None
