"""Database engine and sessions (SQLAlchemy 2, async): asyncpg for PostgreSQL, aiosqlite."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, TypeVar

from sqlalchemy import event
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)


def make_engine(url: str) -> AsyncEngine:
    kwargs: dict[str, Any] = {}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"timeout": 30}
    else:
        # The move pipeline has connections of its own (services/rows.py): this pool serves
        # the rest (pages, the API, sockets' first state), where a pre-ping's round trip is
        # cheap insurance against connections the server closed. At most 15 per instance,
        # with the pipeline's 16 and the hub's 2: three instances within PostgreSQL's
        # default 100 connections.
        kwargs.update(pool_size=5, max_overflow=10, pool_pre_ping=True)
    engine = create_async_engine(url, **kwargs)
    if url.startswith("sqlite"):

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(conn: Any, _record: Any) -> None:
            cursor = conn.cursor()
            # WAL lets readers go on while a move is written; foreign keys are off by default.
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

    return engine


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)


T = TypeVar("T")
_finishing: set[asyncio.Future[Any]] = set()


async def uncancelled(work: Awaitable[T]) -> T:
    """Await ``work``, which runs to its end even if the caller is cancelled meanwhile (the
    caller still is). A streamed response is cancelled through an anyio cancel scope when
    its client leaves, and such a scope cancels every later await too: a query caught in it
    cannot even close its connection, and SQLAlchemy logs a traceback while trying to
    "terminate" it (aiosqlite < 0.22 cannot), losing the connection."""
    task = asyncio.ensure_future(work)
    _finishing.add(task)
    task.add_done_callback(_settled)
    return await asyncio.shield(task)


def _settled(task: asyncio.Future[Any]) -> None:
    _finishing.discard(task)
    if not task.cancelled():
        # Marked as seen: a caller still waiting got the exception; a read whose caller is
        # gone (its stream closed) has nobody left to tell.
        task.exception()
