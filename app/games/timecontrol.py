"""Time controls: what a game's clock is, checked in one place for every way of making a
game (the browser's form, challenges, seeks). docs/decisions/time-controls.md.

- **Fischer**: an initial time and an increment added after each move.
- **Byo-yomi**: a main time, then ``periods`` periods of ``byoyomi`` each (shogi's rules:
  once the main time is out each move must be made within a period; a move made within it
  resets it; running over a period uses it up; running over the last one loses on time).
- **Correspondence**: ``days`` per move; running out loses on time.
- **Unlimited**: none of these.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from app.core.errors import ServiceError

MAX_CLOCK_MINUTES = 180
MIN_CLOCK_SECONDS = 1  # the shortest main time, in every API
MAX_INCREMENT_SECONDS = 180
MAX_BYOYOMI_SECONDS = 180  # a byo-yomi period: 1 s to 3 min, whole seconds
MAX_PERIODS = 10
DAYS = (1, 2, 3, 5, 7, 10, 14)  # correspondence: lichess's days per move
DAY_MS = 86_400_000


class TimeKind(StrEnum):
    FISCHER = "fischer"
    BYOYOMI = "byoyomi"
    CORRESPONDENCE = "correspondence"
    UNLIMITED = "unlimited"


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A checked time control, in milliseconds (what a game row stores)."""

    initial_ms: int | None = None  # Fischer's initial time, or byo-yomi's main time
    increment_ms: int = 0
    byoyomi_ms: int | None = None  # a period's length (None: not byo-yomi)
    periods: int | None = None  # byo-yomi periods at the start
    days: int | None = None  # correspondence: days per move

    @property
    def kind(self) -> TimeKind:
        if self.days is not None:
            return TimeKind.CORRESPONDENCE
        if self.initial_ms is None:
            return TimeKind.UNLIMITED
        return TimeKind.BYOYOMI if self.byoyomi_ms is not None else TimeKind.FISCHER


UNLIMITED = TimeControl()


def clock_ms_of(minutes: float) -> int | None:
    """A clock's initial time in milliseconds, rounded; None if not 1 s to the maximum (or
    not a number: NaN and infinities get through Python's JSON reader)."""
    if not (math.isfinite(minutes) and 0 < minutes <= MAX_CLOCK_MINUTES):
        return None
    initial = round(minutes * 60_000)
    return initial if initial >= MIN_CLOCK_SECONDS * 1000 else None


def invalid(message: str) -> ServiceError:
    return ServiceError("clock.invalid", message)


def checked(
    initial_ms: int | None,
    increment: int = 0,
    *,
    byoyomi: int = 0,
    periods: int = 0,
    days: int | None = None,
    names: tuple[str, str, str, str] = ("increment", "byoyomi", "periods", "days"),
) -> TimeControl:
    """The time control asked, or the error of its first bad part. ``initial_ms`` is the
    main time already rounded and range-checked (None: no clock); ``increment``, ``byoyomi``
    in whole seconds; ``names``: the request's names of the last four, for messages."""
    inc_name, byo_name, periods_name, days_name = names
    if days is not None:
        if initial_ms is not None:
            raise ServiceError("request.invalid", f"give a clock or {days_name}, not both")
        if days not in DAYS:
            raise ServiceError(
                "request.invalid", f"{days_name} must be one of {', '.join(map(str, DAYS))}"
            )
        return TimeControl(days=days)
    if not 0 <= increment <= MAX_INCREMENT_SECONDS:
        raise invalid(f"{inc_name} must be 0 to {MAX_INCREMENT_SECONDS} seconds")
    if not byoyomi and not periods:
        if initial_ms is None:
            return UNLIMITED
        return TimeControl(initial_ms, increment * 1000)
    if initial_ms is None:
        raise invalid(f"{byo_name} and {periods_name} need a main time")
    if not 1 <= byoyomi <= MAX_BYOYOMI_SECONDS:
        raise invalid(f"{byo_name} must be 1 to {MAX_BYOYOMI_SECONDS} seconds")
    if not 1 <= periods <= MAX_PERIODS:
        raise invalid(f"{periods_name} must be 1 to {MAX_PERIODS}")
    if increment:
        raise invalid(f"byo-yomi has no {inc_name}: give 0")
    return TimeControl(initial_ms, 0, byoyomi * 1000, periods)


def speed_of(
    initial_ms: int | None, increment_ms: int | None, byoyomi_ms: int | None = None
) -> str:
    """lichess's speed names, from the estimated game length (40 moves each; a byo-yomi
    period counts as an increment: 40 moves made each within one). No clock:
    correspondence, as lichess's unlimited and correspondence games."""
    if initial_ms is None:
        return "correspondence"
    per_move = (increment_ms or 0) + (byoyomi_ms or 0)
    total = initial_ms / 1000 + 40 * per_move / 1000
    if total < 30:
        return "ultraBullet"
    if total < 180:
        return "bullet"
    if total < 480:
        return "blitz"
    if total < 1500:
        return "rapid"
    return "classical"
