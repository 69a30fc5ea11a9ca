"""An address the site does not have: a browser gets the site's 404 page (the layout, a link
home), while the API's paths, and any client that does not ask for HTML, keep the JSON error
with its stable code."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


@pytest.fixture
def database_url(sqlite_url: str) -> str:
    return sqlite_url


@pytest.mark.parametrize("path", ["/no-such-page", "/game/x/y", "/static/js/nothere.js"])
def test_a_browser_gets_the_404_page(client: TestClient, path: str) -> None:
    response = client.get(path, headers={"Accept": BROWSER})
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
    page = response.text
    assert '<header class="site">' in page  # the site's layout
    assert 'data-i18n="notFound.heading"' in page
    assert 'href="/" data-i18n="notFound.home"' in page


@pytest.mark.parametrize("path", ["/api/nope", "/api", "/api/games/x/y/z"])
def test_the_api_keeps_its_json_even_for_a_browser(client: TestClient, path: str) -> None:
    response = client.get(path, headers={"Accept": BROWSER})
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/json"
    assert response.json()["code"] == "not_found"


@pytest.mark.parametrize("accept", [None, "application/json", "*/*"])
def test_a_client_not_asking_for_html_gets_json(client: TestClient, accept: str | None) -> None:
    headers = {"Accept": accept} if accept else {}
    response = client.get("/no-such-page", headers=headers)
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
