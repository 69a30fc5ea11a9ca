"""The site's own tournaments: a schedule (KODAMA_TOURNAMENT_SCHEDULE, docs/decisions/
arena-tournaments.md and swiss.md) of entries, each an arena or a Swiss every hour, every day
or every week at a fixed UTC time, and the scheduler that keeps each entry's next events
created (those starting within its period's look-ahead), on the injected clock.

Each scheduled event's id is derived from its entry and its start: every instance, and the
same instance after a restart, makes the same id for the same slot, and the insert does
nothing when the row is there. Two instances never create one slot twice. The events are
created by the site: the player ``SYSTEM_ID``, named "Kodama", who is nobody's account."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

import engine
from app.core.errors import ServiceError
from app.core.time import Clock, every
from app.db.models import Player
from app.tournaments.forms import ArenaForm, new_tournament
from app.tournaments.naming import SYSTEM_ID, default_name
from app.tournaments.swissform import SwissForm, new_swiss
from app.tournaments.tables import Swiss, Tournament

log = logging.getLogger(__name__)

SYSTEM_NAME = "Kodama"
DAY_MS = 86_400_000
AHEAD_MS = 2 * 3_600_000  # the hourly and daily events starting within this are created
WEEKLY_AHEAD_MS = DAY_MS  # a weekly event is listed a day ahead: time to see it and join
CHECK_SECONDS = 60.0  # how often the scheduler looks ahead
PERIODS = {"hourly": 3_600_000, "daily": DAY_MS, "weekly": 7 * DAY_MS}
DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
EPOCH_DAY = DAYS.index("Thu")  # 1 January 1970: a weekly offset counts from a Thursday
SETTING = "KODAMA_TOURNAMENT_SCHEDULE"


@dataclass(frozen=True)
class Entry:
    """One line of the schedule: an arena (or a Swiss) of ``variant`` every hour
    (``offset_ms`` past the hour), every day (past midnight UTC) or every week (past a
    Thursday's midnight UTC, as the epoch)."""

    every: str  # hourly | daily | weekly
    offset_ms: int
    variant: str
    clock_limit_s: int
    clock_increment_s: int
    minutes: int  # an arena's duration (0 for a Swiss)
    name: str
    rules: dict[str, str] = field(default_factory=dict)
    system: str = "arena"  # arena | swiss
    rounds: int = 0  # a Swiss's
    interval_s: int | None = None  # a Swiss's round interval (None: the automatic one)

    @property
    def key(self) -> str:
        """What makes its slots' ids: an entry changed by the operator makes new events."""
        parts: list[Any] = [
            self.every, self.offset_ms, self.variant, self.clock_limit_s,
            self.clock_increment_s, self.minutes, self.name, sorted(self.rules.items()),
        ]  # fmt: skip
        if self.system != "arena":  # an arena's key as it always was: its slots' ids stay
            parts.append([self.system, self.rounds, self.interval_s])
        return json.dumps(parts)

    @property
    def ahead_ms(self) -> int:
        return WEEKLY_AHEAD_MS if self.every == "weekly" else AHEAD_MS

    def starts(self, now: int, ahead_ms: int | None = None) -> list[int]:
        """Its slots' starts from ``now`` to ``now + ahead_ms`` (its period's look-ahead
        unless given), soonest first."""
        period = PERIODS[self.every]
        first = now + (self.offset_ms - now) % period
        ahead = self.ahead_ms if ahead_ms is None else ahead_ms
        return list(range(first, now + ahead + 1, period))

    def slot_id(self, start_ms: int) -> str:
        return hashlib.sha256(f"{self.key}@{start_ms}".encode()).hexdigest()[:8]


def default_schedule() -> list[dict[str, Any]]:
    """The site's schedule unless the operator sets one: for each game, an hourly 3+2 arena
    of 57 minutes, the games' starts spread through the hour, a daily 5+3 arena of 90
    minutes, one game an hour from 16:30 UTC, and a weekly 5+3 Swiss of 7 rounds, one game
    an hour on Saturdays from 12:00 UTC (docs/decisions/swiss.md)."""
    games = engine.game_ids()
    spread = 60 // len(games)
    hourly = [
        {"every": "hourly", "at": f":{i * spread:02d}", "variant": game, "clock": "3+2",
         "minutes": 57}
        for i, game in enumerate(games)
    ]  # fmt: skip
    daily = [
        {"every": "daily", "at": f"{16 + i:02d}:30", "variant": game, "clock": "5+3",
         "minutes": 90}
        for i, game in enumerate(games)
    ]  # fmt: skip
    weekly = [
        {"system": "swiss", "every": "weekly", "at": f"Sat {12 + i:02d}:00", "variant": game,
         "clock": "5+3", "rounds": 7, "interval": 60}
        for i, game in enumerate(games)
    ]  # fmt: skip
    return hourly + daily + weekly


_HOURLY_AT = re.compile(r":([0-5][0-9])")
_DAILY_AT = re.compile(r"([01][0-9]|2[0-3]):([0-5][0-9])")
_WEEKLY_AT = re.compile(rf"({'|'.join(DAYS)}) ([01][0-9]|2[0-3]):([0-5][0-9])")
_AT = {"hourly": ":MM", "daily": "HH:MM (UTC)", "weekly": f"'Day HH:MM' (UTC; {'/'.join(DAYS)})"}
_CLOCK = re.compile(r"(\d+(?:\.\d+)?)\+(\d+)")
_KEYS = {"system", "every", "at", "variant", "clock", "minutes", "rounds", "interval", "name",
         "rules"}  # fmt: skip


def parse(entries: Any) -> list[Entry]:
    """The schedule's entries, each checked as the creation form checks an arena (or a
    Swiss), or a ValueError naming the setting, the entry and what is wrong with it."""
    if not isinstance(entries, list):
        raise ValueError(f"{SETTING} must be a JSON list of tournaments ([] for none)")
    return [_entry(i, raw) for i, raw in enumerate(entries)]


def _entry(i: int, raw: Any) -> Entry:
    def bad(what: str) -> ValueError:
        return ValueError(f"{SETTING}, entry {i}: {what}")

    if not isinstance(raw, dict):
        raise bad('each entry is an object, e.g. {"every": "hourly", "at": ":00", '
                  '"variant": "dobutsu", "clock": "3+2", "minutes": 57}')  # fmt: skip
    if unknown := sorted(set(raw) - _KEYS):
        raise bad(f"unknown field {unknown[0]!r} (fields: {', '.join(sorted(_KEYS))})")
    system = raw.get("system", "arena")
    if system not in ("arena", "swiss"):
        raise bad(f"system must be arena or swiss, not {system!r}")
    every = raw.get("every")
    at = str(raw.get("at", ""))
    if every == "hourly" and (m := _HOURLY_AT.fullmatch(at)):
        offset = int(m[1]) * 60_000
    elif every == "daily" and (m := _DAILY_AT.fullmatch(at)):
        offset = (int(m[1]) * 60 + int(m[2])) * 60_000
    elif every == "weekly" and (m := _WEEKLY_AT.fullmatch(at)):
        day = (DAYS.index(m[1]) - EPOCH_DAY) % 7
        offset = day * DAY_MS + (int(m[2]) * 60 + int(m[3])) * 60_000
    elif every in PERIODS:
        raise bad(f"at must be {_AT[every]}, not {at!r}")
    else:
        raise bad(f"every must be hourly, daily or weekly, not {every!r}")
    clock = _CLOCK.fullmatch(str(raw.get("clock", "")))
    if clock is None:
        raise bad('clock must be "minutes+increment", e.g. "3+2"')
    minutes: Any = 0
    rounds: Any = 0
    interval: Any = None
    if system == "arena":
        if "rounds" in raw or "interval" in raw:
            raise bad("rounds and interval are a Swiss's: an arena has minutes")
        minutes = raw.get("minutes")
        if not _whole(minutes):
            raise bad("minutes (the arena's duration) must be a whole number")
        if minutes * 60_000 > PERIODS[every]:
            raise bad(f"an {every} arena lasts at most {PERIODS[every] // 60_000} minutes")
    else:
        if "minutes" in raw:
            raise bad("a Swiss has rounds (and an interval), not minutes")
        rounds, interval = raw.get("rounds"), raw.get("interval")
        if not _whole(rounds):
            raise bad("rounds (the Swiss's number of rounds) must be a whole number")
        if interval is not None and not _whole(interval):
            raise bad("interval (seconds between a round's end and the next) must be a whole "
                      "number")  # fmt: skip
    variant = str(raw.get("variant", ""))
    rules = raw.get("rules") or {}
    name = raw.get("name") or default_name(variant, system, every)
    entry = Entry(every, offset, variant, round(float(clock[1]) * 60), int(clock[2]), minutes,
                  str(name), {str(k): str(v) for k, v in dict(rules).items()}, system, rounds,
                  interval)  # fmt: skip
    try:  # the form's own checks: the game, its rules, the clock, the name's length
        _event(entry, 0, 0)
    except ServiceError as error:
        raise bad(error.message) from None
    return entry


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _event(entry: Entry, start_ms: int, now: int) -> Tournament | Swiss:
    """The row of the entry's event starting at ``start_ms``, its id that of the slot."""
    if entry.system == "swiss":
        form = SwissForm(
            team_id=SYSTEM_ID,
            clock_limit_s=entry.clock_limit_s,
            clock_increment_s=entry.clock_increment_s,
            nb_rounds=entry.rounds,
            name=entry.name,
            starts_ms=start_ms,
            round_interval_s=entry.interval_s,
            variant=entry.variant,
            rules=entry.rules,
        )
        event: Tournament | Swiss = new_swiss(SYSTEM_ID, form, now)
    else:
        event = new_tournament(SYSTEM_ID, _form(entry, start_ms), now)
    event.id = entry.slot_id(start_ms)
    return event


def _form(entry: Entry, start_ms: int) -> ArenaForm:
    return ArenaForm(
        clock_limit_s=entry.clock_limit_s,
        clock_increment_s=entry.clock_increment_s,
        minutes=entry.minutes,
        name=entry.name,
        starts_ms=start_ms,
        variant=entry.variant,
        rules=entry.rules,
    )


class Scheduler:
    """Keeps the schedule's next events created: at its start, then every CHECK_SECONDS."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        clock: Clock,
        entries: Sequence[Entry],
        *,
        is_postgres: bool,
    ) -> None:
        self.sessions = sessions
        self.clock = clock
        self.entries = list(entries)
        self.is_postgres = is_postgres
        self._task: asyncio.Task[None] | None = None

    async def run(self) -> list[str]:
        """Create the events of the next AHEAD_MS not created yet: the ids of those this
        call created (another instance's, or an earlier call's, are left as they are)."""
        now = self.clock.now_ms()
        rows: list[tuple[type[Tournament] | type[Swiss], dict[str, Any]]] = []
        for entry in self.entries:
            for start in entry.starts(now):
                event = _event(entry, start, now)
                columns = type(event).__table__.columns
                rows.append((type(event), {c.key: getattr(event, c.key) for c in columns}))
        if not rows:
            return []
        insert = postgresql_insert if self.is_postgres else sqlite_insert
        made = []
        async with self.sessions() as session, session.begin():
            await session.execute(
                insert(Player)
                .values(id=SYSTEM_ID, name=SYSTEM_NAME, created_ms=now)
                .on_conflict_do_nothing(index_elements=[Player.id])
            )
            for table, row in rows:
                done = await session.execute(
                    insert(table).values(row).on_conflict_do_nothing(index_elements=["id"])
                )
                if done.rowcount:  # type: ignore[attr-defined]
                    made.append(row["id"])
        if made:
            log.info("scheduled %d tournaments", len(made))
        return made

    async def start(self) -> None:
        if not self.entries:
            return
        try:
            await self.run()
        except Exception:  # the database away for a moment: the next look tries again
            log.exception("the tournaments' schedule failed")
        self._task = asyncio.get_running_loop().create_task(
            every(self.clock, CHECK_SECONDS, self.run, log, "the tournaments' schedule failed")
        )

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
