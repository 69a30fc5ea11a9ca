"""Game rows in an SQLite file: the standard library's sqlite3 on a connection and a thread
of its own (aiosqlite under SQLAlchemy made a save half a dozen thread switches). A save is
one UPDATE comparing every column with the row read; with outbox rows, one transaction.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import JSON as JSONType
from sqlalchemy import Boolean, Integer, String

from app.db.gamerows.base import (
    COLUMN_OF,
    COMPARED,
    COMPARED_INDEX,
    FIELDS,
    KEY_INDEX,
    KEY_SQL,
    OUTBOX_SQL,
    TABLE_SQL,
    Row,
    SessionWrite,
    Stored,
    nothing_changed,
    quote,
)
from app.domain.durable import OutboxItem


def _same(value: Any) -> Any:
    return value


# How each column's Python value is stored by SQLAlchemy on SQLite, and read back.
_SQLITE_TYPES: dict[type, tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {
    JSONType: (
        lambda v: None if v is None else json.dumps(v),
        lambda v: None if v is None else json.loads(v),
    ),
    Boolean: (lambda v: None if v is None else int(v), lambda v: None if v is None else bool(v)),
    String: (_same, _same),
    Integer: (_same, _same),
}


class SqliteRows(SessionWrite):
    """Rows through the standard library's sqlite3, on one connection of its own used by
    one thread of its own: a save is one hop to that thread (aiosqlite under SQLAlchemy made
    it half a dozen, each a thread switch). One UPDATE, comparing every column with the row
    read (SQLite's ``IS`` is equality that holds for NULLs), commits by itself."""

    def __init__(self, path: str) -> None:
        self._path = path
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kodama-rows")
        self._conn: sqlite3.Connection | None = None
        self._updates: dict[tuple[int, ...], str] = {}
        codecs = [_sqlite_codec(f) for f in FIELDS]
        if any(c is None for c in codecs):
            raise ValueError("a column of the games table has a type sqlite3 rows cannot store")
        self._store = [c[0] for c in codecs if c is not None]
        self._read = [c[1] for c in codecs if c is not None]

    @staticmethod
    def supports_columns() -> bool:
        """Whether every column of the games table is of a type this class converts."""
        return all(_sqlite_codec(f) is not None for f in FIELDS)

    async def _run(self, work: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._thread, work, *args)

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            # Autocommit: each statement is its own transaction. The pragmas are the app
            # engine's (app/db/engine.py); timeout: how long to wait for another writer's lock.
            conn = sqlite3.connect(self._path, timeout=30, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            self._conn = conn
        return self._conn

    def _decode(self, found: tuple[Any, ...]) -> Stored:
        return Stored(tuple(read(v) for read, v in zip(self._read, found, strict=True)))

    def _load(self, game_id: str) -> Stored | None:
        found = self._connection().execute(_SQLITE_SELECT, (game_id,)).fetchone()
        return None if found is None else self._decode(found)

    def _with_status(self, status: str) -> list[Stored]:
        rows = self._connection().execute(_SQLITE_WITH_STATUS, (status,)).fetchall()
        return [self._decode(found) for found in rows]

    def _save(
        self, query: str, args: list[Any], game_id: str, outbox: Sequence[OutboxItem]
    ) -> bool:
        conn = self._connection()
        if not outbox:
            return conn.execute(query, args).rowcount == 1
        conn.execute("BEGIN IMMEDIATE")  # the write lock first: no other writer in between
        try:
            if conn.execute(query, args).rowcount != 1:
                conn.execute("ROLLBACK")
                return False
            (last,) = conn.execute(_SQLITE_LAST_SEQ, (game_id,)).fetchone()
            conn.executemany(
                _SQLITE_OUTBOX_INSERT,
                [
                    (game_id, last + n, item.kind, item.payload, item.created_ms)
                    for n, item in enumerate(outbox, start=1)
                ],
            )
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        return True

    async def load(self, game_id: str) -> Stored | None:
        result: Stored | None = await self._run(self._load, game_id)
        return result

    async def with_status(self, status: str) -> list[Stored]:
        result: list[Stored] = await self._run(self._with_status, status)
        return result

    def _update(self, changed: tuple[int, ...]) -> str:
        """UPDATE … SET <the changed columns> WHERE id = ? AND <every other column> IS ?"""
        query = self._updates.get(changed)
        if query is None:
            sets = ", ".join(f"{quote(COLUMN_OF[FIELDS[i]].name)} = ?" for i in changed)
            where = "".join(f" AND {quote(COLUMN_OF[f].name)} IS ?" for f in COMPARED)
            query = self._updates[changed] = (
                f"UPDATE {TABLE_SQL} SET {sets} WHERE {KEY_SQL} = ?{where}"
            )
        return query

    async def save(self, old: Stored, new: Row, outbox: Sequence[OutboxItem] = ()) -> Stored | None:
        before = old.row
        changed = tuple(i for i, value in enumerate(new) if value != before[i])
        if not changed:
            nothing_changed(outbox)
            return old
        if KEY_INDEX in changed:
            raise ValueError("a game's id never changes")
        store = self._store
        args = [store[i](new[i]) for i in changed]
        args.append(new[KEY_INDEX])
        args.extend(store[i](before[i]) for i in COMPARED_INDEX)
        written: bool = await self._run(
            self._save, self._update(changed), args, new[KEY_INDEX], tuple(outbox)
        )
        return Stored(new) if written else None

    async def close(self) -> None:
        def close() -> None:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

        await self._run(close)
        self._thread.shutdown(wait=True)


def _sqlite_codec(field: str) -> tuple[Callable[[Any], Any], Callable[[Any], Any]] | None:
    column_type = COLUMN_OF[field].type
    for kind, codec in _SQLITE_TYPES.items():
        if isinstance(column_type, kind):
            return codec
    return None


_SQLITE_SELECT = (
    f"SELECT {', '.join(quote(COLUMN_OF[f].name) for f in FIELDS)} FROM {TABLE_SQL} "
    f"WHERE {KEY_SQL} = ?"
)
_SQLITE_WITH_STATUS = (
    f"SELECT {', '.join(quote(COLUMN_OF[f].name) for f in FIELDS)} FROM {TABLE_SQL} "
    f"WHERE {quote(COLUMN_OF['status'].name)} = ?"
)
_SQLITE_LAST_SEQ = f"SELECT coalesce(max(seq), 0) FROM {OUTBOX_SQL} WHERE game_id = ?"
_SQLITE_OUTBOX_INSERT = (
    f"INSERT INTO {OUTBOX_SQL} (game_id, seq, kind, payload, created_ms) VALUES (?, ?, ?, ?, ?)"
)
