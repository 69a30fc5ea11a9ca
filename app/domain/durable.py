"""What the outbox stores of a durable event (events.py ``DURABLE``): a stable kind slug and
the event's fields as JSON, and the way back to the event."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from app.domain.enums import EndReason, GameStatus, Side
from app.domain.events import DURABLE, GameEnded, GameEvent

# Stored slugs, never class names (a rename must not strand rows).
KINDS: dict[str, type[GameEvent]] = {"gameEnded": GameEnded}
_KIND_OF = {cls: kind for kind, cls in KINDS.items()}
assert set(_KIND_OF) == set(DURABLE), "every durable event needs a stored kind"


@dataclass(frozen=True, slots=True)
class OutboxItem:
    """One outbox row to write with a change: its kind, its payload (JSON text), when."""

    kind: str
    payload: str
    created_ms: int


def outbox_items(events: Iterable[GameEvent], now_ms: int) -> tuple[OutboxItem, ...]:
    """The durable events among a change's, as outbox rows (in their order)."""
    return tuple(
        OutboxItem(_KIND_OF[type(e)], encode(e), now_ms) for e in events if isinstance(e, DURABLE)
    )


def encode(event: GameEvent) -> str:
    # StrEnum members are str: JSON writes their text.
    return json.dumps(dataclasses.asdict(event), separators=(",", ":"))


def decode(kind: str, payload: dict[str, Any] | str) -> GameEvent:
    """The event an outbox row stands for (ValueError for a kind this code does not know)."""
    fields = json.loads(payload) if isinstance(payload, str) else dict(payload)
    cls = KINDS.get(kind)
    if cls is None:
        raise ValueError(f"unknown outbox kind {kind!r}")
    if cls is GameEnded:
        winner = fields["winner"]
        return GameEnded(
            fields["game_id"],
            fields["ply"],
            GameStatus(fields["status"]),
            None if winner is None else Side(winner),
            EndReason(fields["reason"]),
        )
    raise AssertionError(f"no decoder for {kind!r}")  # pragma: no cover - KINDS checked
