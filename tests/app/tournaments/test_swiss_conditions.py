"""A Swiss's entry conditions, as an arena's: a password for a private event (asked at
every join, in the body or the query as berserk sends it), rating limits (checked as a
player first joins), both shown in the lists; a private Swiss is not the lobby's line."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.core.time import ManualClock
from tests.app.accounts_and_streams import Account, assert_error
from tests.app.tournaments.test_swiss import TEAM, create

MINUTE = 60_000


def test_a_private_swiss_asks_its_password(client: TestClient, clock: ManualClock) -> None:
    owner = Account(client, "organiser")
    anna, boris = Account(client, "anna"), Account(client, "boris")
    made = create(owner, clock, name="Club night", password="tuesday")
    sid = made["id"]
    assert made["private"] is True
    assert_error(anna.post(f"/api/swiss/{sid}/join"), 403, "swiss.password")
    assert_error(anna.post(f"/api/swiss/{sid}/join", {"password": "monday"}), 403, "swiss.password")
    assert anna.post(f"/api/swiss/{sid}/join", {"password": "tuesday"}).status_code == 200
    assert boris.post(f"/api/swiss/{sid}/join?password=tuesday").status_code == 200
    (line,) = client.get("/api/swiss").json()["created"]
    assert (line["private"], line["nbPlayers"]) == (True, 2)
    # The lobby's line shows only a public Swiss.
    assert client.get("/api/tournament/next").json() is None
    public = create(owner, clock, name="Open", startsAt=clock.now_ms() + 5 * MINUTE)
    assert public["private"] is False
    assert client.get("/api/tournament/next").json()["id"] == public["id"]


def test_rating_limits(client: TestClient, clock: ManualClock) -> None:
    owner = Account(client, "organiser")
    anna = Account(client, "anna")  # 1500, as every new account
    above = create(owner, clock, **{"conditions.minRating.rating": 1600})
    below = create(owner, clock, **{"conditions.maxRating.rating": 1400})
    within = create(
        owner, clock, **{"conditions.minRating.rating": 1400, "conditions.maxRating.rating": 1600}
    )
    assert (above["minRating"], below["maxRating"]) == ({"rating": 1600}, {"rating": 1400})
    assert "maxRating" not in above and "minRating" not in below
    assert_error(anna.post(f"/api/swiss/{above['id']}/join"), 403, "swiss.rating")
    assert_error(anna.post(f"/api/swiss/{below['id']}/join"), 403, "swiss.rating")
    assert anna.post(f"/api/swiss/{within['id']}/join").status_code == 200
    for conditions in (
        {"conditions.minRating.rating": 1600, "conditions.maxRating.rating": 1400},
        {"conditions.minRating.rating": "high"},
    ):
        body = {"clock.limit": 180, "nbRounds": 3, **conditions}
        assert_error(owner.post(f"/api/swiss/new/{TEAM}", body), 400, "swiss.invalid_rating")
