"""The pages about players: a profile for each account (404 for no account), the
leaderboard and "my games" pages, and ``GET /api/me/games`` — the caller's own games,
an anonymous player's too — on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.app.accounts_and_streams import MATE, Account
from tests.app.conftest import Player, receive, send, served_page, started_game

NDJSON = "application/x-ndjson"
PROFILE = served_page("profile.html")


def lines(response: Any) -> list[dict[str, Any]]:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/x-ndjson")
    return [json.loads(line) for line in response.text.splitlines() if line.strip()]


def my_games(player: Player, query: str = "") -> list[dict[str, Any]]:
    return lines(
        player.client.get(
            f"/api/me/games{query}", headers={**player.headers, "accept": "application/x-ndjson"}
        )
    )


def mate(first: Player, second: Player, game_id: str) -> None:
    """Play the game to first's win (MATE)."""
    with first.socket(game_id) as a, second.socket(game_id) as b:
        for ws in (a, b):
            receive(ws, "state")
        for ply, move in enumerate(MATE):
            send(a if ply % 2 == 0 else b, type="move", move=move, ply=ply)
            receive(a, "move")


# ---- the pages ---------------------------------------------------------------------------
@pytest.mark.parametrize("asked", ["Robin_7", "robin_7", "ROBIN_7"])
def test_a_profile_is_served_for_an_account_whatever_its_case(
    client: TestClient, asked: str
) -> None:
    Account(client, "Robin_7")
    response = client.get(f"/@/{asked}")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert response.text == PROFILE


@pytest.mark.parametrize("asked", ["nobody", "x" * 21, "Anonymous%20AB12"])
def test_a_profile_of_no_account_is_a_404_page(
    client: TestClient, alice: Player, asked: str
) -> None:
    alice.create()  # an anonymous player exists, and is no user
    response = client.get(f"/@/{asked}")
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
    assert response.text == PROFILE  # the page says "no such player" (profile.js)


@pytest.mark.parametrize(("url", "name"), [("/leaderboard", "leaderboard"), ("/games", "games")])
def test_the_leaderboard_and_my_games_pages(client: TestClient, url: str, name: str) -> None:
    response = client.get(url)
    assert response.status_code == 200
    assert response.text == served_page(f"{name}.html")


def test_the_pages_are_not_in_the_api_schema(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert "/@/{username}" not in paths and "/leaderboard" not in paths
    assert "/api/me/games" in paths


# ---- GET /api/me/games -------------------------------------------------------------------
def test_an_anonymous_player_reads_its_own_games_newest_first(
    client: TestClient, alice: Player, bob: Player, carol: Player, clock: Any
) -> None:
    first = started_game(alice, bob)
    mate(alice, bob, first)
    clock.advance(1000)
    second = started_game(bob, alice)
    clock.advance(1000)
    alice.create(color="second")  # waiting for an opponent: not a game played yet
    started_game(bob, carol)  # not alice's
    games = my_games(alice)
    assert [g["id"] for g in games] == [second, first]
    assert games[1]["status"] == "mate" and games[1]["winner"] == "white"
    assert games[1]["players"]["white"]["user"]["id"] == alice.get("/api/me").json()["id"]
    assert games[0]["status"] == "started"
    assert games[0]["players"]["black"]["user"]["id"] == alice.get("/api/me").json()["id"]
    assert "moves" not in games[0]  # moves=false by default: a list needs none
    # Bob sees his three, carol her one.
    assert len(my_games(bob)) == 3 and len(my_games(carol)) == 1


def test_my_games_filters(client: TestClient, alice: Player, bob: Player, clock: Any) -> None:
    over = started_game(alice, bob)
    mate(alice, bob, over)
    clock.advance(1000)
    on = started_game(alice, bob)
    assert [g["id"] for g in my_games(alice, "?ongoing=false")] == [over]
    assert [g["id"] for g in my_games(alice, "?finished=false")] == [on]
    assert [g["id"] for g in my_games(alice, "?max=1")] == [on]
    assert my_games(alice, "?max=1&moves=true")[0]["moves"] == ""
    assert my_games(alice, "?max=2&moves=true")[1]["moves"] == " ".join(MATE)


def test_a_new_visitor_has_no_games(client: TestClient) -> None:
    assert my_games(Player(client, "new")) == []


def test_an_account_reads_its_games_by_token(client: TestClient) -> None:
    robin = Account(client, "Robin_7")
    assert (
        lines(robin.client.get("/api/me/games", headers={**robin.headers, "accept": NDJSON})) == []
    )


@pytest.mark.parametrize("query", ["?max=0", "?max=201", "?max=x", "?ongoing=maybe"])
def test_bad_parameters_are_refused(client: TestClient, alice: Player, query: str) -> None:
    response = alice.client.get(f"/api/me/games{query}", headers=alice.headers)
    assert response.status_code == 400
    assert response.json()["code"] == "request.invalid"
