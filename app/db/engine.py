"""Database engine and sessions (SQLAlchemy 2, async): asyncpg for PostgreSQL, aiosqlite."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterator, MutableMapping
from typing import Any, TypeVar

from sqlalchemy import event
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.util import LRUCache


class CompiledStatements(MutableMapping[Any, Any]):
    """SQLAlchemy's cache of compiled statements, one for the process rather than one per
    engine.

    SQLAlchemy keys a compiled statement by the dialect *object* that compiled it, and each
    engine has its own, so a new engine compiles every statement again. A server has one
    engine, but a process can make many: the tests make an app (an engine) per test
    (docs/decisions/compiled-statements.md). Every engine here comes
    from :func:`make_engine`, whose dialects differ only by what they learn from the server
    when they first connect, so a statement is keyed by the dialect's class and that: the
    server's version, the parameter style. SQLAlchemy reads and writes the cache with
    ``get`` and ``[key] = compiled``, its key a tuple led by the dialect.
    """

    def __init__(self, capacity: int) -> None:
        self._entries: LRUCache[Any, Any] = LRUCache(capacity)

    @staticmethod
    def _key(key: Any) -> Any:
        if isinstance(key, tuple) and key and isinstance(key[0], Dialect):
            dialect = key[0]
            kind = (type(dialect), dialect.server_version_info, dialect.paramstyle)
            return (kind, *key[1:])
        return key

    def __getitem__(self, key: Any) -> Any:
        return self._entries[self._key(key)]

    def get(self, key: Any, default: Any = None) -> Any:
        return self._entries.get(self._key(key), default)

    def __setitem__(self, key: Any, value: Any) -> None:
        self._entries[self._key(key)] = value

    def __delitem__(self, key: Any) -> None:
        del self._entries[self._key(key)]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


# SQLAlchemy's default is 500 statements per engine. The app has ~380 a backend (the app tests
# leave 381 SQLite and 353 PostgreSQL ones), and the tests use both in one process.
COMPILED = CompiledStatements(capacity=1000)


def make_engine(url: str) -> AsyncEngine:
    kwargs: dict[str, Any] = {}
    if url.startswith("sqlite"):
        kwargs["connect_args"] = {"timeout": 30}
    else:
        # The move pipeline has connections of its own (app/db/gamerows/): this pool serves
        # the rest (pages, the API, sockets' first state), where a pre-ping's round trip is
        # cheap insurance against connections the server closed. At most 15 per instance,
        # with the pipeline's 16 and the hub's 2: three instances within PostgreSQL's
        # default 100 connections.
        kwargs.update(pool_size=5, max_overflow=10, pool_pre_ping=True)
    engine = create_async_engine(
        url, query_cache_size=0, execution_options={"compiled_cache": COMPILED}, **kwargs
    )
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
