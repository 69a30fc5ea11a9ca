"""Consuming the outbox: each durable event (a game ended) acted on exactly once.

The pipeline writes an event's outbox row with the change that made it, in the same
statement or transaction (app/db/gamerows/), so the row exists if and only if the change committed.
Consuming a row is ONE transaction: a conditional UPDATE marks it consumed only if it was not
(``… WHERE game_id = ? AND seq = ? AND consumed_ms IS NULL``), and only if that matched does
every consumer act (per-player counts now; ratings next), its writes committing with the mark
or not at all. However many instances or sweeps try the same row, the database lets exactly
one mark it; a crash before the commit leaves it unconsumed, for the next sweep.

Rows are consumed right after the change committed (the service awaits ``committed`` in the
game's lock, before telling anyone), at start-up (rows left by a process that died), and
every ``sweep_seconds`` (rows of an instance that died while others ran on).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from typing import Any, Protocol

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core import faults
from app.core.time import Clock, every
from app.db.models import GameRow, OutboxEntry
from app.domain.durable import decode
from app.domain.events import GameEvent
from app.games.subscribers import AfterHook, Hooks

log = logging.getLogger(__name__)
_BATCH = 500


class Consumer(Protocol):
    async def apply(self, session: AsyncSession, event: GameEvent) -> None:
        """Act on one durable event in ``session``'s transaction, the one that marks it
        consumed: called once per event, ever (never again after a commit)."""


class OutboxConsumer:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        consumers: Sequence[Consumer],
        clock: Clock,
        *,
        sweep_seconds: float = 5.0,
        after: Hooks[AfterHook] | None = None,
    ) -> None:
        """``after``: awaited after an event's consumption committed (its effects are
        visible), to tell others (the app's ``Subscribers.consumed``). Not exactly once: a
        crash right after the commit tells nobody (docs/decisions/outbox.md)."""
        self.sessions = sessions
        self.consumers = list(consumers)
        self.clock = clock
        self.now = clock.now_ms
        self.sweep_seconds = sweep_seconds
        self._sweeper: asyncio.Task[None] | None = None
        self.after: Hooks[AfterHook] = Hooks() if after is None else after
        # Events consumed right after their change, to tell once the change itself is told
        # (``told``), by game id: the game's lock is held from ``committed`` to ``told``.
        self._untold: dict[str, list[GameEvent]] = {}

    async def consume(
        self,
        game_id: str,
        seq: int,
        kind: str,
        payload: Any,
        untold: list[GameEvent] | None = None,
    ) -> bool:
        """Mark the row consumed and act on it, in one transaction: False if it was consumed
        already (by anyone), and then nothing is done. Once committed, the ``after`` hooks
        are told, or (``untold``) the event is left there for the caller to tell."""
        event = decode(kind, payload)  # a kind this code does not know: left for a newer one
        async with self.sessions() as session, session.begin():
            marked = await session.execute(
                update(OutboxEntry)
                .where(
                    OutboxEntry.game_id == game_id,
                    OutboxEntry.seq == seq,
                    OutboxEntry.consumed_ms.is_(None),
                )
                .values(consumed_ms=self.now())
                .execution_options(synchronize_session=False)
            )
            if marked.rowcount != 1:  # type: ignore[attr-defined]
                return False
            faults.reached("after_consume_mark")
            for consumer in self.consumers:
                await consumer.apply(session, event)
            faults.reached("after_consume_apply")
        faults.reached("after_consume_commit")
        if untold is not None:
            untold.append(event)
        else:
            await self._tell(event)
        return True

    async def _tell(self, event: GameEvent) -> None:
        for name, hook in self.after:
            try:
                await hook(event)
            except Exception:
                log.exception("subscriber %s failed on the consumption of %r", name, event)

    async def _consume_rows(
        self, rows: Sequence[Any], untold: list[GameEvent] | None = None
    ) -> int:
        done = 0
        for game_id, seq, kind, payload in rows:
            try:
                done += await self.consume(game_id, seq, kind, payload, untold)
            except Exception:
                # Left unconsumed: the next sweep tries again.
                log.exception("consuming outbox row %s/%s (%s) failed", game_id, seq, kind)
        return done

    async def consume_game(self, game_id: str, untold: list[GameEvent] | None = None) -> int:
        """Consume the game's unconsumed rows, in order: how many this call consumed."""
        async with self.sessions() as session:
            rows = (
                await session.execute(
                    _UNCONSUMED.where(OutboxEntry.game_id == game_id).order_by(OutboxEntry.seq)
                )
            ).all()
        return await self._consume_rows(rows, untold)

    async def committed(self, game: GameRow, _events: Sequence[GameEvent]) -> None:
        """The service's hook after a change with durable events committed (the change is
        told after it: what its consumption tells waits for ``told``)."""
        faults.reached("after_commit")
        untold = self._untold.setdefault(game.id, [])
        await self.consume_game(game.id, untold)

    async def told(self, game: GameRow, _events: Sequence[GameEvent]) -> None:
        """The service's hook once that change was told: tell its consumption now."""
        for event in self._untold.pop(game.id, []):
            await self._tell(event)

    async def sweep(self) -> int:
        """Consume every unconsumed row (oldest first): how many this call consumed."""
        total = 0
        while True:
            async with self.sessions() as session:
                rows = (
                    await session.execute(
                        _UNCONSUMED.order_by(
                            OutboxEntry.created_ms, OutboxEntry.game_id, OutboxEntry.seq
                        ).limit(_BATCH)
                    )
                ).all()
            done = await self._consume_rows(rows)
            total += done
            if len(rows) < _BATCH or not done:  # all seen, or only rows that keep failing
                return total

    async def start(self) -> None:
        """Consume what a previous run left, then sweep every ``sweep_seconds``."""
        swept = await self.sweep()
        if swept:
            log.info("consumed %d outbox rows left unconsumed", swept)
        self._sweeper = asyncio.get_running_loop().create_task(
            every(self.clock, self.sweep_seconds, self.sweep, log, "sweep of the outbox failed")
        )

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None


_UNCONSUMED = select(
    OutboxEntry.game_id, OutboxEntry.seq, OutboxEntry.kind, OutboxEntry.payload
).where(OutboxEntry.consumed_ms.is_(None))
