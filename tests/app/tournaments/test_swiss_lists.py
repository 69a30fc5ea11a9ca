"""The Swiss events as the tournaments page and the lobby read them: the lists (upcoming,
running, finished) of ``GET /api/swiss``, the lobby's next tournament when a Swiss starts
first, and the creation form's refusals, each with its own stable code (the page words
each one)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.time import ManualClock
from tests.app.accounts_and_streams import Account, assert_error
from tests.app.tournaments.test_arena import create as create_arena
from tests.app.tournaments.test_swiss import TEAM, create

# What this module tests is the same on either database (tests/app/conftest.py).
pytestmark = pytest.mark.sqlite_only

MINUTE = 60_000


def lists(client: TestClient) -> dict[str, list[dict[str, Any]]]:
    response = client.get("/api/swiss")
    assert response.status_code == 200, response.text
    data: dict[str, list[dict[str, Any]]] = response.json()
    return data


def test_the_swiss_events_upcoming_running_and_finished(
    client: TestClient, clock: ManualClock
) -> None:
    owner = Account(client, "organiser")
    soon = create(owner, clock, name="Soon", startsAt=clock.now_ms() + MINUTE)["id"]
    later = create(owner, clock, name="Later", startsAt=clock.now_ms() + 10 * MINUTE)["id"]
    ended = create(owner, clock, name="Ended")["id"]
    for name in ("anna", "boris", "cleo"):
        assert Account(client, name).post(f"/api/swiss/{soon}/join").status_code == 200
    assert owner.post(f"/api/swiss/{ended}/terminate").status_code == 200

    before = lists(client)
    # Upcoming: soonest first, with the time to the start.
    assert [s["id"] for s in before["created"]] == [soon, later]
    line = before["created"][0]
    assert (line["system"], line["name"], line["nbPlayers"], line["secondsToStart"]) == (
        "swiss", "Soon", 3, 60,
    )  # fmt: skip
    assert (line["nbRounds"], line["round"], line["status"]) == (3, 0, "created")
    assert [s["id"] for s in before["finished"]] == [ended]
    assert before["started"] == []

    clock.advance(MINUTE)  # the first one's round 1
    after = lists(client)
    assert [s["id"] for s in after["started"]] == [soon]
    assert after["started"][0]["round"] == 1 and "secondsToStart" not in after["started"][0]
    assert [s["id"] for s in after["created"]] == [later]


def test_the_lobby_line_shows_a_swiss_when_it_starts_first(
    client: TestClient, clock: ManualClock
) -> None:
    owner = Account(client, "organiser")
    # A minute apart (each second of the clock moved on runs the app's periodic work).
    arena = create_arena(owner, name="Arena", waitMinutes=2)["id"]
    later = create(owner, clock, name="Later Swiss", startsAt=clock.now_ms() + 4 * MINUTE)
    assert client.get("/api/tournament/next").json()["id"] == arena
    sooner = create(owner, clock, name="Sooner Swiss", startsAt=clock.now_ms() + MINUTE)
    line = client.get("/api/tournament/next").json()
    assert (line["id"], line["system"], line["name"]) == (sooner["id"], "swiss", "Sooner Swiss")
    assert line["secondsToStart"] == 60
    # Once it runs (finished at once: nobody joined), the arena is the next to start; once the
    # arena runs too, the Swiss still to start comes first.
    clock.advance(MINUTE)
    assert client.get("/api/tournament/next").json()["id"] == arena
    clock.advance(MINUTE)
    assert client.get("/api/tournament/next").json()["id"] == later["id"]
    # Starting together, the Swiss is the one told (the site's weekly Swiss and an hourly
    # arena both start on the hour).
    together = create_arena(owner, name="Together", startDate=clock.now_ms() + 2 * MINUTE)
    assert together["startsAt"] == clock.now_ms() + 2 * MINUTE
    assert client.get("/api/tournament/next").json()["id"] == later["id"]


@pytest.mark.parametrize(
    ("field", "code"),
    [
        ({"team": "t" * 41}, "swiss.invalid_team"),
        ({"clock.limit": 0}, "swiss.invalid_clock"),
        ({"clock.increment": 181}, "swiss.invalid_increment"),
        ({"nbRounds": 101}, "swiss.invalid_rounds"),
        ({"roundInterval": -1}, "swiss.invalid_interval"),
        ({"startsAt": 1}, "swiss.invalid_start"),
        ({"name": "x" * 41}, "swiss.invalid_name"),
        ({"rules": {"nope": "1"}}, "swiss.invalid_rules"),
        ({"rules": "{"}, "swiss.invalid_rules"),
    ],
)
def test_each_refusal_of_the_form_has_its_own_code(
    client: TestClient, field: dict[str, Any], code: str
) -> None:
    owner = Account(client, "organiser")
    body = {"clock.limit": 180, "clock.increment": 0, "nbRounds": 3, **field}
    team = body.pop("team", TEAM)
    assert_error(owner.post(f"/api/swiss/new/{team}", body), 400, code)
