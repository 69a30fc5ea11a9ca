"""Changing a game and telling what changed.

Every change runs one transition (transitions.py) through the pipeline (pipeline.py), then
tells its events: to the subscribers of this process (subscribers.py: the timekeeper, the
lobby, the bot event streams, presence…) and, as a ``GameUpdate`` with the state after it, on
the game's hub channel (every socket and stream showing the game, on every instance). A change
with durable events (written to the outbox with it) first awaits the ``durable`` hooks (the
outbox consumer), and once told the ``told`` hooks.

A change written outside the pipeline (a game inserted by a challenge or a pairing round, a
rematch's accept written with its new game) is told one way too: ``outside``.

Once a change has committed, nothing that fails while telling it undoes it or keeps it from
its maker: a failing subscriber, or a failing broadcast, is logged and the rest goes on.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence

from app.db.models import GameRow
from app.domain.events import DURABLE, GameEvent, MovePlayed
from app.games.pipeline import Change, Pipeline
from app.games.reads import GameReads
from app.games.subscribers import ChangeHook, Subscribers
from app.realtime.hub import LocalHub
from app.realtime.messages import GameUpdate, game_channel

log = logging.getLogger(__name__)

# Tells the events of a change written outside the pipeline (``Changes.outside``).
Tell = Callable[[GameRow, Sequence[GameEvent]], Awaitable[None]]


class Changes:
    def __init__(
        self, pipeline: Pipeline, hub: LocalHub, reads: GameReads, subscribers: Subscribers
    ) -> None:
        self.pipeline = pipeline
        self.hub = hub
        self.reads = reads
        self.subscribers = subscribers

    async def run(
        self, game_id: str, change: Change, before_telling: ChangeHook | None = None
    ) -> GameRow:
        """Run ``change`` through the pipeline and tell its events. ``before_telling``:
        awaited once the change has committed with events, before anyone is told of them (a
        rematch offer's challenge ends first: whoever sees the offer end then finds its
        challenge ended too)."""
        async with self.pipeline.serial(game_id):
            changed = await self.pipeline.run(game_id, change)
            if changed.events:
                await self._told(changed.game, changed.events, before_telling)
        if changed.error is not None:
            raise changed.error
        return changed.game

    @contextlib.asynccontextmanager
    async def outside(self, game_id: str) -> AsyncIterator[Tell]:
        """For a change written outside the pipeline: the block holds the game's turn (no
        change of it runs meanwhile in this process), writes and commits, then awaits
        ``tell(game, events)`` with the game as committed and its events, told like the
        pipeline's, in order with the game's other changes."""
        async with self.pipeline.serial(game_id):

            async def tell(game: GameRow, events: Sequence[GameEvent]) -> None:
                if game.id != game_id:
                    raise ValueError(f"game {game.id} told in the turn of game {game_id}")
                self.pipeline.cache.drop(game.id)  # written outside the pipeline: read again
                await self._told(game, events)

            yield tell

    async def _told(
        self,
        game: GameRow,
        events: Sequence[GameEvent],
        before_telling: ChangeHook | None = None,
    ) -> None:
        """Tell a committed change (the game's turn held)."""
        durable = any(isinstance(e, DURABLE) for e in events)
        if durable:
            await self.subscribers.await_all(self.subscribers.durable, game, events)
        if before_telling is not None:
            try:
                await before_telling(game, events)
            except Exception:
                log.exception("the hook before telling a change of game %s failed", game.id)
        self.subscribers.hear(game, events)
        try:
            await self.hub.publish(game_channel(game.id), await self.update(game, events))
        except Exception:  # the sockets showing the game read it again when they reconnect
            log.exception("could not publish a change of game %s", game.id)
        if durable:
            await self.subscribers.await_all(self.subscribers.told, game, events)

    async def update(self, game: GameRow, events: Sequence[GameEvent]) -> GameUpdate:
        """The hub message of a change: the live state, and the full state unless it was a
        move (a move's message is small: the move and the live part)."""
        moved = any(isinstance(e, MovePlayed) for e in events)
        state = None if moved else await self.reads.state(game)
        live = self.reads.live(game) if state is None else state
        return GameUpdate(game.id, game.ply, tuple(events), live, game.moves, state)
