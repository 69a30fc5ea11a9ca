"""The creation form of a Swiss, checked (lichess's ``POST /api/swiss/new/{teamId}`` in our
units: seconds, our games' ids and rule options), and the new event's row. Each field's
refusal has its own stable code (``swiss.invalid_<field>``): the page words each one in the
visitor's language."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import engine
from app.core.errors import ServiceError
from app.tournaments.forms import password_hash
from app.tournaments.naming import default_name
from app.tournaments.tables import Swiss
from engine import EngineError

MAX_ROUNDS = 100  # lichess's limit
MAX_INTERVAL_S = 7 * 24 * 3600
MAX_WAIT_MS = 30 * 24 * 3600 * 1000


def not_found() -> ServiceError:
    return ServiceError("swiss.not_found", "no such swiss tournament", 404)


def invalid(field: str, message: str) -> ServiceError:
    return ServiceError(f"swiss.invalid_{field}", message)


@dataclass(frozen=True)
class SwissForm:
    """lichess's Swiss form in our units (``POST /api/swiss/new/{teamId}``)."""

    team_id: str
    clock_limit_s: int
    clock_increment_s: int
    nb_rounds: int
    name: str | None = None
    starts_ms: int | None = None  # None: in 10 minutes, as lichess
    round_interval_s: int | None = None  # None: lichess's automatic choice
    variant: str = "dobutsu"
    rules: dict[str, str] | None = None
    rated: bool = True
    description: str | None = None
    password: str | None = None  # a private event
    min_rating: int | None = None
    max_rating: int | None = None


def new_swiss(creator_id: str, form: SwissForm, now: int) -> Swiss:
    if form.variant not in engine.game_ids():
        raise invalid("variant", f"variant must be one of {', '.join(engine.game_ids())}")
    try:
        rules = dict(engine.get_game(form.variant, **(form.rules or {})).options)
    except (EngineError, TypeError) as error:
        raise invalid("rules", f"rules: {error}") from None
    if not 0 < form.clock_limit_s <= 180 * 60:
        raise invalid("clock", "clock.limit must be 1 second to 180 minutes")
    if not 0 <= form.clock_increment_s <= 180:
        raise invalid("increment", "clock.increment must be 0 to 180 seconds")
    if not 1 <= form.nb_rounds <= MAX_ROUNDS:
        raise invalid("rounds", f"nbRounds must be 1 to {MAX_ROUNDS}")
    interval = form.round_interval_s
    if interval is None:  # lichess's automatic interval: shorter for faster clocks
        interval = 10 if form.clock_limit_s + 40 * form.clock_increment_s < 600 else 60
    if not 0 <= interval <= MAX_INTERVAL_S:
        raise invalid("interval", "roundInterval must be 0 seconds to 7 days")
    low, high = form.min_rating, form.max_rating
    if low is not None and high is not None and low > high:
        raise invalid("rating", "conditions.minRating.rating is above maxRating")
    starts = now + 10 * 60_000 if form.starts_ms is None else form.starts_ms
    if starts < now - 60_000 or starts > now + MAX_WAIT_MS:
        raise invalid("start", "startsAt must be from now to 30 days ahead")
    name = (form.name or "").strip() or default_name(form.variant, "swiss")
    if len(name) > 40:
        raise invalid("name", "name must be at most 40 characters")
    if not form.team_id or len(form.team_id) > 40:
        raise invalid("team", "the team id must be 1 to 40 characters")
    starts = max(starts, now)
    return Swiss(
        id=secrets.token_hex(4),
        name=name,
        team_id=form.team_id,
        created_by=creator_id,
        variant=form.variant,
        rules=rules,
        clock_limit_s=form.clock_limit_s,
        clock_increment_s=form.clock_increment_s,
        nb_rounds=form.nb_rounds,
        round_interval_s=interval,
        round=0,
        starts_ms=starts,
        next_round_ms=starts,
        status="created",
        rated=form.rated,
        description=(form.description or "").strip()[:400] or None,
        created_ms=now,
        password_hash=password_hash(form.password) if form.password else None,
        min_rating=low,
        max_rating=high,
    )
