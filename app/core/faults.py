"""Named points where a crash matters: between a change's commit and the outbox's consumption
of it, and inside the consumption of a rated game's end. The crash tests stop a real server
process at each point, as ``kill -9`` would (tests/crashpoints.py installs the hook in the
test's server process). The server itself never sets the hook: a point is one call of a
function that does nothing."""

from __future__ import annotations

from collections.abc import Callable

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

Hook = Callable[[str], None]


def _nothing(point: str) -> None:
    return None


_hook: Hook = _nothing


def reached(point: str) -> None:
    """The code passes ``point``: whatever hook is installed hears it (nothing, normally)."""
    _hook(point)


def install(hook: Hook | None) -> None:
    """Puts ``hook`` at every point (None: none). For the crash tests' server processes."""
    global _hook  # noqa: PLW0603 - one hook per process, set before the server starts
    _hook = hook or _nothing
