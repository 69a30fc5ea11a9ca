"""An account's API tokens are bounded: at most MAX_TOKENS in use (409 ``token.too_many``),
and created at a bounded rate (429 ``ratelimit``, key ``token``), whichever way they are
made (a logged-in browser, or a username and password)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.accounts.service import MAX_TOKENS, TOKEN_BURST
from app.core.config import Settings
from app.core.time import ManualClock
from app.limits.ratelimit import RateLimiter
from app.main import create_app
from tests.app.accounts.test_accounts import FAST, PASSWORD, Browser, call, generous, register
from tests.app.accounts_and_streams import assert_error

REFILL_MS = 30_000  # one token creation comes back this often


@pytest.fixture
def web(settings: Settings, clock: ManualClock) -> Iterator[TestClient]:
    with TestClient(create_app(settings, clock)) as client:
        client.app.state.services.accounts.hasher = FAST  # type: ignore[attr-defined]
        client.app.state.services.accounts.limits = generous()  # type: ignore[attr-defined]
        yield client


def made(browser: Browser, description: str = "t") -> Any:
    return browser.post("/api/token", {"description": description})


def with_password(web: TestClient) -> Any:
    body = {"username": "alice", "password": PASSWORD, "description": "by password"}
    return call(web, "POST", "/api/token", json=body)


def test_token_creation_is_rate_limited_per_account(web: TestClient, clock: ManualClock):
    register(web, "alice")
    register(web, "bob")
    browser = Browser(web)
    browser.login("alice")
    for n in range(TOKEN_BURST):
        assert made(browser, f"t{n}").status_code == 201
    for refused in (made(browser), with_password(web)):
        assert_error(refused, 429, "ratelimit")
        assert refused.json()["ratelimit"] == {"key": "token", "seconds": 30}
        assert refused.headers["retry-after"] == "30"
    # Another account has its own budget.
    other = {"username": "bob", "password": PASSWORD}
    assert call(web, "POST", "/api/token", json=other).status_code == 201
    clock.advance(REFILL_MS)
    assert with_password(web).status_code == 201
    assert_error(made(browser), 429, "ratelimit")
    listed = browser.get("/api/account/tokens").json()["tokens"]
    assert len(listed) == TOKEN_BURST + 1


def test_an_account_has_at_most_max_tokens_in_use(web: TestClient, clock: ManualClock):
    register(web, "alice")
    browser = Browser(web)
    browser.login("alice")
    # The creations' rate (the test above) lifted: a hundred at once, without making hours
    # of the app's time pass (each second of which runs its periodic work).
    accounts = web.app.state.services.accounts  # type: ignore[attr-defined]
    accounts.token_creations = RateLimiter(1000.0, 1000, clock.monotonic)
    while (response := made(browser)).status_code == 201:
        pass
    assert_error(response, 409, "token.too_many")
    assert response.json()["max"] == MAX_TOKENS
    assert_error(with_password(web), 409, "token.too_many")
    listed = browser.get("/api/account/tokens").json()["tokens"]
    assert len(listed) == MAX_TOKENS
    # A token revoked makes room for one more.
    assert browser.delete(f"/api/account/tokens/{listed[-1]['id']}").status_code == 204
    assert made(browser).status_code == 201
    assert_error(made(browser), 409, "token.too_many")


def test_a_forms_scopes_are_bounded_but_every_scope_fits_in_one_value(web: TestClient):
    register(web, "alice")
    every = "bot:play,board:play,challenge:read,challenge:write"
    form = {"username": "alice", "password": PASSWORD, "scopes": every}
    made = call(web, "POST", "/api/token", data=form)
    assert made.status_code == 201, made.text
    assert made.json()["scopes"] == every.split(",")
    too_many = {"username": "alice", "password": PASSWORD, "scopes": ["bot:play"] * 21}
    assert_error(call(web, "POST", "/api/token", json=too_many), 400, "request.invalid")
