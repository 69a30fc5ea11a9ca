"""Accounts: register, log in/out, API tokens, scopes, the BOT upgrade, rate limits.

Every refusal is checked for its status and stable code, and that nothing changed (no
account, no token, no title, no cookie appeared).
"""

from __future__ import annotations

import asyncio
import hashlib
from typing import Annotated, Any

import pytest
from argon2 import PasswordHasher
from fastapi import Depends, FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.accounts.service import AccountService, Limits, token_hash
from app.core.config import Settings
from app.core.errors import ServiceError
from app.core.time import ManualClock
from app.db.models import ApiToken, Player
from app.http.auth import Caller, account_caller, caller
from app.http.identity import COOKIE, Identities
from app.limits.ratelimit import RateLimiter
from app.main import create_app
from tests.app.accounts_and_streams import assert_error
from tests.app.conftest import SECRET, invite_token, served_page
from tests.app.conftest import Player as Anonymous

# Cheap argon2 parameters for the tests (the real ones cost ~0.1 s and 64 MiB a hash).
FAST = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
PASSWORD = "correct horse"
ENDPOINTS = {
    ("post", "/api/account/register"),
    ("post", "/api/account/login"),
    ("post", "/api/account/logout"),
    ("get", "/api/account"),
    ("post", "/api/token"),
    ("delete", "/api/token"),
    ("get", "/api/account/tokens"),
    ("delete", "/api/account/tokens/{token_id}"),
    ("post", "/api/bot/account/upgrade"),
}

STILL = ManualClock()  # for the limiters of tests whose time need not pass


def generous() -> Limits:
    return Limits(
        password=RateLimiter(1000, 1000, STILL.monotonic),
        register=RateLimiter(1000, 1000, STILL.monotonic),
    )


def add_test_routes(app: FastAPI) -> None:
    """Routes that only show who calls, behind the dependencies under test."""

    def echo(who: Caller) -> dict[str, Any]:
        return {
            "id": who.identity.id,
            "name": who.identity.name,
            "token": who.token_id,
            "scopes": sorted(who.scopes),
            "username": who.username,
            "bot": who.bot,
        }

    async def anyone(who: Annotated[Caller, Depends(caller())]) -> dict[str, Any]:
        return echo(who)

    async def challenger(
        who: Annotated[Caller, Depends(caller("challenge:read", "challenge:write"))],
    ) -> dict[str, Any]:
        return echo(who)

    async def bot_account(
        who: Annotated[Caller, Depends(account_caller("bot:play"))],
    ) -> dict[str, Any]:
        return echo(who)

    app.add_api_route("/test/anyone", anyone)
    app.add_api_route("/test/challenger", challenger)
    app.add_api_route("/test/bot-account", bot_account)


@pytest.fixture
def web(settings: Settings) -> Any:
    app = create_app(settings)
    add_test_routes(app)
    with TestClient(app) as c:
        c.app.state.services.accounts.hasher = FAST  # type: ignore[attr-defined]
        c.app.state.services.accounts.limits = generous()  # type: ignore[attr-defined]
        yield c


# ---- helpers -----------------------------------------------------------------------------
class Browser:
    """A browser: keeps the identity cookie the server gives it, as a real one does."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.cookie: str | None = None

    def request(self, method: str, url: str, **kwargs: Any) -> Any:
        headers = dict(kwargs.pop("headers", {}))
        if self.cookie is not None:
            headers["cookie"] = f"{COOKIE}={self.cookie}"
        self.client.cookies.clear()
        response = self.client.request(method, url, headers=headers, **kwargs)
        self.client.cookies.clear()
        if COOKIE in response.cookies:
            self.cookie = response.cookies[COOKIE]
        return response

    def get(self, url: str) -> Any:
        return self.request("GET", url)

    def post(self, url: str, body: Any = None, **kwargs: Any) -> Any:
        return self.request("POST", url, json=body, **kwargs)

    def delete(self, url: str) -> Any:
        return self.request("DELETE", url)

    def me(self) -> dict[str, Any]:
        """Who this browser is (GET /api/me without its game counts: test_outbox.py)."""
        response = self.get("/api/me")
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        data.pop("count")
        return data

    def login(self, username: str, password: str = PASSWORD) -> dict[str, Any]:
        response = self.post("/api/account/login", {"username": username, "password": password})
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        return data


def call(client: TestClient, method: str, url: str, token: str | None = None, **kw: Any) -> Any:
    """A program's request: no cookie, maybe a token."""
    client.cookies.clear()
    headers = dict(kw.pop("headers", {}))
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    response = client.request(method, url, headers=headers, **kw)
    client.cookies.clear()
    return response


def register(client: TestClient, username: str, password: str = PASSWORD) -> dict[str, Any]:
    response = call(
        client, "POST", "/api/account/register", json={"username": username, "password": password}
    )
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def new_token(
    client: TestClient, username: str, scopes: list[str], password: str = PASSWORD
) -> str:
    body = {"username": username, "password": password, "description": "t", "scopes": scopes}
    response = call(client, "POST", "/api/token", json=body)
    assert response.status_code == 201, response.text
    return str(response.json()["token"])


def services(client: TestClient) -> Any:
    return client.app.state.services  # type: ignore[attr-defined]


def db_rows(client: TestClient, stmt: Any) -> list[Any]:
    sessions = services(client).accounts.sessions

    async def run() -> list[Any]:
        async with sessions() as session:
            return list((await session.execute(stmt)).scalars())

    return client.portal.call(run)  # type: ignore[union-attr]


def accounts(client: TestClient) -> list[Player]:
    return db_rows(client, select(Player).where(Player.username.is_not(None)))


def tokens(client: TestClient) -> list[ApiToken]:
    return db_rows(client, select(ApiToken))


# ---- register ----------------------------------------------------------------------------
def test_register_creates_an_account_with_an_argon2_hash(web: TestClient):
    created = register(web, "Alice")
    assert set(created) == {"id", "username", "createdAt"}
    assert created["username"] == "Alice"
    [row] = accounts(web)
    assert row.id == created["id"] == "alice"  # the lower-cased username
    assert (row.username, row.username_key, row.name, row.title) == (
        "Alice",
        "alice",
        "Alice",
        None,
    )
    assert row.password_hash is not None and row.password_hash.startswith("$argon2id$")
    assert PASSWORD not in row.password_hash
    assert FAST.verify(row.password_hash, PASSWORD)


def test_register_takes_a_form_too(web: TestClient):
    response = call(
        web, "POST", "/api/account/register", data={"username": "bot_1", "password": PASSWORD}
    )
    assert response.status_code == 201, response.text
    assert [a.username for a in accounts(web)] == ["bot_1"]


def test_register_logs_a_guest_browser_in_but_not_a_program(web: TestClient):
    response = call(
        web, "POST", "/api/account/register", json={"username": "bot_1", "password": PASSWORD}
    )
    assert response.status_code == 201
    given = Identities(SECRET).read(response.cookies[COOKIE])  # a first visit's
    assert given is not None and given.id != "bot_1"
    browser = Browser(web)
    browser.me()  # a guest now
    response = browser.post("/api/account/register", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 201
    assert browser.me() == {"id": "alice", "name": "alice", "username": "alice"}


@pytest.mark.parametrize(
    ("username", "password", "status", "code"),
    [
        ("a", PASSWORD, 400, "account.username_invalid"),
        ("a" * 21, PASSWORD, 400, "account.username_invalid"),
        ("two words", PASSWORD, 400, "account.username_invalid"),
        ("élodie", PASSWORD, 400, "account.username_invalid"),
        ("a.b", PASSWORD, 400, "account.username_invalid"),
        ("alice", "short", 400, "account.password_weak"),
        ("alice", "1234567", 400, "account.password_weak"),
        ("alice_bob", "ALICE_BOB", 400, "account.password_weak"),
        ("alice", "x" * 257, 400, "account.password_invalid"),
        ("kodama-hard", PASSWORD, 409, "account.username_reserved"),
        ("Kodama", PASSWORD, 409, "account.username_reserved"),
    ],
)
def test_register_refusals(web: TestClient, username: str, password: str, status: int, code: str):
    response = call(
        web, "POST", "/api/account/register", json={"username": username, "password": password}
    )
    assert_error(response, status, code)
    assert accounts(web) == []


def test_usernames_are_unique_whatever_their_case(web: TestClient):
    first = register(web, "Alice")
    response = call(
        web, "POST", "/api/account/register", json={"username": "aLICE", "password": "other pass"}
    )
    assert_error(response, 409, "account.username_taken")
    [row] = accounts(web)
    assert (row.id, row.username) == (first["id"], "Alice")
    assert FAST.verify(row.password_hash or "", PASSWORD)  # the first password still holds


@pytest.mark.parametrize(
    "kwargs",
    [
        {"json": {"username": "alice"}},
        {"json": {"username": "alice", "password": PASSWORD, "admin": True}},
        {"json": ["alice", PASSWORD]},
        {"content": b"{not json", "headers": {"content-type": "application/json"}},
        {"content": b"username=alice", "headers": {"content-type": "text/plain"}},
        {"data": {"username": "alice"}},
    ],
)
def test_register_refuses_malformed_bodies(web: TestClient, kwargs: dict[str, Any]):
    assert_error(call(web, "POST", "/api/account/register", **kwargs), 400, "request.invalid")
    assert accounts(web) == []


def _chunks() -> Any:
    yield b'{"username": "alice", "password": "'
    for _ in range(40):  # 40 KB, with no length declared: cut off once past the limit
        yield b"x" * 1024
    yield b'"}'


@pytest.mark.parametrize(
    "kwargs",
    [
        {"json": {"username": "alice", "password": "x" * 20_000}},  # a declared length
        {"content": _chunks, "headers": {"content-type": "application/json"}},
    ],
)
def test_register_refuses_a_body_too_large(web: TestClient, kwargs: dict[str, Any]):
    if callable(kwargs.get("content")):
        kwargs = {**kwargs, "content": kwargs["content"]()}
    response = call(web, "POST", "/api/account/register", **kwargs)
    assert "16384 bytes" in assert_error(response, 413, "request.too_large")["error"]
    assert response.headers["connection"] == "close"
    assert accounts(web) == []


def test_two_registrations_of_one_name_at_once_make_one_account(web: TestClient):
    service: AccountService = services(web).accounts

    async def both() -> list[Any]:
        return await asyncio.gather(  # type: ignore[return-value]
            service.register("race", PASSWORD),
            service.register("RACE", PASSWORD),
            return_exceptions=True,
        )

    results = web.portal.call(both)  # type: ignore[union-attr]
    errors = [r for r in results if isinstance(r, ServiceError)]
    assert len(errors) == 1 and errors[0].code == "account.username_taken", results
    assert len(accounts(web)) == 1


# ---- log in, log out ---------------------------------------------------------------------
def test_login_makes_the_browser_the_account(web: TestClient):
    created = register(web, "Alice")
    browser = Browser(web)
    anonymous = browser.me()
    response = browser.post("/api/account/login", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 200, response.text
    assert response.json() == created
    header = response.headers["set-cookie"].lower()
    assert "httponly" in header and "samesite=lax" in header
    assert browser.me() == {"id": created["id"], "name": "Alice", "username": "Alice"}
    assert browser.me()["id"] != anonymous["id"]
    assert browser.get("/api/account").json() == {**created, "perfs": {}}  # no rated game yet
    # The cookie names the account: signed, so nobody can make one for another account.
    assert Identities(SECRET).read(browser.cookie) is not None


def test_an_account_is_the_same_player_on_every_browser(web: TestClient):
    register(web, "alice")
    one, two = Browser(web), Browser(web)
    assert one.login("alice")["id"] == two.login("ALICE")["id"]
    assert one.me() == two.me()


@pytest.mark.parametrize(
    ("username", "password"),
    [
        ("alice", "wrong password"),
        ("nobody", PASSWORD),
        ("ALICE", "CORRECT HORSE"),
        ("x" * 99, "y"),
    ],
)
def test_login_refusals_do_not_say_whether_the_username_exists(
    web: TestClient, username: str, password: str
):
    register(web, "alice")
    browser = Browser(web)
    before = browser.me()
    response = browser.post("/api/account/login", {"username": username, "password": password})
    body = assert_error(response, 401, "auth.bad_credentials")
    assert body == {"error": "wrong username or password", "code": "auth.bad_credentials"}
    assert COOKIE not in response.cookies
    assert browser.me() == before


def test_an_unknown_username_costs_a_password_check_too(web: TestClient):
    checks: list[str] = []
    real = FAST.verify

    class Counting(PasswordHasher):
        def verify(self, hash: str | bytes, password: str | bytes) -> Any:
            checks.append(str(password))
            return real(hash, password)

    services(web).accounts.hasher = Counting(time_cost=1, memory_cost=1024, parallelism=1)
    response = call(
        web, "POST", "/api/account/login", json={"username": "nobody", "password": "guess1234"}
    )
    assert_error(response, 401, "auth.bad_credentials")
    assert checks == ["guess1234"]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"data": {"username": "alice", "password": PASSWORD}},
        {"content": b'{"username":"alice","password":"correct horse"}'},
        {
            "content": b'{"username":"alice","password":"correct horse"}',
            "headers": {"content-type": "text/plain"},
        },
    ],
)
def test_login_takes_json_only(web: TestClient, kwargs: dict[str, Any]):
    # A form (or a body without a JSON type) could be posted by another site: no log in.
    register(web, "alice")
    browser = Browser(web)
    before = browser.me()
    response = browser.request("POST", "/api/account/login", **kwargs)
    assert_error(response, 400, "request.invalid")
    assert browser.me() == before


def test_logout_gives_a_fresh_anonymous_identity(web: TestClient):
    created = register(web, "alice")
    browser = Browser(web)
    browser.login("alice")
    response = browser.post("/api/account/logout")
    assert response.status_code == 200
    fresh = response.json()
    assert set(fresh) == {"id", "name"} and fresh["id"] != created["id"]
    assert fresh["name"] == f"Anonymous {fresh['id'][:4].upper()}"
    assert browser.me() == fresh
    assert_error(browser.get("/api/account"), 401, "account.required")


def test_a_tampered_account_cookie_is_a_new_anonymous_visitor(web: TestClient):
    created = register(web, "alice")
    forged = Identities("not the secret").account_cookie(created["id"], "alice")
    browser = Browser(web)
    browser.cookie = forged
    me = browser.me()
    assert me["id"] != created["id"] and "username" not in me
    assert browser.cookie != forged  # replaced by a fresh anonymous one


# ---- anonymous play and names ------------------------------------------------------------
def test_anonymous_play_is_unchanged(web: TestClient):
    alice, bob = Anonymous(web, "alice"), Anonymous(web, "bob")
    no_games = {"all": 0, "rated": 0, "win": 0, "loss": 0, "draw": 0, "playing": 0}
    assert alice.get("/api/me").json() == {
        "id": alice.who.id,
        "name": alice.who.name,
        "count": no_games,
    }
    created = alice.create()
    assert bob.post(f"/api/invite/{invite_token(created)}").status_code == 200
    players = web.get(f"/api/games/{created['id']}").json()["game"]["players"]
    assert players["first"] == {"id": alice.who.id, "name": alice.who.name}
    assert players["second"] == {"id": bob.who.id, "name": bob.who.name}


def test_an_account_plays_under_its_username_and_anonymous_games_stay_anonymous(
    web: TestClient,
):
    browser = Browser(web)
    anonymous = browser.me()
    old = browser.post("/api/games", {"variant": "dobutsu", "color": "first"}).json()
    created = register(web, "Alice")
    browser.login("alice")
    new = browser.post("/api/games", {"variant": "dobutsu", "color": "first"}).json()
    bob = Anonymous(web, "bob")
    assert bob.post(f"/api/invite/{invite_token(new)}").status_code == 200
    game = web.get(f"/api/games/{new['id']}").json()["game"]
    assert game["players"]["first"] == {
        "id": created["id"],
        "name": "Alice",
        "rating": 1500,  # an account's rating as of the start, in casual games too
        "provisional": True,
    }
    old_game = web.get(f"/api/games/{old['id']}").json()["game"]
    assert old_game["players"]["creator"] == {"id": anonymous["id"], "name": anonymous["name"]}


# ---- tokens ------------------------------------------------------------------------------
def test_a_token_is_shown_once_and_stored_as_its_sha256(web: TestClient):
    created = register(web, "alice")
    body = {
        "username": "alice",
        "password": PASSWORD,
        "description": "my bot",
        "scopes": ["bot:play", "challenge:read"],
    }
    response = call(web, "POST", "/api/token", json=body)
    assert response.status_code == 201, response.text
    out = response.json()
    assert set(out) == {"token", "id", "description", "scopes", "createdAt"}
    token = out["token"]
    assert token.startswith("kdm_") and len(token) >= 40
    assert out["scopes"] == ["bot:play", "challenge:read"]
    [row] = tokens(web)
    assert row.player_id == created["id"] and row.id == out["id"]
    assert row.token_hash == hashlib.sha256(token.encode()).hexdigest() == token_hash(token)
    stored = " ".join(str(getattr(row, c.key)) for c in ApiToken.__table__.columns)
    assert token not in stored and token.removeprefix("kdm_") not in stored
    assert (row.description, row.scopes, row.revoked_ms) == (
        "my bot",
        "bot:play challenge:read",
        None,
    )
    me = call(web, "GET", "/api/account", token=token)
    assert me.status_code == 200 and me.json()["id"] == created["id"]
    assert COOKIE not in me.cookies  # a program with a token is not given a cookie


@pytest.mark.parametrize(
    "scopes",
    [
        ["board:play", "challenge:write"],
        "board:play,challenge:write",
        "challenge:write board:play",
    ],
)
def test_token_scopes_as_a_list_or_a_string(web: TestClient, scopes: Any):
    register(web, "alice")
    body = {"username": "alice", "password": PASSWORD, "scopes": scopes}
    response = call(web, "POST", "/api/token", json=body)
    assert response.status_code == 201, response.text
    assert response.json()["scopes"] == ["board:play", "challenge:write"]


def test_a_token_from_a_form_as_lichess_tools_post(web: TestClient):
    register(web, "alice")
    response = call(
        web,
        "POST",
        "/api/token",
        data={
            "username": "alice",
            "password": PASSWORD,
            "description": "lichess-bot",
            "scopes": ["bot:play", "challenge:read,challenge:write"],
        },
    )
    assert response.status_code == 201, response.text
    out = response.json()
    assert out["scopes"] == ["bot:play", "challenge:read", "challenge:write"]
    assert out["description"] == "lichess-bot"
    assert call(web, "GET", "/api/account", token=out["token"]).status_code == 200


def test_a_logged_in_browser_creates_lists_and_revokes_its_tokens(web: TestClient):
    register(web, "alice")
    register(web, "bob")
    bobs = new_token(web, "bob", [])
    browser = Browser(web)
    browser.login("alice")
    response = browser.post("/api/token", {"description": "one", "scopes": ["board:play"]})
    assert response.status_code == 201, response.text
    first = response.json()
    second = browser.post("/api/token", {"description": "two"}).json()
    assert second["scopes"] == []
    listed = browser.get("/api/account/tokens").json()["tokens"]
    assert {t["id"] for t in listed} == {first["id"], second["id"]}
    assert all("token" not in t for t in listed)
    assert {t["description"] for t in listed} == {"one", "two"}
    assert browser.delete(f"/api/account/tokens/{first['id']}").status_code == 204
    assert [t["id"] for t in browser.get("/api/account/tokens").json()["tokens"]] == [second["id"]]
    assert_error(call(web, "GET", "/api/account", token=first["token"]), 401, "token.invalid")
    assert call(web, "GET", "/api/account", token=second["token"]).status_code == 200
    # revoking again, or another account's token, or an unknown one: 404, nothing changes
    bob_id = next(t.id for t in tokens(web) if t.description == "t")
    for token_id in (first["id"], bob_id, "0" * 16):
        assert_error(browser.delete(f"/api/account/tokens/{token_id}"), 404, "token.not_found")
    assert call(web, "GET", "/api/account", token=bobs).status_code == 200
    assert call(web, "GET", "/api/account", token=second["token"]).status_code == 200


def test_delete_api_token_revokes_the_token_sent(web: TestClient):
    register(web, "alice")
    kept, gone = new_token(web, "alice", []), new_token(web, "alice", [])
    response = call(web, "DELETE", "/api/token", token=gone)
    assert response.status_code == 204 and response.content == b""
    assert_error(call(web, "GET", "/api/account", token=gone), 401, "token.invalid")
    assert_error(call(web, "DELETE", "/api/token", token=gone), 401, "token.invalid")
    assert call(web, "GET", "/api/account", token=kept).status_code == 200
    revoked = [t for t in tokens(web) if t.revoked_ms is not None]
    assert [t.token_hash for t in revoked] == [token_hash(gone)]


def test_delete_api_token_needs_a_token(web: TestClient):
    register(web, "alice")
    token = new_token(web, "alice", [])
    browser = Browser(web)
    browser.login("alice")
    assert_error(browser.delete("/api/token"), 401, "token.required")
    assert all(t.revoked_ms is None for t in tokens(web))
    assert call(web, "GET", "/api/account", token=token).status_code == 200


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"username": "alice", "password": "wrong password"}, 401, "auth.bad_credentials"),
        ({"username": "nobody", "password": PASSWORD}, 401, "auth.bad_credentials"),
        ({"username": "alice"}, 400, "request.invalid"),
        ({"password": PASSWORD}, 400, "request.invalid"),
        (
            {"username": "alice", "password": PASSWORD, "scopes": ["admin"]},
            400,
            "token.scopes_invalid",
        ),
        (
            {"username": "alice", "password": PASSWORD, "scopes": "bot:play,web:mod"},
            400,
            "token.scopes_invalid",
        ),
        (
            {"username": "alice", "password": PASSWORD, "description": "d" * 101},
            400,
            "token.description_invalid",
        ),
        ({"username": "alice", "password": PASSWORD, "scopes": 3}, 400, "request.invalid"),
        ({"description": "anonymous"}, 401, "account.required"),
    ],
)
def test_token_refusals(web: TestClient, body: dict[str, Any], status: int, code: str):
    register(web, "alice")
    assert_error(call(web, "POST", "/api/token", json=body), status, code)
    assert tokens(web) == []


def test_a_token_cannot_make_or_manage_tokens(web: TestClient):
    register(web, "alice")
    token = new_token(web, "alice", ["bot:play", "board:play", "challenge:read", "challenge:write"])
    [entry] = tokens(web)
    response = call(web, "POST", "/api/token", token=token, json={"description": "more"})
    assert_error(response, 403, "token.scope")
    assert_error(call(web, "GET", "/api/account/tokens", token=token), 403, "token.scope")
    response = call(web, "DELETE", f"/api/account/tokens/{entry.id}", token=token)
    assert_error(response, 403, "token.scope")
    assert [t.revoked_ms for t in tokens(web)] == [None]


def test_token_management_needs_an_account(web: TestClient):
    browser = Browser(web)
    assert_error(browser.get("/api/account/tokens"), 401, "account.required")
    assert_error(browser.delete("/api/account/tokens/abc"), 401, "account.required")
    assert_error(browser.get("/api/account"), 401, "account.required")


def test_last_use_is_recorded(web: TestClient):
    register(web, "alice")
    token = new_token(web, "alice", [])
    assert [t.last_used_ms for t in tokens(web)] == [None]
    assert call(web, "GET", "/api/account", token=token).status_code == 200
    [entry] = tokens(web)
    assert entry.last_used_ms is not None and entry.last_used_ms >= entry.created_ms
    browser = Browser(web)
    browser.login("alice")
    [listed] = browser.get("/api/account/tokens").json()["tokens"]
    assert listed["lastUsedAt"] == entry.last_used_ms


# ---- the caller dependency ---------------------------------------------------------------
ALL = ["board:play", "bot:play", "challenge:read", "challenge:write"]


def test_the_caller_by_token_carries_its_scopes(web: TestClient):
    created = register(web, "alice")
    token = new_token(web, "alice", ["challenge:read", "challenge:write"])
    [entry] = tokens(web)
    response = call(web, "GET", "/test/challenger", token=token)
    assert response.status_code == 200, response.text
    assert response.json() == {
        "id": created["id"],
        "name": "alice",
        "token": entry.id,
        "scopes": ["challenge:read", "challenge:write"],
        "username": "alice",
        "bot": False,
    }


@pytest.mark.parametrize(
    ("scopes", "missing"),
    [([], ["challenge:read", "challenge:write"]), (["challenge:read"], ["challenge:write"])],
)
def test_a_missing_scope_is_refused(web: TestClient, scopes: list[str], missing: list[str]):
    register(web, "alice")
    token = new_token(web, "alice", scopes)
    body = assert_error(call(web, "GET", "/test/challenger", token=token), 403, "token.scope")
    assert body["missing"] == missing
    assert call(web, "GET", "/test/anyone", token=token).status_code == 200


@pytest.mark.parametrize(
    "header",
    [
        "Bearer kdm_unknown0000000000000000000000000000000000",
        "Bearer not-a-kodama-token",
        "Bearer ",
        "Bearer",
        "Basic YWxpY2U6cGFzc3dvcmQ=",
        "kdm_token_without_a_scheme",
    ],
)
def test_a_bad_authorization_header_is_refused(web: TestClient, header: str):
    register(web, "alice")
    browser = Browser(web)
    browser.login("alice")
    # Even with a logged-in cookie: a program that sends a bad token must hear about it.
    response = browser.request("GET", "/test/anyone", headers={"authorization": header})
    assert_error(response, 401, "token.invalid")


def test_the_caller_by_cookie(web: TestClient):
    browser = Browser(web)
    anonymous = browser.me()
    expected = {"id": anonymous["id"], "name": anonymous["name"], "token": None}
    response = browser.get("/test/challenger")
    assert response.json() == {**expected, "scopes": ALL, "username": None, "bot": False}
    assert_error(browser.get("/test/bot-account"), 401, "account.required")
    created = register(web, "alice")
    browser.login("alice")
    response = browser.get("/test/bot-account")
    assert response.status_code == 200
    assert response.json() == {
        "id": created["id"],
        "name": "alice",
        "token": None,
        "scopes": ALL,
        "username": "alice",
        "bot": False,
    }


def test_caller_refuses_an_unknown_scope_when_declared():
    with pytest.raises(ValueError, match="web:mod"):
        caller("web:mod")
    with pytest.raises(ValueError, match="bot:ply"):
        account_caller("bot:ply")


# ---- BOT upgrade -------------------------------------------------------------------------
def play_a_game(web: TestClient, browser: Browser) -> str:
    created = browser.post("/api/games", {"variant": "dobutsu", "color": "first"}).json()
    bob = Anonymous(web, "bob")
    assert bob.post(f"/api/invite/{invite_token(created)}").status_code == 200
    return str(created["id"])


def title_of(web: TestClient, username: str) -> str | None:
    [row] = [a for a in accounts(web) if a.username == username]
    return row.title


def test_upgrade_to_bot_before_any_game(web: TestClient):
    register(web, "alicebot")
    token = new_token(web, "alicebot", ["bot:play"])
    response = call(web, "POST", "/api/bot/account/upgrade", token=token)
    assert response.status_code == 200, response.text
    assert response.json() == {"ok": True}
    assert title_of(web, "alicebot") == "BOT"
    assert call(web, "GET", "/api/account", token=token).json()["title"] == "BOT"
    me = call(web, "GET", "/api/me", token=token).json()
    assert (me["username"], me["title"]) == ("alicebot", "BOT")
    assert call(web, "GET", "/test/bot-account", token=token).json()["bot"] is True
    assert_error(call(web, "POST", "/api/bot/account/upgrade", token=token), 409, "bot.already_bot")
    assert title_of(web, "alicebot") == "BOT"


def test_upgrade_from_a_browser_with_an_open_game_nobody_joined(web: TestClient):
    # Only a game that started counts as played: a seek nobody took does not.
    register(web, "alice")
    browser = Browser(web)
    browser.login("alice")
    assert browser.post("/api/games", {"variant": "jungle", "color": "first"}).status_code == 201
    assert browser.post("/api/bot/account/upgrade").status_code == 200
    assert browser.me()["title"] == "BOT"


def test_no_upgrade_after_a_game(web: TestClient):
    register(web, "alice")
    browser = Browser(web)
    browser.login("alice")
    play_a_game(web, browser)
    response = browser.post("/api/bot/account/upgrade")
    assert_error(response, 409, "bot.already_played")
    assert title_of(web, "alice") is None
    assert "title" not in browser.get("/api/account").json()


def test_upgrade_refusals(web: TestClient):
    assert_error(Browser(web).post("/api/bot/account/upgrade"), 401, "account.required")
    register(web, "alice")
    token = new_token(web, "alice", ["board:play"])
    body = assert_error(
        call(web, "POST", "/api/bot/account/upgrade", token=token), 403, "token.scope"
    )
    assert body["missing"] == ["bot:play"]
    assert title_of(web, "alice") is None


# ---- rate limits -------------------------------------------------------------------------
def test_password_attempts_are_rate_limited_per_ip(web: TestClient):
    register(web, "alice")
    services(web).accounts.limits = Limits(
        password=RateLimiter(rate_per_s=0.001, burst=3, clock=STILL.monotonic),
        register=RateLimiter(1000, 1000, STILL.monotonic),
    )
    wrong = {"username": "alice", "password": "wrong password"}
    for _ in range(2):
        assert_error(
            call(web, "POST", "/api/account/login", json=wrong), 401, "auth.bad_credentials"
        )
    # token creation checks a password too: the same budget
    assert_error(call(web, "POST", "/api/token", json=wrong), 401, "auth.bad_credentials")
    right = {"username": "alice", "password": PASSWORD}
    body = assert_error(call(web, "POST", "/api/account/login", json=right), 429, "ratelimit")
    assert body["ratelimit"]["key"] == "password:testclient"
    assert body["ratelimit"]["seconds"] >= 1
    assert_error(call(web, "POST", "/api/token", json=right), 429, "ratelimit")
    assert tokens(web) == []


def test_registrations_are_rate_limited_per_ip(web: TestClient):
    services(web).accounts.limits = Limits(
        password=RateLimiter(1000, 1000, STILL.monotonic),
        register=RateLimiter(rate_per_s=0.001, burst=2, clock=STILL.monotonic),
    )
    register(web, "one")
    register(web, "two")
    response = call(
        web, "POST", "/api/account/register", json={"username": "three", "password": PASSWORD}
    )
    assert_error(response, 429, "ratelimit")
    assert sorted(a.username or "" for a in accounts(web)) == ["one", "two"]


def test_the_default_limits():
    limits = Limits.default(STILL.monotonic)
    assert (limits.password.burst, limits.register.burst) == (10, 5)
    assert limits.password.rate == pytest.approx(1 / 6)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_token_bucket():
    clock = Clock()
    limiter = RateLimiter(rate_per_s=0.5, burst=2, clock=clock)
    limiter.hit("a")
    limiter.hit("a")
    limiter.hit("b")  # keys are separate
    with pytest.raises(ServiceError) as refused:
        limiter.hit("a")
    assert refused.value.status == 429
    assert refused.value.to_dict() == {
        "error": "too many requests; try again in 2 s",
        "code": "ratelimit",
        "ratelimit": {"key": "a", "seconds": 2},
    }
    clock.now += 1.0  # half a token: still refused, and the refusal took nothing
    with pytest.raises(ServiceError) as refused:
        limiter.hit("a")
    assert refused.value.extra["ratelimit"] == {"key": "a", "seconds": 1}
    clock.now += 1.0
    limiter.hit("a")
    clock.now += 100.0  # refills up to the burst, no further
    limiter.hit("a")
    limiter.hit("a")
    with pytest.raises(ServiceError):
        limiter.hit("a")


def test_the_limiter_forgets_idle_keys(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr("app.limits.ratelimit.MAX_KEYS", 3)
    clock = Clock()
    limiter = RateLimiter(rate_per_s=1, burst=1, clock=clock)
    for key in "abc":
        limiter.hit(key)
    clock.now += 10  # a, b, c are full again: forgettable
    limiter.hit("d")
    limiter.hit("e")
    assert set(limiter._buckets) <= {"d", "e"} | set("abc")
    assert len(limiter._buckets) <= 3
    with pytest.raises(ServiceError):
        limiter.hit("d")  # a busy key is kept


@pytest.mark.parametrize(("rate", "burst"), [(0, 1), (-1, 1), (1, 0)])
def test_a_limiter_needs_a_positive_rate_and_burst(rate: float, burst: int):
    with pytest.raises(ValueError):
        RateLimiter(rate, burst, STILL.monotonic)


# ---- passwords, service, schema ----------------------------------------------------------
def test_the_real_hasher_is_argon2id_with_rfc9106_parameters(web: TestClient):
    service = AccountService(services(web).accounts.sessions, STILL)
    assert (service.hasher.time_cost, service.hasher.memory_cost) == (3, 65536)
    assert service.hasher.hash("x" * 8).startswith("$argon2id$v=19$m=65536,t=3,p=4$")


def test_a_weaker_stored_hash_is_upgraded_at_login(web: TestClient):
    register(web, "alice")
    [before] = accounts(web)
    stronger = PasswordHasher(time_cost=2, memory_cost=2048, parallelism=1)
    services(web).accounts.hasher = stronger
    Browser(web).login("alice")
    [after] = accounts(web)
    assert after.password_hash != before.password_hash
    assert after.password_hash is not None and not stronger.check_needs_rehash(after.password_hash)
    Browser(web).login("alice")  # the new hash holds the same password


def test_service_refusals_for_players_that_are_not_accounts(web: TestClient):
    service: AccountService = services(web).accounts
    anonymous = Browser(web)
    anonymous.post("/api/games", {"variant": "dobutsu", "color": "first"})  # a players row
    player_id = anonymous.me()["id"]
    portal = web.portal
    assert portal is not None
    for action in (
        lambda: service.upgrade_to_bot(player_id),
        lambda: service.create_token(player_id, "x", []),
        lambda: service.upgrade_to_bot("f" * 16),
    ):
        with pytest.raises(ServiceError) as refused:
            portal.call(action)
        assert refused.value.code == "account.required"
    assert tokens(web) == []
    assert portal.call(service.by_username, "nobody") is None


def test_the_contract_api_of_the_service(web: TestClient):
    service: AccountService = services(web).accounts
    portal = web.portal
    assert portal is not None
    player = portal.call(service.register, "kodama-test", PASSWORD)  # the server's own names
    found = portal.call(service.by_username, "KODAMA-TEST")
    assert found is not None and found.id == player.id
    token: str = portal.call(service.create_token, player.id, "built-in", ["bot:play"])
    assert portal.call(service.upgrade_to_bot, player.id).title == "BOT"
    response = call(web, "GET", "/api/account", token=token)
    assert response.json()["title"] == "BOT"


def test_openapi_lists_the_account_endpoints(web: TestClient):
    schema = web.get("/openapi.json").json()
    listed = {(m, p) for p, item in schema["paths"].items() for m in item}
    assert listed >= ENDPOINTS
    token_body = schema["paths"]["/api/token"]["post"]["requestBody"]["content"]
    assert {"application/json", "application/x-www-form-urlencoded"} <= set(token_body)
    assert set(token_body["application/json"]["schema"]["properties"]) == {
        "username",
        "password",
        "description",
        "scopes",
    }
    assert schema["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"
    assert "401" in schema["paths"]["/api/account"]["get"]["responses"]


def test_the_account_page_is_served(web: TestClient):
    response = web.get("/account")
    assert response.status_code == 200
    assert response.text == served_page("account.html")
    assert '<script type="module" src="/static/_' in response.text
