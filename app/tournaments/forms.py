"""The creation form of an arena, checked: lichess's fields in our units (seconds, our
games' ids and rule options), and the new event's row."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict

import engine
from app.core.errors import ServiceError
from app.tournaments.naming import default_name
from app.tournaments.tables import Tournament
from engine import EngineError

MAX_MINUTES = 720  # lichess's longest arena
MAX_CLOCK_SECONDS = 180 * 60
MAX_INCREMENT = 180
MAX_WAIT_MINUTES = 60 * 24 * 30


@dataclass(frozen=True)
class ArenaForm:
    """What the creation form (and lichess's ``POST /api/tournament``) asks."""

    clock_limit_s: int
    clock_increment_s: int
    minutes: int
    name: str | None = None
    starts_ms: int | None = None  # None: in ``wait_minutes``
    wait_minutes: int = 5
    variant: str = "dobutsu"
    rules: dict[str, str] = field(default_factory=dict)
    rated: bool = True
    berserkable: bool = True
    streakable: bool = True
    password: str | None = None
    min_rating: int | None = None
    max_rating: int | None = None
    description: str | None = None


def _invalid(message: str) -> ServiceError:
    return ServiceError("tournament.invalid", message)


def condition_rating(conditions: Mapping[str, Any] | None, key: str, code: str) -> int | None:
    """lichess's ``conditions.minRating.rating`` / ``maxRating.rating`` of a creation form:
    None when absent; not a whole number, a 400 with ``code``."""
    value = (conditions or {}).get(f"{key}.rating")
    if value in (None, ""):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ServiceError(code, f"conditions.{key}.rating: a number") from None


class JoinIn(BaseModel):
    """The body (or query) of joining an arena or a Swiss: a private event's password."""

    model_config = ConfigDict(extra="ignore")
    password: str | None = None


def password_hash(password: str) -> str:
    return hashlib.sha256(password.encode()).hexdigest()


def new_tournament(creator_id: str, form: ArenaForm, now: int) -> Tournament:
    """The row of a new arena (not yet inserted), or the error of the form's first bad
    field."""
    if form.variant not in engine.game_ids():
        raise _invalid(f"variant must be one of {', '.join(engine.game_ids())}")
    try:
        rules = dict(engine.get_game(form.variant, **form.rules).options)
    except (EngineError, TypeError) as error:
        raise _invalid(f"rules: {error}") from None
    if not 0 < form.clock_limit_s <= MAX_CLOCK_SECONDS:
        raise _invalid("clockTime must make 1 second to 180 minutes")
    if not 0 <= form.clock_increment_s <= MAX_INCREMENT:
        raise _invalid(f"clockIncrement must be 0 to {MAX_INCREMENT} seconds")
    if not 1 <= form.minutes <= MAX_MINUTES:
        raise _invalid(f"minutes must be 1 to {MAX_MINUTES}")
    starts = form.starts_ms
    if starts is None:
        if not 0 <= form.wait_minutes <= MAX_WAIT_MINUTES:
            raise _invalid("waitMinutes must be 0 to 30 days")
        starts = now + form.wait_minutes * 60_000
    if starts < now - 60_000 or starts > now + MAX_WAIT_MINUTES * 60_000:
        raise _invalid("startDate must be from now to 30 days ahead")
    low, high = form.min_rating, form.max_rating
    if low is not None and high is not None and low > high:
        raise _invalid("minRating is above maxRating")
    name = (form.name or "").strip() or default_name(form.variant, "arena")
    if len(name) > 40:
        raise _invalid("name must be at most 40 characters")
    return Tournament(
        id=secrets.token_hex(4),
        name=name,
        created_by=creator_id,
        variant=form.variant,
        rules=rules,
        clock_limit_s=form.clock_limit_s,
        clock_increment_s=form.clock_increment_s,
        minutes=form.minutes,
        starts_ms=max(starts, now),
        status="created",
        rated=form.rated,
        berserkable=form.berserkable,
        streakable=form.streakable,
        password_hash=password_hash(form.password) if form.password else None,
        min_rating=low,
        max_rating=high,
        description=(form.description or "").strip()[:400] or None,
        created_ms=now,
    )
