"""The site (routes, pages, error shapes: app/http/site.py) is built once per process and
shared by every app instance; each instance keeps its own services, identities and settings."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import fastapi.routing
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.core.config import Settings
from app.core.time import ManualClock
from app.http import docs
from app.http.site import site
from app.main import create_app
from tests.app.conftest import SECRET, Player, make_settings, receive, started_game
from tests.postgres import TempPostgres
from tests.templates import SqliteTemplate

OTHER_SECRET = "tests-another-key-Qm3v8Xw2pL0sYt6nRb4Kc9"


@pytest.fixture
def route_builds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths whose request handling FastAPI builds (pydantic adapters for each
    parameter) while the test runs."""
    built: list[str] = []
    real = fastapi.routing._populate_api_route_state

    def counting(route: Any, path: str, *args: Any, **kwargs: Any) -> None:
        built.append(path)
        real(route, path, *args, **kwargs)

    monkeypatch.setattr(fastapi.routing, "_populate_api_route_state", counting)
    return built


def _visit(client: TestClient) -> None:
    """A player's requests over many routes: API, errors, pages, docs, a socket."""
    alice, bob = Player(client, "alice"), Player(client, "bob")
    game_id = started_game(alice, bob)
    assert alice.get(f"/api/games/{game_id}").status_code == 200
    assert alice.get("/api/games/nope").json()["code"] == "game.not_found"
    invalid = client.post("/api/games", content=b"{", headers=alice.headers)
    assert invalid.json()["code"] == "request.invalid"
    assert alice.get("/nowhere").json()["code"] == "not_found"
    assert client.get("/openapi.json").json()["info"]["title"] == "Kodama"
    for page in ("/", f"/game/{game_id}", "/rules/jungle", "/docs", "/static/js/i18n/i18n.js"):
        assert client.get(page).status_code == 200, page
    with alice.socket(game_id) as ws:
        assert receive(ws, "state")["game"]["id"] == game_id


def test_every_instance_serves_the_one_site_whose_routes_are_built_once(
    database_url: str, tmp_path: Path, route_builds: list[str]
):
    one = create_app(make_settings(database_url, tmp_path), ManualClock())
    two = create_app(make_settings(database_url, tmp_path), ManualClock())
    assert one is not two
    assert one.router.default is two.router.default is site()
    with TestClient(one) as client:
        _visit(client)
    route_builds.clear()  # this process may have built them in an earlier test, or just now
    with TestClient(two) as client:
        _visit(client)
    assert route_builds == []  # the second instance built no route's handling anew


def test_an_app_of_its_own_builds_its_routes(route_builds: list[str]):
    # What each instance paid before the site was shared (and what route_builds sees).
    app = FastAPI()
    app.include_router(docs.router)
    with TestClient(app) as client:
        assert client.get("/docs/swagger-ui/nope").status_code == 404
    assert "/docs/swagger-ui/{name}" in route_builds


@pytest.fixture(params=["sqlite", "postgres"])
def two_databases(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """Two fresh databases at the head revision, on one backend."""
    if request.param == "sqlite":
        template: SqliteTemplate = request.getfixturevalue("sqlite_template")
        for name in ("one", "two"):
            (tmp_path / name).mkdir()
        yield template.copy_to(tmp_path / "one"), template.copy_to(tmp_path / "two")
        return
    postgres: TempPostgres = request.getfixturevalue("postgres")
    source: str = request.getfixturevalue("postgres_template")
    names = [f"site_{name}_{uuid.uuid4().hex[:12]}" for name in ("one", "two")]
    yield (
        postgres.create_database(names[0], template=source),
        postgres.create_database(names[1], template=source),
    )


def test_two_instances_at_once_keep_their_own_services_and_identities(
    two_databases: tuple[str, str], tmp_path: Path
):
    url_one, url_two = two_databases
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    settings_one = Settings(database_url=url_one, data_dir=tmp_path / "a", secret_key=SECRET)
    settings_two = Settings(
        database_url=url_two, data_dir=tmp_path / "b", secret_key=OTHER_SECRET, max_body_bytes=64
    )
    with TestClient(create_app(settings_one)) as one, TestClient(create_app(settings_two)) as two:
        services_one = one.app.state.services  # type: ignore[attr-defined]
        services_two = two.app.state.services  # type: ignore[attr-defined]
        assert services_one is not services_two
        alice, bob = Player(one, "alice"), Player(one, "bob")
        game_id = started_game(alice, bob)
        # Each instance answers from its own database, requests interleaved.
        carol = Player(two, "carol")
        assert alice.get(f"/api/games/{game_id}").status_code == 200
        assert carol.get(f"/api/games/{game_id}").json()["code"] == "game.not_found"
        assert alice.get(f"/api/games/{game_id}").json()["game"]["id"] == game_id
        with alice.socket(game_id) as ws:
            assert receive(ws, "state")["game"]["id"] == game_id
        with carol.socket(game_id) as ws:
            assert receive(ws, "error")["code"] == "game.not_found"
        # Each its own identities: a cookie the first signed means nothing to the second,
        # which gives a new one; the first keeps its own.
        assert "set-cookie" not in alice.get("/api/me").headers
        answer = two.get("/api/me", headers=alice.headers)
        assert "set-cookie" in answer.headers
        assert answer.json()["id"] != str(alice.who.id)
        # Each its own middleware settings: the body limit is the second's alone.
        assert two.post("/api/games", content=b"x" * 100).json()["code"] == "request.too_large"
        assert one.post("/api/games", content=b"x" * 100).json()["code"] == "request.invalid"
