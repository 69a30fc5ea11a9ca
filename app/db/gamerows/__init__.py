"""Game rows for the move pipeline: one row read by id, one conditional UPDATE to write it.

A save applies only if the stored row is still the very one the change was computed from
(not only the same ``ply``: a resignation or a draw offer moves no ply). So a copy kept in
memory can never overwrite a change made elsewhere (another instance, another process): the
save matches no row, says so, and the caller reloads and runs the change again.

One store per backend, the fastest the engine allows (``rows_for``): PostgreSQL through
asyncpg on connections of its own (postgres.py), an SQLite file through sqlite3 on a thread
of its own (sqlite.py), anything else through SQLAlchemy Core on the app's engine (core.py).
What they share (the row's shape, ``Stored``, the ``GameRows`` protocol, ``RowCache``, the
write in a caller's transaction) is base.py.

A save may carry outbox rows (the change's durable events, app/domain/durable.py): they are
written only if the UPDATE matched, and commit with it or not at all. Each row's ``seq`` is
the next of its game: the conditional UPDATE lets one writer at a time through for a game,
so the ``max(seq)`` it reads is the latest.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.gamerows.base import (
    FIELDS,
    ConnectionLost,
    GameRecord,
    GameRows,
    Row,
    RowCache,
    Stored,
    snapshot,
    to_record,
)
from app.db.gamerows.core import CoreRows
from app.db.gamerows.postgres import PostgresRows
from app.db.gamerows.sqlite import SqliteRows
from app.db.models import GameRow

__all__ = [
    "FIELDS",
    "ConnectionLost",
    "CoreRows",
    "GameRecord",
    "GameRows",
    "PostgresRows",
    "Row",
    "RowCache",
    "SqliteRows",
    "Stored",
    "rows_for",
    "snapshot",
    "to_game",
    "to_record",
]


def to_game(row: Row) -> GameRow:
    """``to_record``, as the ``GameRow`` the code that reads and changes games is given."""
    return to_record(row)


# Options of SQLAlchemy's asyncpg dialect found in a URL that asyncpg itself refuses.
_SQLALCHEMY_ONLY = ("prepared_statement_cache_size", "prepared_statement_name_func")


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
