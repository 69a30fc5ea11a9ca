"""Game rows through SQLAlchemy Core on the app's engine: the store ``rows_for`` picks for
a database that neither of the faster ones serves (in-memory SQLite, an SQLite URL with
query options, a PostgreSQL driver other than asyncpg); tests run the pipeline on it too.
The version check compares every column with the row read."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.gamerows.base import (
    CORE_SELECT,
    CORE_WITH_STATUS,
    Row,
    SessionWrite,
    Stored,
    core_save,
    nothing_changed,
)
from app.domain.durable import OutboxItem


class CoreRows(SessionWrite):
    """Rows through SQLAlchemy Core on the app's engine (works on any database)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def load(self, game_id: str) -> Stored | None:
        async with self._engine.connect() as conn:
            found = (await conn.execute(CORE_SELECT, {"key": game_id})).first()
        return None if found is None else Stored(tuple(found))

    async def with_status(self, status: str) -> list[Stored]:
        async with self._engine.connect() as conn:
            found = await conn.execute(CORE_WITH_STATUS, {"status": status})
            return [Stored(tuple(r)) for r in found]

    async def save(self, old: Stored, new: Row, outbox: Sequence[OutboxItem] = ()) -> Stored | None:
        if new == old.row:
            nothing_changed(outbox)
            return old
        async with self._engine.begin() as conn:
            if not await core_save(conn, old, new, outbox):
                return None
        return Stored(new)

    async def close(self) -> None:
        return None
