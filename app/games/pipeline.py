"""The move pipeline's storage half (docs/decisions/move-pipeline.md): load the game (the
row this process last read or wrote, else the database's) -> run the change -> persist with one
conditional UPDATE that commits by itself and matches no row if the stored game is no longer
the one read (app/db/gamerows/: then reload and run the change again). A duplicate or late
submission can never apply twice: it finds the ply moved on and is refused. The change's
durable events (a game ended) are written to the outbox by that same write, so they exist
if and only if the change committed (app/outbox/consumer.py consumes them).

Changes of one game in this process run one at a time (a lock per game), so the events of
one game are told in the order they were committed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from app.core.errors import ServiceError
from app.db.gamerows import ConnectionLost, GameRows, RowCache, Stored, snapshot, to_game
from app.db.models import GameRow
from app.domain.durable import outbox_items
from app.domain.events import GameEvent
from app.games.endings import KeptThenRefused

log = logging.getLogger(__name__)

# A change: the game row (a copy, changed in place) and the time -> the events.
Change = Callable[[GameRow, int], list[GameEvent]]


class _Conflict(Exception):
    """A save found the stored game changed since it was read."""


@dataclass(frozen=True, slots=True)
class Changed:
    """What a committed change did: the game after it, its events, and the refusal to raise
    once they are told (the game ended on the way, then the change refused)."""

    game: GameRow
    events: list[GameEvent]
    error: ServiceError | None = None


class Pipeline:
    def __init__(self, rows: GameRows, clock_ms: Callable[[], int]) -> None:
        self.rows = rows
        self.now = clock_ms
        self.cache = RowCache()
        self._locks: dict[str, tuple[asyncio.Lock, list[int]]] = {}

    async def load(self, game_id: str) -> Stored:
        stored = await self.rows.load(game_id)
        if stored is None:
            self.cache.drop(game_id)
            raise ServiceError("game.not_found", f"no game {game_id!r}", 404)
        self.cache.put(game_id, stored)
        return stored

    async def get(self, game_id: str) -> GameRow:
        """The game as stored now (never only from the cache: another instance may have
        changed it)."""
        return to_game((await self.load(game_id)).row)

    async def run(self, game_id: str, change: Change) -> Changed:
        for attempt in range(3):
            try:
                return await self._run_once(game_id, change)
            except _Conflict:
                # Another writer (another instance) committed between our read and our
                # write: run again on the new state (a move that named its ply is then stale).
                log.info("game %s changed concurrently (attempt %d)", game_id, attempt + 1)
        raise ServiceError("game.busy", "the game is changing too fast; try again", 409)

    async def _run_once(self, game_id: str, change: Change) -> Changed:
        """Load (the cached row if any) -> change -> conditional UPDATE (it commits).

        The cached row is only a guess: the UPDATE applies only if the stored row is still
        that one, and a refusal or a no-op computed from it is checked against the stored row.
        The caller tells the events while this game's lock is still held (``serial``)."""
        stored = self.cache.get(game_id)
        fresh = stored is None
        if stored is None:
            stored = await self.load(game_id)
        while True:
            game = to_game(stored.row)
            error = None
            now = self.now()
            try:
                events = change(game, now)
            except KeptThenRefused as kept:
                events, error = kept.events, kept.error
            except ServiceError:
                if fresh:
                    raise
                stored, fresh = await self.load(game_id), True  # refuse on the stored row
                continue
            new = snapshot(game)
            if new == stored.row:  # nothing to write
                if fresh:
                    return Changed(game, [], error)
                latest = await self.load(game_id)
                if latest.row == stored.row:
                    return Changed(game, [], error)
                stored, fresh = latest, True
                continue
            try:
                saved = await self.rows.save(stored, new, outbox_items(events, now))
            except ConnectionLost:
                # Did the UPDATE commit before the connection died? The row tells (and the
                # outbox rows committed with it, or not, in the same statement).
                latest = await self.load(game_id)
                if latest.row != new:
                    stored, fresh = latest, True
                    continue
                saved = latest
            if saved is not None:
                self.cache.put(game_id, saved)
                return Changed(game, events, error)
            if fresh:
                self.cache.drop(game_id)
                raise _Conflict
            stored, fresh = await self.load(game_id), True  # the cache was behind

    @contextlib.asynccontextmanager
    async def serial(self, game_id: str) -> AsyncIterator[None]:
        """One change of this game at a time in this process (the lock is dropped when no
        one holds or awaits it)."""
        entry = self._locks.get(game_id)
        if entry is None:
            entry = self._locks[game_id] = (asyncio.Lock(), [0])
        lock, users = entry
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if not users[0]:
                del self._locks[game_id]

    async def close(self) -> None:
        await self.rows.close()
