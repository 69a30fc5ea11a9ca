"""Helpers of the bot API's tests: accounts with tokens, and reading NDJSON streams."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from pydantic import BaseModel

ALL_SCOPES = ("bot:play", "board:play", "challenge:read", "challenge:write")
PASSWORD = "correct horse battery"
# A dobutsu game that ends in 5 plies: first (white) mates.
MATE = ("b1a2", "b4c3", "a2b1", "a4b4", "c1c2")


def services_of(client: TestClient) -> Any:
    return client.app.state.services  # type: ignore[attr-defined]


def cheap_hashing(client: TestClient) -> None:
    """Accounts in tests need no costly password hashes."""
    services = services_of(client)
    services.accounts.hasher = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)


class Account:
    """A registered account with an API token (a program), maybe upgraded to BOT."""

    def __init__(
        self,
        client: TestClient,
        username: str,
        *,
        bot: bool = False,
        scopes: tuple[str, ...] = ALL_SCOPES,
    ) -> None:
        cheap_hashing(client)
        services = services_of(client)
        portal = client.portal
        assert portal is not None, "use the client inside its with block"
        player = portal.call(services.accounts.register, username, PASSWORD)
        self.client = client
        self.id: str = player.id
        self.username = username
        if bot:
            portal.call(services.accounts.upgrade_to_bot, player.id)
        self.token: str = portal.call(services.accounts.create_token, player.id, "tests", scopes)

    def new_token(self, scopes: tuple[str, ...]) -> dict[str, str]:
        services = services_of(self.client)
        assert self.client.portal is not None
        token = self.client.portal.call(services.accounts.create_token, self.id, "tests", scopes)
        return {"authorization": f"Bearer {token}"}

    @property
    def headers(self) -> dict[str, str]:
        return {"authorization": f"Bearer {self.token}"}

    def post(self, url: str, body: Any = None, **kwargs: Any) -> Any:
        self.client.cookies.clear()
        return self.client.post(url, json=body, headers=self.headers, **kwargs)

    def form(self, url: str, data: dict[str, str]) -> Any:
        self.client.cookies.clear()
        return self.client.post(url, data=data, headers=self.headers)

    def get(self, url: str) -> Any:
        self.client.cookies.clear()
        return self.client.get(url, headers=self.headers)

    def stream(self, url: str, method: str = "GET", **kwargs: Any) -> Any:
        self.client.cookies.clear()
        return self.client.stream(method, url, headers=self.headers, **kwargs)


class Lines:
    """The lines of an open NDJSON response. Keep-alive lines (empty) are counted, so that a
    stream that stays silent makes a test fail instead of hang."""

    def __init__(self, response: Any) -> None:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("application/x-ndjson")
        self._lines: Iterator[str] = response.iter_lines()
        self.keepalives = 0

    def raw(self) -> str:
        return next(self._lines)

    def next(self, kind: str | None = None, limit: int = 60) -> dict[str, Any]:
        """The next object line (of this ``type``, skipping others)."""
        for _ in range(limit):
            text = next(self._lines)
            if not text:
                self.keepalives += 1
                continue
            data: dict[str, Any] = json.loads(text)
            if kind is None or data.get("type") == kind:
                return data
        raise AssertionError(f"no {kind or 'object'} line among the next {limit}")

    def rest(self) -> list[dict[str, Any]]:
        """Every line until the stream ends (it must end)."""
        return [json.loads(t) for t in self._lines if t]


def check(model: type[BaseModel], data: Any) -> Any:
    """``data`` fits the documented model exactly (the models refuse unknown fields)."""
    model.model_validate(data)
    return data


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    """An error answer: this status, this stable code and a message (more fields may add
    detail)."""
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["code"] == code, body
    assert isinstance(body["error"], str) and body["error"].strip(), body
    return body


def challenge(challenger: Any, username: str, status: int = 200, **body: Any) -> dict[str, Any]:
    response = challenger.post(f"/api/challenge/{username}", {"variant": "dobutsu", **body})
    assert response.status_code == status, response.text
    data: dict[str, Any] = response.json()
    return data
