"""Game rows for the move pipeline: one row read by id, one conditional UPDATE to write it.

A save applies only if the stored row is still the very one the change was computed from
(not only the same ``ply``: a resignation or a draw offer moves no ply). So a copy kept in
memory can never overwrite a change made elsewhere (another instance, another process): the
save matches no row, says so, and the caller reloads and runs the change again.

PostgreSQL: asyncpg directly (SQLAlchemy's ORM session, unit of work and pool pre-ping were
most of the server's time per move), on a few connections of its own, with prepared
statements and outside any transaction block, so a save is one round trip that commits by
itself. The row's version is PostgreSQL's ``xmin`` (the transaction that wrote this version
of the row: every UPDATE changes it), and a save sets only the columns that changed. An
SQLite file: the standard library's sqlite3 on a connection and a thread of its own,
comparing every column. Anything else (in-memory SQLite): SQLAlchemy Core, statements built
once, comparing every column.

A save may carry outbox rows (the change's durable events, app/domain/durable.py): they are
written only if the UPDATE matched, and commit with it or not at all. On PostgreSQL that is
one statement (the UPDATE in a CTE, the INSERT selecting from what it returned); elsewhere,
one transaction. Each row's ``seq`` is the next of its game: the conditional UPDATE lets one
writer at a time through for a game, so the ``max(seq)`` it reads is the latest.
"""

from __future__ import annotations

import asyncio
import json
import logging
import operator
import sqlite3
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol, cast

from sqlalchemy import JSON, Boolean, Integer, String, Table, bindparam, func, select
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.models import Game, OutboxEntry
from app.domain.durable import OutboxItem

log = logging.getLogger(__name__)

# A game row: its column values in FIELDS order.
Row = tuple[Any, ...]

_MAPPER = sa_inspect(Game)
_TABLE: Table = Game.__table__  # type: ignore[assignment]
FIELDS: tuple[str, ...] = tuple(attr.key for attr in _MAPPER.column_attrs)
_COLUMN_OF = {attr.key: attr.columns[0] for attr in _MAPPER.column_attrs}
KEY = "id"
_JSON = frozenset(f for f in FIELDS if isinstance(_COLUMN_OF[f].type, JSON))
_JSON_INDEX = tuple(FIELDS.index(f) for f in sorted(_JSON))
_KEY_INDEX = FIELDS.index(KEY)
_PLY_INDEX = FIELDS.index("ply")
_snapshot: Callable[[dict[str, Any]], Row] = operator.itemgetter(*FIELDS)


@dataclass(frozen=True, slots=True)
class Stored:
    """A game row as read or written, and the database's version of it (None: there is
    none, the columns themselves are compared)."""

    row: Row
    version: int | None = None


class ConnectionLost(Exception):
    """The database connection failed (for a save: before its outcome was known)."""


class GameRecord:
    """A game's columns as plain attributes: what ``to_game`` makes. Reading and setting a
    mapped ``Game``'s instrumented attributes (~60 a move) and making one cost about a
    quarter of the CPU of the change itself; a record has the same attributes and is never
    added to a session (the pipeline writes rows itself)."""

    def __repr__(self) -> str:
        return f"GameRecord(id={self.__dict__.get(KEY)!r}, ply={self.__dict__.get('ply')!r})"


def to_game(row: Row) -> Game:
    """A new game record holding this row (its dicts copied: the row stays as it was), typed
    as the ``Game`` whose columns it has."""
    game = GameRecord()
    values = dict(zip(FIELDS, row, strict=True))
    for field in _JSON:
        values[field] = _copy(values[field])
    game.__dict__.update(values)
    return cast(Game, game)


def _copy(value: Any) -> Any:
    """A deep copy of a JSON value (a game's rule options: a flat dict of strings)."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def snapshot(game: Game) -> Row:
    """The row a (possibly changed) Game stands for."""
    try:
        return _snapshot(game.__dict__)
    except KeyError:  # an attribute never loaded (an ORM instance): read it the slow way
        return tuple(getattr(game, f) for f in FIELDS)


class RowCache:
    """The latest row this process has seen of each game, least recently used dropped.

    Never trusted on its own: a save from it is checked by the conditional UPDATE."""

    def __init__(self, size: int = 10_000) -> None:
        self._rows: OrderedDict[str, Stored] = OrderedDict()
        self._size = size

    def get(self, game_id: str) -> Stored | None:
        stored = self._rows.get(game_id)
        if stored is not None:
            self._rows.move_to_end(game_id)
        return stored

    def put(self, game_id: str, stored: Stored) -> None:
        self._rows[game_id] = stored
        self._rows.move_to_end(game_id)
        while len(self._rows) > self._size:
            self._rows.popitem(last=False)

    def drop(self, game_id: str) -> None:
        self._rows.pop(game_id, None)

    def __len__(self) -> int:
        return len(self._rows)


class GameRows(Protocol):
    async def load(self, game_id: str) -> Stored | None:
        """The stored row, or None if there is no such game."""

    async def with_status(self, status: str) -> list[Stored]:
        """Every game of this status (the time-keeper's sweep of live games)."""

    async def save(self, old: Stored, new: Row, outbox: Sequence[OutboxItem] = ()) -> Stored | None:
        """Write ``new`` if the stored row is still ``old``, and the ``outbox`` rows with it
        (both or neither): what is now stored, or None if the row had changed (or is gone).
        Raises ConnectionLost if the outcome is unknown."""

    async def close(self) -> None: ...


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


_TABLE_SQL = _quote(_TABLE.name)
_KEY_SQL = _quote(_COLUMN_OF[KEY].name)
# PostgreSQL's json type has no equality: such columns (the rule options, fixed at creation)
# are written but never compared.
_SET = tuple(f for f in FIELDS if f != KEY)
_COMPARED = tuple(f for f in _SET if f not in _JSON)
_COMPARED_INDEX = tuple(FIELDS.index(f) for f in _COMPARED)

_OUTBOX: Table = OutboxEntry.__table__  # type: ignore[assignment]
_OUTBOX_SQL = _quote(_OUTBOX.name)


def _nothing_changed(outbox: Sequence[OutboxItem]) -> None:
    if outbox:
        raise ValueError("outbox rows come with a change of the game (it ended, say)")


# ---- PostgreSQL: asyncpg -------------------------------------------------------------------


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


_PG_COLUMNS = f"xmin, {', '.join(_quote(_COLUMN_OF[f].name) for f in FIELDS)}"
_PG_SELECT = f"SELECT {_PG_COLUMNS} FROM {_TABLE_SQL} WHERE {_KEY_SQL} = $1"
_PG_WITH_STATUS = (
    f"SELECT {_PG_COLUMNS} FROM {_TABLE_SQL} WHERE {_quote(_COLUMN_OF['status'].name)} = $1"
)
_ATTEMPTS = 3


class PostgresRows:
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
        for i in _JSON_INDEX:
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
                f"{_quote(_COLUMN_OF[FIELDS[i]].name)} = ${n}"
                for n, i in enumerate(changed, start=4)
            )
            ply = _quote(_COLUMN_OF[FIELDS[_PLY_INDEX]].name)
            query = (
                f"UPDATE {_TABLE_SQL} SET {sets} WHERE {_KEY_SQL} = $1 AND xmin = $2::xid "
                f"AND {ply} = $3 RETURNING xmin"
            )
            if outbox:
                n = len(changed) + 4
                query = (
                    f"WITH updated AS ({query}, {_KEY_SQL} AS game_id), "
                    f"written AS (INSERT INTO {_OUTBOX_SQL} "
                    "(game_id, seq, kind, payload, created_ms) "
                    "SELECT updated.game_id, "
                    f"(SELECT coalesce(max(o.seq), 0) FROM {_OUTBOX_SQL} o "
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
            _nothing_changed(outbox)
            return old
        if old.version is None or _KEY_INDEX in changed:
            raise ValueError("a game's id never changes, and a save needs a loaded row")
        args = [
            json.dumps(new[i], separators=(",", ":")) if i in _JSON_INDEX else new[i]
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
                new[_KEY_INDEX],
                old.version,
                before[_PLY_INDEX],
                *args,
            )
        except _lost_connection() as exc:
            log.warning("saving game %s: lost the connection (%s)", new[_KEY_INDEX], exc)
            raise ConnectionLost(str(exc)) from exc
        return None if version is None else Stored(new, version)

    async def close(self) -> None:
        await self._connections.close()


def rows_for(engine: AsyncEngine) -> GameRows:
    """The fastest rows for this engine: asyncpg's own connections on PostgreSQL, sqlite3's
    own on an SQLite file, else SQLAlchemy Core on the engine."""
    url = engine.url
    if engine.dialect.name == "postgresql" and engine.dialect.driver == "asyncpg":
        _args, connect = engine.dialect.create_connect_args(url)
        for option in _SQLALCHEMY_ONLY:
            connect.pop(option, None)
        return PostgresRows(dict(connect))
    if (
        engine.dialect.name == "sqlite"
        and url.database not in (None, "", ":memory:")
        and not url.query
        and SqliteRows.supports_columns()
    ):
        return SqliteRows(str(url.database))
    return CoreRows(engine)


# Options of SQLAlchemy's asyncpg dialect found in a URL that asyncpg itself refuses.
_SQLALCHEMY_ONLY = ("prepared_statement_cache_size", "prepared_statement_name_func")


# ---- SQLite: sqlite3 -------------------------------------------------------------------------
def _same(value: Any) -> Any:
    return value


# How each column's Python value is stored by SQLAlchemy on SQLite, and read back.
_SQLITE_TYPES: dict[type, tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {
    JSON: (
        lambda v: None if v is None else json.dumps(v),
        lambda v: None if v is None else json.loads(v),
    ),
    Boolean: (lambda v: None if v is None else int(v), lambda v: None if v is None else bool(v)),
    String: (_same, _same),
    Integer: (_same, _same),
}


class SqliteRows:
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
            sets = ", ".join(f"{_quote(_COLUMN_OF[FIELDS[i]].name)} = ?" for i in changed)
            where = "".join(f" AND {_quote(_COLUMN_OF[f].name)} IS ?" for f in _COMPARED)
            query = self._updates[changed] = (
                f"UPDATE {_TABLE_SQL} SET {sets} WHERE {_KEY_SQL} = ?{where}"
            )
        return query

    async def save(self, old: Stored, new: Row, outbox: Sequence[OutboxItem] = ()) -> Stored | None:
        before = old.row
        changed = tuple(i for i, value in enumerate(new) if value != before[i])
        if not changed:
            _nothing_changed(outbox)
            return old
        if _KEY_INDEX in changed:
            raise ValueError("a game's id never changes")
        store = self._store
        args = [store[i](new[i]) for i in changed]
        args.append(new[_KEY_INDEX])
        args.extend(store[i](before[i]) for i in _COMPARED_INDEX)
        written: bool = await self._run(
            self._save, self._update(changed), args, new[_KEY_INDEX], tuple(outbox)
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
    column_type = _COLUMN_OF[field].type
    for kind, codec in _SQLITE_TYPES.items():
        if isinstance(column_type, kind):
            return codec
    return None


_SQLITE_SELECT = (
    f"SELECT {', '.join(_quote(_COLUMN_OF[f].name) for f in FIELDS)} FROM {_TABLE_SQL} "
    f"WHERE {_KEY_SQL} = ?"
)
_SQLITE_WITH_STATUS = (
    f"SELECT {', '.join(_quote(_COLUMN_OF[f].name) for f in FIELDS)} FROM {_TABLE_SQL} "
    f"WHERE {_quote(_COLUMN_OF['status'].name)} = ?"
)
_SQLITE_LAST_SEQ = f"SELECT coalesce(max(seq), 0) FROM {_OUTBOX_SQL} WHERE game_id = ?"
_SQLITE_OUTBOX_INSERT = (
    f"INSERT INTO {_OUTBOX_SQL} (game_id, seq, kind, payload, created_ms) VALUES (?, ?, ?, ?, ?)"
)


# ---- any database: SQLAlchemy Core ---------------------------------------------------------
_CORE_SELECT = select(*(_COLUMN_OF[f] for f in FIELDS)).where(_COLUMN_OF[KEY] == bindparam("key"))
_CORE_WITH_STATUS = select(*(_COLUMN_OF[f] for f in FIELDS)).where(
    _COLUMN_OF["status"] == bindparam("status")
)
_CORE_UPDATE = (
    _TABLE.update()
    .where(
        _COLUMN_OF[KEY] == bindparam("key"),
        *(_COLUMN_OF[f].is_not_distinct_from(bindparam(f"old_{f}")) for f in _COMPARED),
    )
    .values({_COLUMN_OF[f].name: bindparam(f"new_{f}") for f in _SET})
)
_CORE_LAST_SEQ = select(func.coalesce(func.max(_OUTBOX.c.seq), 0)).where(
    _OUTBOX.c.game_id == bindparam("key")
)


class CoreRows:
    """Rows through SQLAlchemy Core on the app's engine (SQLite; works on any database).
    The version check compares every column with the row read."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def load(self, game_id: str) -> Stored | None:
        async with self._engine.connect() as conn:
            found = (await conn.execute(_CORE_SELECT, {"key": game_id})).first()
        return None if found is None else Stored(tuple(found))

    async def with_status(self, status: str) -> list[Stored]:
        async with self._engine.connect() as conn:
            found = await conn.execute(_CORE_WITH_STATUS, {"status": status})
            return [Stored(tuple(r)) for r in found]

    async def save(self, old: Stored, new: Row, outbox: Sequence[OutboxItem] = ()) -> Stored | None:
        if new == old.row:
            _nothing_changed(outbox)
            return old
        values = dict(zip(FIELDS, new, strict=True))
        before = dict(zip(FIELDS, old.row, strict=True))
        if values[KEY] != before[KEY]:
            raise ValueError("a game's id never changes")
        params = {"key": values[KEY]}
        params.update({f"new_{f}": values[f] for f in _SET})
        params.update({f"old_{f}": before[f] for f in _COMPARED})
        async with self._engine.begin() as conn:
            result = await conn.execute(_CORE_UPDATE, params)
            if result.rowcount != 1:
                return None
            if outbox:
                last = (await conn.execute(_CORE_LAST_SEQ, {"key": values[KEY]})).scalar_one()
                await conn.execute(
                    _OUTBOX.insert(),
                    [
                        {
                            "game_id": values[KEY],
                            "seq": last + n,
                            "kind": item.kind,
                            "payload": json.loads(item.payload),
                            "created_ms": item.created_ms,
                        }
                        for n, item in enumerate(outbox, start=1)
                    ],
                )
        return Stored(new)

    async def close(self) -> None:
        return None
