"""What every game row store shares: a row's shape (its columns in ``FIELDS`` order), the
stored row and its version (``Stored``), the protocol of a store (``GameRows``), the cache of
the rows this process last saw (``RowCache``), and the conditional UPDATE a store runs in a
caller's own transaction (``SessionWrite.save_in``: a rematch's accept, written with the
insert of the new game).
"""

from __future__ import annotations

import json
import operator
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import JSON, Table, bindparam, func, select
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from app.db.models import Game, GameRow, OutboxEntry
from app.domain.durable import OutboxItem

# A game row: its column values in FIELDS order.
Row = tuple[Any, ...]

_MAPPER = sa_inspect(Game)
TABLE: Table = Game.__table__  # type: ignore[assignment]
FIELDS: tuple[str, ...] = tuple(attr.key for attr in _MAPPER.column_attrs)
COLUMN_OF = {attr.key: attr.columns[0] for attr in _MAPPER.column_attrs}
KEY = "id"
JSON_FIELDS = frozenset(f for f in FIELDS if isinstance(COLUMN_OF[f].type, JSON))
JSON_INDEX = tuple(FIELDS.index(f) for f in sorted(JSON_FIELDS))
KEY_INDEX = FIELDS.index(KEY)
PLY_INDEX = FIELDS.index("ply")
_snapshot: Callable[[dict[str, Any]], Row] = operator.itemgetter(*FIELDS)

# PostgreSQL's json type has no equality: such columns (the rule options, fixed at creation)
# are written but never compared.
SET = tuple(f for f in FIELDS if f != KEY)
COMPARED = tuple(f for f in SET if f not in JSON_FIELDS)
COMPARED_INDEX = tuple(FIELDS.index(f) for f in COMPARED)

OUTBOX: Table = OutboxEntry.__table__  # type: ignore[assignment]


def quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


TABLE_SQL = quote(TABLE.name)
KEY_SQL = quote(COLUMN_OF[KEY].name)
OUTBOX_SQL = quote(OUTBOX.name)


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
    added to a session (the pipeline writes rows itself). Its attributes are ``GameRow``'s,
    declared without values: no class attribute, no descriptor, the values live in the
    instance's ``__dict__`` (``to_record`` fills it in one update, ``snapshot`` reads it in one
    itemgetter)."""

    id: str
    variant: str
    rules: dict[str, Any]
    public: bool
    status: str
    creator_id: str
    creator_color: str
    first_id: str | None
    second_id: str | None
    invite_token: str
    moves: str
    ply: int
    fen: str
    initial_fen: str | None
    clock_initial_ms: int | None
    clock_increment_ms: int | None
    first_ms: int | None
    second_ms: int | None
    turn_started_ms: int | None
    clock_byoyomi_ms: int | None
    clock_periods: int | None
    first_periods: int | None
    second_periods: int | None
    days: int | None
    draw_offer: str | None
    takeback_offer: str | None
    rated: bool
    first_rating: int | None
    first_provisional: bool | None
    second_rating: int | None
    second_provisional: bool | None
    winner: str | None
    reason: str | None
    created_ms: int
    started_ms: int | None
    finished_ms: int | None
    seek_away_ms: int | None
    rating_min: int | None
    rating_max: int | None
    rematch_offer: str | None
    rematch_id: str | None

    def __repr__(self) -> str:
        return f"GameRecord(id={self.__dict__.get(KEY)!r}, ply={self.__dict__.get('ply')!r})"


def to_record(row: Row) -> GameRecord:
    """A new game record holding this row (its dicts copied: the row stays as it was)."""
    record = GameRecord()
    values = dict(zip(FIELDS, row, strict=True))
    for field in JSON_FIELDS:
        values[field] = _copy(values[field])
    record.__dict__.update(values)
    return record


def _copy(value: Any) -> Any:
    """A deep copy of a JSON value (a game's rule options: a flat dict of strings)."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def snapshot(game: GameRow) -> Row:
    """The row a (possibly changed) game record or ``Game`` stands for."""
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

    async def save_in(self, session: AsyncSession, old: Stored, new: Row) -> bool:
        """Write ``new`` if the stored row is still ``old``, in the caller's transaction
        (committed or rolled back with it): whether it was. The stored version changes: the
        caller drops the row from its cache."""

    async def close(self) -> None: ...


def nothing_changed(outbox: Sequence[OutboxItem]) -> None:
    if outbox:
        raise ValueError("outbox rows come with a change of the game (it ended, say)")


# ---- SQLAlchemy Core: any database, on a caller's connection or session ----------------------
CORE_SELECT = select(*(COLUMN_OF[f] for f in FIELDS)).where(COLUMN_OF[KEY] == bindparam("key"))
CORE_WITH_STATUS = select(*(COLUMN_OF[f] for f in FIELDS)).where(
    COLUMN_OF["status"] == bindparam("status")
)
# Sets every column where every compared one still holds what was read.
_CORE_UPDATE = (
    TABLE.update()
    .where(
        COLUMN_OF[KEY] == bindparam("key"),
        *(COLUMN_OF[f].is_not_distinct_from(bindparam(f"old_{f}")) for f in COMPARED),
    )
    .values({COLUMN_OF[f].name: bindparam(f"new_{f}") for f in SET})
)
_CORE_LAST_SEQ = select(func.coalesce(func.max(OUTBOX.c.seq), 0)).where(
    OUTBOX.c.game_id == bindparam("key")
)


async def core_save(
    conn: AsyncConnection | AsyncSession,
    old: Stored,
    new: Row,
    outbox: Sequence[OutboxItem] = (),
) -> bool:
    """The conditional UPDATE (and the outbox rows if it matched) on ``conn``, in its
    transaction: whether it matched. The version check compares every column with the row
    read."""
    values = dict(zip(FIELDS, new, strict=True))
    before = dict(zip(FIELDS, old.row, strict=True))
    if values[KEY] != before[KEY]:
        raise ValueError("a game's id never changes")
    params = {"key": values[KEY]}
    params.update({f"new_{f}": values[f] for f in SET})
    params.update({f"old_{f}": before[f] for f in COMPARED})
    result = await conn.execute(_CORE_UPDATE, params)
    if result.rowcount != 1:  # type: ignore[attr-defined]
        return False
    if outbox:
        last = (await conn.execute(_CORE_LAST_SEQ, {"key": values[KEY]})).scalar_one()
        await conn.execute(
            OUTBOX.insert(),
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
    return True


class SessionWrite:
    """``GameRows.save_in`` for every store: SQLAlchemy Core on the caller's session, whatever
    the store's own connections (their database is the session's)."""

    async def save_in(self, session: AsyncSession, old: Stored, new: Row) -> bool:
        if new == old.row:
            return True
        return await core_save(session, old, new)
