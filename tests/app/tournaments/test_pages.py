"""The arenas' pages: the list at /tournaments, an arena's page at /tournament/{id} (404 for
an id that names none: the same page, which then says so), and the lobby's line."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.app.accounts_and_streams import Account
from tests.app.conftest import served_page


def test_the_pages_of_the_arenas(client: TestClient) -> None:
    owner = Account(client, "organiser")
    made = owner.post("/api/tournament", {"clockTime": 1, "minutes": 30, "name": "Lunch"})
    tid = made.json()["id"]
    listing = client.get("/tournaments")
    assert listing.status_code == 200 and listing.text == served_page("tournaments.html")
    page = client.get(f"/tournament/{tid}")
    assert page.status_code == 200 and page.text == served_page("tournament.html")
    assert client.get("/tournament/nothere").status_code == 404
    assert 'id="next-tournament"' in client.get("/").text
    assert client.get("/api/tournament/next").json()["fullName"] == "Lunch"
