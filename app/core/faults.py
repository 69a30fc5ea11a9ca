"""Named points where the server process dies at once, as under ``kill -9``, for the tests
that prove what survives a crash: ``KODAMA_CRASH_AT=<point>`` in the process's environment.
Unset (always, outside those tests), a point costs one dictionary lookup."""

from __future__ import annotations

import os

ENV = "KODAMA_CRASH_AT"
EXIT_STATUS = 137  # what a shell reports for a process killed by SIGKILL
# Every consumption of an outbox row passes these.
OUTBOX_POINTS = frozenset(
    {
        "after_commit",  # a change and its outbox rows committed, nothing consumed
        "after_consume_mark",  # an outbox row marked consumed, not yet acted on nor committed
        "after_consume_apply",  # acted on too, not yet committed
        "after_consume_commit",  # consumed and committed, the change not yet told
    }
)
# Only the consumption of a rated game's end passes these (app/ratings/service.py).
RATINGS_POINTS = frozenset(
    {
        "ratings_locked",  # both rating rows made if missing and locked, nothing changed
        "ratings_one_side",  # one player's rating and change written, not the other's
    }
)
POINTS = OUTBOX_POINTS | RATINGS_POINTS


def at(point: str) -> None:
    """Die here if the environment names this point."""
    if point not in POINTS:
        raise ValueError(f"no crash point {point!r}")
    if os.environ.get(ENV) == point:
        os.write(2, f"{ENV}={point}: exiting now\n".encode())
        os._exit(EXIT_STATUS)


def armed() -> str | None:
    """The point set in the environment (ValueError if it names none)."""
    point = os.environ.get(ENV) or None
    if point is not None and point not in POINTS:
        raise ValueError(f"{ENV}={point!r}: not one of {', '.join(sorted(POINTS))}")
    return point
