"""What a committed change of a game sets off: the registry of its subscribers, each by name,
filled by the composition root (app/main.py ``subscribe``: the one list of them).

Three moments of a change (app/games/changes.py): every committed change is *heard* (a quick
call, in the game's lock, before the change goes out on the hub); a change with durable
events (a game ended, app/domain/events.py) first awaits the *durable* hooks, and once it was
told the *told* hooks; and the outbox's consumption of such an event, once committed, awaits
the *consumed* hooks (app/outbox/consumer.py). A subscriber that fails is logged and skipped:
the change committed, so everything else still happens and its maker still gets its answer.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import Generic, TypeVar

from app.db.models import GameRow
from app.domain.events import GameEvent

log = logging.getLogger(__name__)

# Called after every committed change, with the game and its events (in the game's lock: it
# must return quickly, starting a task for anything slow).
Listener = Callable[[GameRow, Sequence[GameEvent]], None]
# Awaited after a change with durable events committed (``durable``), or was told (``told``).
ChangeHook = Callable[[GameRow, Sequence[GameEvent]], Awaitable[None]]
# Awaited after a durable event's consumption committed (its effects are visible).
AfterHook = Callable[[GameEvent], Awaitable[None]]

F = TypeVar("F")


class Hooks(Generic[F]):
    """Named subscriptions of one kind, called in the order they were added."""

    def __init__(self) -> None:
        # Made once per registration, read on every change: a change copies nothing.
        self._named: tuple[tuple[str, F], ...] = ()

    def add(self, name: str, call: F) -> None:
        if name in self.names():
            raise ValueError(f"a subscriber named {name!r} is there already")
        self._named = (*self._named, (name, call))

    def __iter__(self) -> Iterator[tuple[str, F]]:
        return iter(self._named)

    def names(self) -> list[str]:
        return [name for name, _call in self._named]


class Subscribers:
    """The subscribers of every game's committed changes, by the moment they are called."""

    def __init__(self) -> None:
        self.heard: Hooks[Listener] = Hooks()
        self.durable: Hooks[ChangeHook] = Hooks()
        self.told: Hooks[ChangeHook] = Hooks()
        self.consumed: Hooks[AfterHook] = Hooks()

    def names(self) -> dict[str, list[str]]:
        return {
            "heard": self.heard.names(),
            "durable": self.durable.names(),
            "told": self.told.names(),
            "consumed": self.consumed.names(),
        }

    def hear(self, game: GameRow, events: Sequence[GameEvent]) -> None:
        for name, listener in self.heard:
            try:
                listener(game, events)
            except Exception:
                log.exception("subscriber %s failed on a change of game %s", name, game.id)

    async def await_all(
        self, hooks: Hooks[ChangeHook], game: GameRow, events: Sequence[GameEvent]
    ) -> None:
        for name, hook in hooks:
            try:
                await hook(game, events)
            except Exception:  # the change stands and is told (a durable one's outbox row
                # is consumed later by the sweep)
                log.exception("subscriber %s failed on a change of game %s", name, game.id)
