"""Game rows on PostgreSQL: asyncpg directly (SQLAlchemy's ORM session, unit of work and
pool pre-ping were most of the server's time per move), on a few connections of its own, with
prepared statements and outside any transaction block, so a save is one round trip that
commits by itself. The row's version is PostgreSQL's ``xmin`` (the transaction that wrote
this version of the row: every UPDATE changes it), and a save sets only the columns that
changed. A save's outbox rows are written by the same statement (the UPDATE in a CTE, the
INSERT selecting from what it returned).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import deque
from collections.abc import Sequence
from typing import Any

from app.db.gamerows.base import (
    COLUMN_OF,
    FIELDS,
    JSON_INDEX,
    KEY_INDEX,
    KEY_SQL,
    OUTBOX_SQL,
    PLY_INDEX,
    TABLE_SQL,
    ConnectionLost,
    Row,
    SessionWrite,
    Stored,
    nothing_changed,
    quote,
)
from app.domain.durable import OutboxItem

log = logging.getLogger(__name__)


def _lost_connection() -> tuple[type[BaseException], ...]:
    """The errors of a connection that died (server restart, network): worth a retry."""
    import asyncpg  # noqa: PLC0415 - only needed with PostgreSQL

    return (
        OSError,
        asyncio.TimeoutError,
        asyncpg.PostgresConnectionError,
        asyncpg.InterfaceError,
        # A connection the server closed while idle can be left in a state where the next
        # query fails before it is sent: a lost connection too.
        asyncpg.InternalClientError,
        asyncpg.exceptions.AdminShutdownError,
        asyncpg.exceptions.CrashShutdownError,
        asyncpg.exceptions.CannotConnectNowError,
    )


class _Connections:
    """A few asyncpg connections, opened on demand, each used by one query at a time, handed
    out first come, first served.

    Not asyncpg's Pool: its acquire/release (holders, proxies, timers, a reset) cost more CPU
    than the query. No session state is ever set, so nothing is reset between uses; a
    connection that saw any error is closed rather than reused."""

    def __init__(self, connect: dict[str, Any], size: int) -> None:
        self._connect = connect
        self._size = size
        self._idle: list[Any] = []
        self._count = 0  # open, opening, or promised to a waiter that will open one
        # Each waiter gets a released connection, or None: a free slot to open one in.
        self._waiters: deque[asyncio.Future[Any]] = deque()
        self._closed = False

    async def acquire(self) -> Any:
        if self._closed:
            raise ConnectionLost("the game rows' connections are closed")
        if not self._waiters:  # never ahead of those already waiting
            while self._idle:
                conn = self._idle.pop()
                if not conn.is_closed():
                    return conn
                self._count -= 1
            if self._count < self._size:
                self._count += 1
                return await self._open()
        waiter: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            conn = await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():  # handed something: pass it on
                handed = waiter.result()
                if handed is None:
                    self._free_slot()
                else:
                    self.release(handed)
            raise
        finally:
            if waiter in self._waiters:
                self._waiters.remove(waiter)
        if conn is None:
            return await self._open()
        return conn

    async def _open(self) -> Any:
        """A new connection in a slot already counted."""
        import asyncpg  # noqa: PLC0415

        try:
            return await asyncpg.connect(**self._connect)
        except BaseException:
            self._free_slot()
            raise

    def _next_waiter(self) -> asyncio.Future[Any] | None:
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                return waiter
        return None

    def _free_slot(self) -> None:
        waiter = self._next_waiter()
        if waiter is None or self._closed:
            self._count -= 1
            if waiter is not None:
                waiter.set_exception(ConnectionLost("the game rows' connections are closed"))
        else:
            waiter.set_result(None)  # the slot passes to the waiter, which opens its own

    def release(self, conn: Any, *, broken: bool = False) -> None:
        if broken or self._closed or conn.is_closed():
            conn.terminate()
            self._free_slot()
            return
        waiter = self._next_waiter()
        if waiter is None:
            self._idle.append(conn)
        else:
            waiter.set_result(conn)

    async def close(self) -> None:
        self._closed = True
        idle, self._idle = self._idle, []
        for conn in idle:
            self._count -= 1
            try:
                await asyncio.wait_for(conn.close(), 5)
            except Exception:
                conn.terminate()
        while (waiter := self._next_waiter()) is not None:
            waiter.set_exception(ConnectionLost("the game rows' connections are closed"))


_PG_COLUMNS = f"xmin, {', '.join(quote(COLUMN_OF[f].name) for f in FIELDS)}"
_PG_SELECT = f"SELECT {_PG_COLUMNS} FROM {TABLE_SQL} WHERE {KEY_SQL} = $1"
_PG_WITH_STATUS = (
    f"SELECT {_PG_COLUMNS} FROM {TABLE_SQL} WHERE {quote(COLUMN_OF['status'].name)} = $1"
)
_ATTEMPTS = 3


class PostgresRows(SessionWrite):
    """Rows through asyncpg on connections of its own (opened on first use)."""

    # Enough connections for the saves in flight: each waits for its commit's WAL flush
    # (3.5 ms on the project's disk, tens of ms when it is busy), and PostgreSQL flushes the
    # commits that wait together at once, so more connections keep more moves per flush.
    def __init__(self, connect: dict[str, Any], size: int = 16) -> None:
        self._connections = _Connections(connect, size)
        self._updates: dict[tuple[tuple[int, ...], bool], str] = {}

    async def _query(self, method: str, query: str, *args: Any) -> Any:
        conn = await self._connections.acquire()
        try:
            result = await getattr(conn, method)(query, *args)
        except BaseException:
            self._connections.release(conn, broken=True)
            raise
        self._connections.release(conn)
        return result

    async def _read(self, method: str, query: str, arg: str) -> Any:
        """A read, tried again on another connection if the connection died."""
        for attempt in range(_ATTEMPTS):
            try:
                return await self._query(method, query, arg)
            except _lost_connection() as exc:
                if attempt + 1 == _ATTEMPTS:
                    raise ConnectionLost(str(exc)) from exc
                log.warning("reading games: lost the connection (%s); retrying", exc)
        raise AssertionError("unreachable")

    async def load(self, game_id: str) -> Stored | None:
        record = await self._read("fetchrow", _PG_SELECT, game_id)
        return None if record is None else self._stored(record)

    async def with_status(self, status: str) -> list[Stored]:
        return [self._stored(r) for r in await self._read("fetch", _PG_WITH_STATUS, status)]

    @staticmethod
    def _stored(record: Any) -> Stored:
        row = list(record)
        version = row.pop(0)
        for i in JSON_INDEX:
            if isinstance(row[i], str):  # asyncpg gives json as its text
                row[i] = json.loads(row[i])
        return Stored(tuple(row), version)

    def _update(self, changed: tuple[int, ...], outbox: bool) -> str:
        """UPDATE … SET <the changed columns> WHERE id = $1 AND xmin = $2 AND ply = $3
        (ply too: a guard should transaction ids ever wrap around to the same number); with
        ``outbox``, in a CTE whose INSERT of the outbox rows (three arrays after the
        columns: kinds, payloads, times) selects from the rows the UPDATE returned."""
        query = self._updates.get((changed, outbox))
        if query is None:
            sets = ", ".join(
                f"{quote(COLUMN_OF[FIELDS[i]].name)} = ${n}" for n, i in enumerate(changed, start=4)
            )
            ply = quote(COLUMN_OF[FIELDS[PLY_INDEX]].name)
            query = (
                f"UPDATE {TABLE_SQL} SET {sets} WHERE {KEY_SQL} = $1 AND xmin = $2::xid "
                f"AND {ply} = $3 RETURNING xmin"
            )
            if outbox:
                n = len(changed) + 4
                query = (
                    f"WITH updated AS ({query}, {KEY_SQL} AS game_id), "
                    f"written AS (INSERT INTO {OUTBOX_SQL} "
                    "(game_id, seq, kind, payload, created_ms) "
                    "SELECT updated.game_id, "
                    f"(SELECT coalesce(max(o.seq), 0) FROM {OUTBOX_SQL} o "
                    "WHERE o.game_id = updated.game_id) + item.n, "
                    "item.kind, item.payload::json, item.created_ms "
                    f"FROM updated, unnest(${n}::text[], ${n + 1}::text[], ${n + 2}::int8[]) "
                    "WITH ORDINALITY AS item(kind, payload, created_ms, n)) "
                    "SELECT xmin FROM updated"
                )
            self._updates[changed, outbox] = query
        return query

    async def save(self, old: Stored, new: Row, outbox: Sequence[OutboxItem] = ()) -> Stored | None:
        before = old.row
        changed = tuple(i for i, value in enumerate(new) if value != before[i])
        if not changed:
            nothing_changed(outbox)
            return old
        if old.version is None or KEY_INDEX in changed:
            raise ValueError("a game's id never changes, and a save needs a loaded row")
        args = [
            json.dumps(new[i], separators=(",", ":")) if i in JSON_INDEX else new[i]
            for i in changed
        ]
        if outbox:
            args.append([item.kind for item in outbox])
            args.append([item.payload for item in outbox])
            args.append([item.created_ms for item in outbox])
        try:
            version = await self._query(
                "fetchval",
                self._update(changed, bool(outbox)),
                new[KEY_INDEX],
                old.version,
                before[PLY_INDEX],
                *args,
            )
        except _lost_connection() as exc:
            log.warning("saving game %s: lost the connection (%s)", new[KEY_INDEX], exc)
            raise ConnectionLost(str(exc)) from exc
        return None if version is None else Stored(new, version)

    async def close(self) -> None:
        await self._connections.close()
