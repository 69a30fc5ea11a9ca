"""The site's own tournaments (app/tournaments/schedule.py): the setting read and refused
when malformed, each entry's next events created ahead on the injected clock (an arena two
hours ahead, a weekly Swiss a day ahead), the next one as time passes, listed as upcoming
and in the lobby's line, made by "Kodama"; two instances on one database (and a restart)
never create one slot twice; a default name carries the words it was made from."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from app.core.config import Settings
from app.core.time import ManualClock
from app.main import create_app
from app.tournaments import schedule
from app.tournaments.naming import SYSTEM_ID
from app.tournaments.swissroutes import iso
from tests.app.accounts_and_streams import Account, services_of
from tests.app.conftest import make_settings

HOUR = 3_600_000
MINUTE = 60_000
# ManualClock starts on the hour: 1_800_000_000_000 ms is 500_000 whole hours, a Friday at
# 08:00 UTC.
START = ManualClock().now_ms()
EVERY_HOUR_AT_ONE = {
    "every": "hourly",
    "at": ":01",
    "variant": "dobutsu",
    "clock": "3+2",
    "minutes": 57,
    "name": "Hourly Blitz",
}


WEEKLY_SWISS = {
    "system": "swiss",
    "every": "weekly",
    "at": "Sat 09:00",  # 25 hours after START
    "variant": "jungle",
    "clock": "5+3",
    "rounds": 7,
    "interval": 60,
}


def scheduled(client: TestClient, what: str = "tournament") -> dict[str, list[dict[str, Any]]]:
    lists = client.get(f"/api/{what}").json()
    return {k: [t for t in lists[k] if t["createdBy"] == SYSTEM_ID] for k in lists}


def test_the_next_events_are_created_ahead_and_the_next_one_as_time_passes(
    database_url: str, tmp_path: Path, clock: ManualClock
) -> None:
    settings = make_settings(database_url, tmp_path, tournament_schedule=[EVERY_HOUR_AT_ONE])
    with TestClient(create_app(settings, clock)) as client:
        made = scheduled(client)
        # At the start: the events of the next two hours, at 0:01 and 1:01.
        assert [t["startsAt"] for t in made["created"]] == [START + MINUTE, START + HOUR + MINUTE]
        first = made["created"][0]
        assert first["fullName"] == "Hourly Blitz" and first["clock"] == {
            "limit": 180,
            "increment": 2,
        }
        assert first["minutes"] == 57 and first["variant"] == "dobutsu"
        assert first["secondsToStart"] == 60
        # The lobby's line shows the next one to start.
        assert client.get("/api/tournament/next").json()["id"] == first["id"]

        clock.advance(MINUTE)  # 0:01: the first starts, 2:01 comes within the two hours
        made = scheduled(client)
        assert [t["id"] for t in made["started"]] == [first["id"]]
        assert [t["startsAt"] for t in made["created"]] == [
            START + HOUR + MINUTE,
            START + 2 * HOUR + MINUTE,
        ]
        # Looking again creates nothing: each slot is there once.
        scheduler = services_of(client).tournaments.scheduler
        assert client.portal.call(scheduler.run) == []  # type: ignore[union-attr]


def test_two_instances_on_one_database_create_each_event_once(
    database_url: str, tmp_path: Path, clock: ManualClock
) -> None:
    settings = make_settings(database_url, tmp_path, tournament_schedule=[EVERY_HOUR_AT_ONE])
    with (
        TestClient(create_app(settings, clock)) as one,
        TestClient(create_app(settings, clock)) as two,
    ):
        clock.advance(MINUTE)  # both instances look ahead again
        for client in (one, two):
            made = scheduled(client)
            assert len(made["started"]) == 1 and len(made["created"]) == 2
    # A restart finds its events there.
    with TestClient(create_app(settings, clock)) as three:
        made = scheduled(three)
        assert len(made["started"]) == 1 and len(made["created"]) == 2


def test_the_next_weekly_swiss_is_created_a_day_ahead_once_by_two_instances(
    database_url: str, tmp_path: Path, clock: ManualClock
) -> None:
    settings = make_settings(database_url, tmp_path, tournament_schedule=[WEEKLY_SWISS])
    saturday = START + 25 * HOUR
    with (
        TestClient(create_app(settings, clock)) as one,
        TestClient(create_app(settings, clock)) as two,
    ):
        # 25 hours before: not yet listed (a weekly event is created a day ahead).
        assert scheduled(one, "swiss")["created"] == []
        clock.jump(HOUR)  # 24 hours before: both instances look ahead again
        clock.advance(MINUTE)
        made = [scheduled(client, "swiss")["created"] for client in (one, two)]
        assert made[0] == made[1] and len(made[0]) == 1
        swiss = made[0][0]
        assert (swiss["name"], swiss["variant"], swiss["teamId"]) == (
            "Weekly Dou shou qi (Jungle) Swiss", "jungle", SYSTEM_ID,
        )  # fmt: skip
        assert swiss["startsAt"] == iso(saturday) and swiss["secondsToStart"] == 24 * 3600 - 60
        assert swiss["clock"] == {"limit": 300, "increment": 3}
        assert (swiss["nbRounds"], swiss["roundInterval"], swiss["rated"]) == (7, 60, True)
        # The lobby's line shows it: the next tournament to start.
        line = one.get("/api/tournament/next").json()
        assert (line["id"], line["system"]) == (swiss["id"], "swiss")
        # Looking again, on either instance, creates nothing.
        for client in (one, two):
            scheduler = services_of(client).tournaments.scheduler
            assert client.portal.call(scheduler.run) == []  # type: ignore[union-attr]
    # A restart finds it there; two players join and its first round starts on time.
    with TestClient(create_app(settings, clock)) as three:
        assert scheduled(three, "swiss")["created"] == [swiss]
        for name in ("anna", "boris"):
            assert Account(three, name).post(f"/api/swiss/{swiss['id']}/join").status_code == 200
        clock.jump(saturday - clock.now_ms())
        clock.advance(MINUTE)
        (running,) = scheduled(three, "swiss")["started"]
        assert (running["id"], running["round"], running["nbPlayers"]) == (swiss["id"], 1, 2)
        # The week after's is there a day before it.
        assert scheduled(three, "swiss")["created"] == []
        clock.jump(6 * 24 * HOUR)
        clock.advance(MINUTE)
        (following,) = scheduled(three, "swiss")["created"]
        assert following["startsAt"] == iso(saturday + 7 * 24 * HOUR)


def test_no_schedule_no_site_arenas(client: TestClient) -> None:
    assert scheduled(client) == {"created": [], "started": [], "finished": []}
    assert scheduled(client, "swiss") == {"created": [], "started": [], "finished": []}


def test_an_arena_entry_keeps_its_slots_ids() -> None:
    """An arena's slot ids are those it had before the schedule knew of Swiss events: an
    upgraded instance finds the events it made and creates none twice."""
    (entry,) = schedule.parse([EVERY_HOUR_AT_ONE])
    assert entry.slot_id(START + MINUTE) == "ee6c4822"


def test_the_default_schedule_an_hourly_arena_per_game_a_daily_one_and_a_weekly_swiss() -> None:
    entries = schedule.parse(schedule.default_schedule())
    hourly = [e for e in entries if e.every == "hourly"]
    daily = [e for e in entries if e.every == "daily"]
    weekly = [e for e in entries if e.every == "weekly"]
    games = ["dobutsu", "gorogoro", "jungle", "yote", "wali"]
    assert [e.variant for e in hourly] == games and [e.variant for e in daily] == games
    assert [e.variant for e in weekly] == games
    assert {e.system for e in hourly + daily} == {"arena"}
    assert {(e.system, e.clock_limit_s, e.clock_increment_s, e.rounds, e.interval_s)
            for e in weekly} == {("swiss", 300, 3, 7, 60)}  # fmt: skip
    # On Saturdays (START is a Friday, 08:00 UTC), one game an hour from 12:00 UTC.
    saturday = START - 8 * HOUR + 24 * HOUR
    assert [e.starts(saturday, 7 * 24 * HOUR)[0] for e in weekly] == [
        saturday + (12 + i) * HOUR for i in range(5)
    ]
    # Listed a day before: at START (28 hours before), none; a day before, the first.
    assert all(not e.starts(START) for e in weekly)
    assert weekly[0].starts(saturday - 12 * HOUR) == [saturday + 12 * HOUR]
    assert {(e.clock_limit_s, e.clock_increment_s, e.minutes) for e in hourly} == {(180, 2, 57)}
    # Spread through the hour: no two games start together.
    assert [e.offset_ms // MINUTE for e in hourly] == [0, 12, 24, 36, 48]
    assert [e.offset_ms // MINUTE for e in daily] == [16 * 60 + 30 + 60 * i for i in range(5)]
    # Two hours ahead from the hour: the hourly ones' next two or three, no daily one yet.
    assert [len(e.starts(START)) for e in hourly] == [3, 2, 2, 2, 2]
    assert all(not e.starts(START) for e in daily)
    # A daily one is there two hours before its start.
    day_start = START - START % (24 * HOUR)
    assert daily[0].starts(day_start + 14 * HOUR + 30 * MINUTE) == [
        day_start + 16 * HOUR + 30 * MINUTE
    ]


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ({"every": "hourly"}, "must be a JSON list"),
        (["hourly"], "entry 0: each entry is an object"),
        ([{**EVERY_HOUR_AT_ONE, "every": "monthly"}], "every must be hourly, daily or weekly"),
        ([{**EVERY_HOUR_AT_ONE, "every": "weekly"}], "at must be 'Day HH:MM'"),
        ([{**WEEKLY_SWISS, "at": "Saturday 09:00"}], "at must be 'Day HH:MM' .*Mon/Tue"),
        ([{**WEEKLY_SWISS, "system": "round-robin"}], "system must be arena or swiss"),
        ([{**WEEKLY_SWISS, "minutes": 90}], "a Swiss has rounds .*not minutes"),
        ([{**EVERY_HOUR_AT_ONE, "rounds": 5}], "rounds and interval are a Swiss's"),
        ([{**WEEKLY_SWISS, "rounds": "7"}], "rounds .* must be a whole number"),
        ([{**WEEKLY_SWISS, "interval": 1.5}], "interval .* must be a whole number"),
        ([{**WEEKLY_SWISS, "rounds": 0}], "nbRounds must be 1 to 100"),
        ([{**WEEKLY_SWISS, "clock": "0+0"}], "clock.limit must be"),
        ([{**EVERY_HOUR_AT_ONE, "at": "12:00"}], "at must be :MM"),
        ([{**EVERY_HOUR_AT_ONE, "every": "daily", "at": "25:00"}], r"at must be HH:MM \(UTC\)"),
        ([{**EVERY_HOUR_AT_ONE, "clock": "3"}], 'clock must be "minutes\\+increment"'),
        ([{**EVERY_HOUR_AT_ONE, "minutes": 61}], "an hourly arena lasts at most 60 minutes"),
        ([{**EVERY_HOUR_AT_ONE, "minutes": "57"}], "minutes .* must be a whole number"),
        ([EVERY_HOUR_AT_ONE, {**EVERY_HOUR_AT_ONE, "variant": "go"}], "entry 1: variant must"),
        ([{**EVERY_HOUR_AT_ONE, "rules": {"nope": "1"}}], "entry 0: rules:"),
        ([{**EVERY_HOUR_AT_ONE, "start": ":01"}], "unknown field 'start'"),
    ],
)
def test_a_malformed_schedule_is_refused_with_what_is_wrong(entries: Any, message: str) -> None:
    with pytest.raises(ValueError, match=f"KODAMA_TOURNAMENT_SCHEDULE.*{message}"):
        schedule.parse(entries)


def test_the_setting_is_json_and_an_instance_does_not_start_on_a_malformed_one(
    monkeypatch: pytest.MonkeyPatch, sqlite_url: str, tmp_path: Path
) -> None:
    monkeypatch.setenv("KODAMA_TOURNAMENT_SCHEDULE", '[{"every": "daily", "at": "18:00"}]')
    assert Settings().tournament_schedule == [{"every": "daily", "at": "18:00"}]
    monkeypatch.setenv("KODAMA_TOURNAMENT_SCHEDULE", "[]")
    assert Settings().tournament_schedule == []
    monkeypatch.setenv("KODAMA_TOURNAMENT_SCHEDULE", "[{")
    with pytest.raises(ValidationError, match="KODAMA_TOURNAMENT_SCHEDULE is not JSON"):
        Settings()
    monkeypatch.setenv("KODAMA_TOURNAMENT_SCHEDULE", '"hourly"')
    with pytest.raises(ValidationError, match="tournament_schedule"):
        Settings()
    monkeypatch.delenv("KODAMA_TOURNAMENT_SCHEDULE")
    bad = make_settings(sqlite_url, tmp_path, tournament_schedule=[{"every": "hourly"}])
    with (
        pytest.raises(ValueError, match="KODAMA_TOURNAMENT_SCHEDULE, entry 0: at must be"),
        TestClient(create_app(bad, ManualClock())),
    ):
        pass


def test_a_default_name_carries_its_words_and_a_typed_name_none(
    database_url: str, tmp_path: Path, clock: ManualClock
) -> None:
    unnamed = {k: v for k, v in EVERY_HOUR_AT_ONE.items() if k != "name"} | {"variant": "gorogoro"}
    entries = [unnamed, EVERY_HOUR_AT_ONE, WEEKLY_SWISS | {"at": "Fri 09:00"}]
    settings = make_settings(database_url, tmp_path, tournament_schedule=entries)
    with TestClient(create_app(settings, clock)) as client:
        arenas = scheduled(client)["created"]
        hourly = next(t for t in arenas if t["variant"] == "gorogoro")
        assert hourly["fullName"] == "Hourly Gorogoro shōgi Arena"
        words = {"every": "hourly", "system": "arena", "variant": "gorogoro"}
        assert hourly["defaultName"] == words
        assert client.get(f"/api/tournament/{hourly['id']}").json()["defaultName"] == words
        # The lobby's line: this arena starts first (08:01).
        assert client.get("/api/tournament/next").json()["defaultName"] == words
        typed = next(t for t in arenas if t["variant"] == "dobutsu")
        assert typed["fullName"] == "Hourly Blitz" and "defaultName" not in typed
        (swiss,) = scheduled(client, "swiss")["created"]
        words = {"every": "weekly", "system": "swiss", "variant": "jungle"}
        assert swiss["defaultName"] == words
        assert client.get(f"/api/swiss/{swiss['id']}").json()["defaultName"] == words
        # A person's arena: no name given, the default without a period; a name typed, none,
        # even one that reads like the site's.
        owner = Account(client, "anna")
        made = create_arena(owner, variant="wali")
        assert made["fullName"] == "Wali Arena"
        assert made["defaultName"] == {"every": None, "system": "arena", "variant": "wali"}
        for name in ("Friday fun", "Hourly Wali Arena"):
            made = create_arena(owner, variant="wali", name=name)
            assert made["fullName"] == name and "defaultName" not in made


def create_arena(owner: Account, **form: Any) -> dict[str, Any]:
    body = {"clockTime": 3, "clockIncrement": 0, "minutes": 20, "waitMinutes": 1, **form}
    response = owner.post("/api/tournament", body)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data
