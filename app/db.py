"""Database engine and sessions (SQLAlchemy 2, async): asyncpg for PostgreSQL, aiosqlite."""

from __future__ import annotations

from typing import Any

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
