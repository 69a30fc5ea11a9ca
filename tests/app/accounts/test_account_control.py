"""An account its owner controls: change the password, close the account, download its data.

Each refusal is checked for its status and stable code, and that nothing changed.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.accounts.closing import close_account
from app.accounts.sessions import KEEP_S
from app.core.errors import ServiceError
from app.db.models import ApiToken, ChatLine, Player
from app.domain.players import Identity
from app.http.identity import COOKIE
from tests.app.accounts.test_accounts import (
    FAST,
    PASSWORD,
    Browser,
    call,
    db_rows,
    generous,
    new_token,
    register,
)
from tests.app.accounts_and_streams import MATE, assert_error
from tests.app.conftest import Player as Seat
from tests.app.conftest import started_game

NEW_PASSWORD = "a new horse staple"


@pytest.fixture
def web(client: TestClient) -> TestClient:
    client.app.state.services.accounts.hasher = FAST  # type: ignore[attr-defined]
    client.app.state.services.accounts.limits = generous()  # type: ignore[attr-defined]
    return client


def logged_in(web: TestClient, username: str, password: str = PASSWORD) -> Browser:
    browser = Browser(web)
    browser.login(username, password)
    return browser


def seat_of(browser: Browser, label: str) -> Seat:
    """The browser as the app tests' player (its cookie), to play games."""
    seat = Seat(browser.client, label)
    seat.cookie = f"{COOKIE}={browser.cookie}"
    return seat


def account_row(web: TestClient, player_id: str) -> Player:
    [row] = db_rows(web, select(Player).where(Player.id == player_id))
    assert isinstance(row, Player)
    return row


# ---- change the password ---------------------------------------------------------------------
def test_changing_the_password_needs_the_current_one_and_a_strong_new_one(web: TestClient):
    register(web, "alice")
    browser = logged_in(web, "alice")
    wrong = browser.post(
        "/api/account/password", {"currentPassword": "not it", "newPassword": NEW_PASSWORD}
    )
    assert_error(wrong, 403, "account.password_wrong")
    weak = browser.post("/api/account/password", {"currentPassword": PASSWORD, "newPassword": "a"})
    assert_error(weak, 400, "account.password_weak")
    # nothing changed: the old password still logs in, and the session is still on
    assert logged_in(web, "alice").get("/api/account").status_code == 200
    assert browser.get("/api/account").status_code == 200
    assert account_row(web, "alice").session_gen == 0


def test_changing_the_password_ends_the_other_sessions_keeps_this_one_and_the_tokens(
    web: TestClient,
):
    register(web, "alice")
    token = new_token(web, "alice", ["board:play"])
    here, elsewhere = logged_in(web, "alice"), logged_in(web, "alice")
    changed = here.post(
        "/api/account/password", {"currentPassword": PASSWORD, "newPassword": NEW_PASSWORD}
    )
    assert changed.status_code == 200, changed.text
    assert here.get("/api/account").json()["username"] == "alice"
    # the other browser is logged out: a new anonymous identity, given with a new cookie
    before = elsewhere.cookie
    assert_error(elsewhere.get("/api/account"), 401, "account.required")
    assert elsewhere.cookie != before
    assert elsewhere.me()["id"] != "alice"
    # its game socket is refused the account too
    with web.websocket_connect("/ws/site", headers={"cookie": f"{COOKIE}={before}"}) as ws:
        assert ws.receive_json()["me"] is None
    assert call(web, "GET", "/api/account", token).json()["username"] == "alice"
    bad = call(
        web,
        "POST",
        "/api/account/login",
        json={"username": "alice", "password": PASSWORD},
    )
    assert_error(bad, 401, "auth.bad_credentials")
    assert logged_in(web, "alice", NEW_PASSWORD).get("/api/account").status_code == 200


def test_a_token_cannot_change_the_password_close_the_account_nor_export_it(web: TestClient):
    register(web, "alice")
    token = new_token(web, "alice", ["board:play", "bot:play"])
    body = {"currentPassword": PASSWORD, "newPassword": NEW_PASSWORD}
    assert_error(call(web, "POST", "/api/account/password", token, json=body), 403, "token.scope")
    closing = call(web, "POST", "/api/account/close", token, json={"password": PASSWORD})
    assert_error(closing, 403, "token.scope")
    assert_error(call(web, "GET", "/api/account/export", token), 403, "token.scope")
    assert account_row(web, "alice").closed_ms is None


def test_an_anonymous_visitor_has_no_account_to_control(web: TestClient):
    guest = Browser(web)
    body = {"currentPassword": PASSWORD, "newPassword": NEW_PASSWORD}
    assert_error(guest.post("/api/account/password", body), 401, "account.required")
    assert_error(guest.post("/api/account/close", {"password": PASSWORD}), 401, "account.required")
    assert_error(guest.get("/api/account/export"), 401, "account.required")


# ---- close the account -----------------------------------------------------------------------
def test_closing_needs_the_password(web: TestClient):
    register(web, "alice")
    browser = logged_in(web, "alice")
    assert_error(
        browser.post("/api/account/close", {"password": "wrong"}), 403, "account.password_wrong"
    )
    assert account_row(web, "alice").closed_ms is None
    assert browser.get("/api/account").status_code == 200


def test_a_closed_account_keeps_its_games_under_the_closed_name_and_nothing_else(
    web: TestClient,
):
    register(web, "alice")
    register(web, "bob")
    token = new_token(web, "alice", ["board:play"])
    alice, bob = logged_in(web, "alice"), logged_in(web, "bob")
    other_alice = logged_in(web, "alice")
    finished = started_game(seat_of(alice, "alice"), seat_of(bob, "bob"))
    resigned = call(web, "POST", f"/api/board/game/{finished}/resign", token)
    assert resigned.status_code == 200, resigned.text
    playing = started_game(seat_of(alice, "alice"), seat_of(bob, "bob"))

    closed = alice.post("/api/account/close", {"password": PASSWORD})
    assert closed.status_code == 200, closed.text
    assert closed.json()["id"] != "alice"  # this browser: a new anonymous visitor
    assert alice.me()["id"] == closed.json()["id"]

    # the games stay, the account's seat named "alice (closed)"; the one in progress ended
    for game_id in (finished, playing):
        state = bob.get(f"/api/games/{game_id}").json()["game"]
        first = state["players"]["first"]
        assert (first["id"], first["name"]) == ("alice", "alice (closed)")
        assert state["status"] not in ("created", "started")
    # nobody can be alice any more: not by password, token or an old session
    login = call(
        web, "POST", "/api/account/login", json={"username": "alice", "password": PASSWORD}
    )
    assert_error(login, 403, "account.closed")
    assert_error(call(web, "GET", "/api/account", token), 401, "token.invalid")
    assert [t.revoked_ms is not None for t in db_rows(web, select(ApiToken))] == [True]
    assert_error(other_alice.get("/api/account"), 401, "account.required")
    assert other_alice.me()["id"] != "alice"
    token_by_password = call(
        web,
        "POST",
        "/api/token",
        json={"username": "alice", "password": PASSWORD, "scopes": ["board:play"]},
    )
    assert_error(token_by_password, 403, "account.closed")
    # and the username is never given again, in any case
    for name in ("alice", "ALICE"):
        again = call(
            web, "POST", "/api/account/register", json={"username": name, "password": PASSWORD}
        )
        assert_error(again, 409, "account.username_taken")
    # the profile says it is closed
    assert call(web, "GET", "/api/user/alice").json()["disabled"] is True


def test_close_account_is_one_function_a_moderator_calls_too(web: TestClient):
    register(web, "alice")
    services = web.app.state.services  # type: ignore[attr-defined]
    closed = web.portal.call(close_account, services, "alice", "http://testserver")  # type: ignore[union-attr]
    assert closed.closed_ms is not None and closed.name == "alice (closed)"
    with pytest.raises(ServiceError) as again:
        web.portal.call(close_account, services, "alice", "")  # type: ignore[union-attr]
    assert (again.value.code, again.value.status) == ("account.closed", 409)
    with pytest.raises(ServiceError) as unknown:
        web.portal.call(close_account, services, "nobody", "")  # type: ignore[union-attr]
    assert (unknown.value.code, unknown.value.status) == ("account.not_found", 404)


def test_another_instance_learns_a_session_ended_within_seconds(
    web: TestClient, make_client: Any, clock: Any
):
    register(web, "alice")
    other_instance = make_client()
    here = logged_in(web, "alice")
    there = Browser(other_instance)
    there.cookie = here.cookie
    assert there.get("/api/account").status_code == 200  # the other instance reads it now
    changed = here.post(
        "/api/account/password", {"currentPassword": PASSWORD, "newPassword": NEW_PASSWORD}
    )
    assert changed.status_code == 200
    clock.advance(int(KEEP_S * 1000))
    assert_error(there.get("/api/account"), 401, "account.required")


# ---- download the data -----------------------------------------------------------------------
def test_the_export_holds_the_account_its_games_chat_ratings_and_tokens(web: TestClient):
    register(web, "alice")
    register(web, "bob")
    new_token(web, "alice", ["board:play"])
    alice, bob = logged_in(web, "alice"), logged_in(web, "bob")
    game_id = started_game(seat_of(alice, "alice"), seat_of(bob, "bob"), rated=True)
    services = web.app.state.services  # type: ignore[attr-defined]
    seats = (Identity("alice", "alice"), Identity("bob", "bob"))
    for n, move in enumerate(MATE):  # a rated game alice wins
        web.portal.call(services.games.play.move, seats[n % 2], game_id, move)  # type: ignore[union-attr]
    sessions = web.app.state.services.accounts.sessions  # type: ignore[attr-defined]

    async def chat() -> None:
        async with sessions() as session, session.begin():
            session.add(
                ChatLine(
                    game_id=game_id,
                    room="player",
                    player_id="alice",
                    username="alice",
                    text="good game",
                    created_ms=1,
                )
            )

    web.portal.call(chat)  # type: ignore[union-attr]
    response = alice.get("/api/account/export")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/json")
    assert 'filename="kodama-alice.json"' in response.headers["content-disposition"]
    data: dict[str, Any] = json.loads(response.text)
    assert set(data) == {"account", "ratings", "ratingHistory", "tokens", "games", "chat"}
    assert data["account"]["username"] == "alice"
    assert [g["id"] for g in data["games"]] == [game_id]
    assert data["games"][0]["players"]["white"]["user"]["name"] == "alice"
    assert data["chat"] == [{"game": game_id, "room": "player", "text": "good game", "at": 1}]
    assert [t["scopes"] for t in data["tokens"]] == [["board:play"]]
    assert "hash" not in json.dumps(data["tokens"])
    assert [r["variant"] for r in data["ratings"]] == ["dobutsu"]
    assert [h["game"] for h in data["ratingHistory"]] == [game_id]
