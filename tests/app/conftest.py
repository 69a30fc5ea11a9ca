"""App fixtures: the real app on a migrated database, SQLite or PostgreSQL, and players."""

from __future__ import annotations

import asyncio
import gc
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.botapi import gamestream
from app.core.config import Settings
from app.core.time import ManualClock
from app.http.identity import COOKIE, Identities
from app.main import create_app
from app.web.assets import ROOT as STATIC_ROOT
from app.web.assets import STATIC, compose

# A key as long and random as a real one: the server refuses a short or published one.
SECRET = "tests-L6sheO7oeGJY--2WyRf-JiIAHEtHMOCr"


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest) -> str:
    """A fresh database at the head revision, on each backend: a copy of the session's
    template (tests/templates.py), not a migration per test."""
    url: str = request.getfixturevalue(f"{request.param}_url")
    return url


# First, and as a parametrize mark: pytest then leaves the fixture's own params out (a test's
# parametrize mark takes precedence over its fixture's params) instead of adding them beside.
@pytest.hookimpl(tryfirst=True)
def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A module marked ``sqlite_only`` runs on SQLite alone: what it tests (request bodies,
    messages, refusals, pages) is the same on either database. Where the storage is the
    subject (the move pipeline, races, restarts, ratings, tournaments, the outbox,
    accounts, limits kept in tables), tests run on both."""
    marked = metafunc.definition.get_closest_marker("sqlite_only") is not None
    if marked and "database_url" in metafunc.fixturenames:
        metafunc.definition.add_marker(
            pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
        )


def make_settings(url: str, data_dir: Path, **overrides: Any) -> Settings:
    # Every test's accounts are new: the slower chat pace of new accounts (app/chat/safety.py)
    # is off unless a test sets it (tests/app/chat/test_chat_safety.py).
    overrides = {"chat_new_account_hours": 0, "chat_new_account_games": 0, **overrides}
    return Settings(database_url=url, data_dir=data_dir, secret_key=SECRET, **overrides)


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Settings:
    return make_settings(database_url, tmp_path)


@pytest.fixture
def clock() -> ManualClock:
    """The apps' clock: it stands still until the test moves it (``clock.advance(ms)``)."""
    return ManualClock()


@pytest.fixture
def client(settings: Settings, clock: ManualClock) -> Iterator[TestClient]:
    with TestClient(create_app(settings, clock)) as c:
        yield c


class Player:
    """One person: a browser with its own identity cookie."""

    def __init__(self, client: TestClient, name: str) -> None:
        self.client = client
        self.who = Identities.new()
        self.cookie = f"{COOKIE}={Identities(SECRET).cookie(self.who)}"
        self.label = name

    @property
    def headers(self) -> dict[str, str]:
        return {"cookie": self.cookie}

    def post(self, url: str, body: Any = None) -> Any:
        return self.client.post(url, json=body, headers=self.headers)

    def get(self, url: str) -> Any:
        return self.client.get(url, headers=self.headers)

    def socket(self, game_id: str) -> Any:
        return self.client.websocket_connect(f"/ws/game/{game_id}", headers=self.headers)

    def create(self, variant: str = "dobutsu", **body: Any) -> dict[str, Any]:
        body = {"variant": variant, "color": "first", **body}
        response = self.post("/api/games", body)
        assert response.status_code == 201, response.text
        data: dict[str, Any] = response.json()
        return data


@pytest.fixture
def alice(client: TestClient) -> Player:
    return Player(client, "alice")


@pytest.fixture
def bob(client: TestClient) -> Player:
    return Player(client, "bob")


@pytest.fixture
def carol(client: TestClient) -> Player:
    return Player(client, "carol")


def served_page(name: str) -> str:
    """A page's file (``game.html``…) as the server answers it: its parts put into the layout
    every page shares (static/layout.html), each /static/ address in it naming the files'
    current version (app/web/assets.py). tests/app/web/test_pages.py checks the composing."""
    layout = (STATIC_ROOT / "layout.html").read_bytes()
    included = {p.name: p.read_bytes() for p in (STATIC_ROOT / "include").glob("*.html")}
    text = compose(layout, (STATIC_ROOT / name).read_bytes(), included).decode()
    return text.replace('"/static/', f'"/static/_{STATIC.current().version}/')


def invite_token(created: dict[str, Any]) -> str:
    return str(created["inviteUrl"]).rsplit("/", 1)[1]


def started_game(alice: Player, bob: Player, variant: str = "dobutsu", **body: Any) -> str:
    """A game alice (first) created and bob joined by its invite link."""
    created = alice.create(variant, **body)
    response = bob.post(f"/api/invite/{invite_token(created)}")
    assert response.status_code == 200, response.text
    return str(created["id"])


def receive(ws: Any, kind: str, limit: int = 20) -> dict[str, Any]:
    """The next message of this type (others, such as presence, are skipped)."""
    for _ in range(limit):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind!r} message among the next {limit}")


def send(ws: Any, **message: Any) -> None:
    ws.send_text(json.dumps(message))


@pytest.fixture
def make_client(database_url: str, tmp_path: Path, clock: ManualClock) -> Iterator[Any]:
    """A client whose app has these settings overridden (short deadlines, say), on the
    test's ManualClock."""
    stack: list[TestClient] = []

    def make(**overrides: Any) -> TestClient:
        c = TestClient(create_app(make_settings(database_url, tmp_path, **overrides), clock))
        c.__enter__()
        stack.append(c)
        return c

    yield make
    for c in reversed(stack):
        c.__exit__(None, None, None)


def move_at(ws: Any, ply: int, limit: int = 40) -> dict[str, Any]:
    """Read this socket's messages up to the move that made ``ply``."""
    for _ in range(limit):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "move" and message["ply"] == ply:
            return message
    raise AssertionError(f"no move reached ply {ply}")


def settle(client: TestClient) -> None:
    """Wait for what the streams closed so far still had to do: the test client's close
    waits for a request's task, but an NDJSON stream's generator is closed after it (its
    ``finally``: forgetting an event stream, detaching a seek's withdrawal), and what it
    detached runs on. Collect the generators, let their closing run, await the detached work."""

    async def detached() -> None:
        for _ in range(2):  # a closing generator may detach work: look again after it
            gc.collect()  # a generator left in a reference cycle is closed when collected
            for _ in range(10):
                await asyncio.sleep(0)  # the loop runs the generators' aclose()
            pending = set(gamestream._detached)
            if pending:
                await asyncio.wait(pending)

    assert client.portal is not None, "the client is not running (use it in a with block)"
    client.portal.call(detached)
