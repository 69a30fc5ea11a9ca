"""Migrated databases made once per test session and copied for each test.

Running every migration for each test took most of a database test's time; a copy of a
database migrated once costs a file copy (SQLite) or a ``CREATE DATABASE … TEMPLATE``
(PostgreSQL). Tests of the migrations themselves start from an empty database instead
(``empty_postgres_url``, or a fresh SQLite file).
"""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from tests.postgres import TempPostgres

POSTGRES_TEMPLATE = "kodama_template"
SQLITE_FILE = "kodama.sqlite3"  # the name the app gives it in its data folder


def head_revision() -> str:
    """The newest migration's revision: where every template stands."""
    from alembic.config import Config  # noqa: PLC0415 - the engine's tests need no alembic
    from alembic.script import ScriptDirectory  # noqa: PLC0415

    from app.__main__ import MIGRATIONS  # noqa: PLC0415

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


def file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


@dataclass(frozen=True)
class SqliteTemplate:
    """An SQLite file at the head revision, its -wal folded in, never opened again."""

    path: Path
    digest: str  # the file's SHA-256 when made: a test checks nothing changed it since

    @classmethod
    def make(cls, folder: Path) -> SqliteTemplate:
        from app.__main__ import migrate  # noqa: PLC0415

        path = folder / SQLITE_FILE
        migrate(sqlite_url(path))
        # The migration's engine put the file in WAL mode (app/db/engine.py); its last connection
        # closing should have folded the -wal file in, but a copy of the main file alone is
        # only whole if nothing is left there: checkpoint, and check.
        conn = sqlite3.connect(path)
        try:
            busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        finally:
            conn.close()
        leftovers = [p.name for p in folder.iterdir() if p.name != SQLITE_FILE]
        if busy or leftovers:
            raise RuntimeError(f"the SQLite template is still in use: {busy=}, {leftovers=}")
        return cls(path, file_digest(path))

    def copy_to(self, folder: Path) -> str:
        """A copy at ``folder``/kodama.sqlite3 (where the app looks by default): its URL."""
        target = folder / SQLITE_FILE
        shutil.copyfile(self.path, target)
        return sqlite_url(target)


def make_postgres_template(postgres: TempPostgres) -> str:
    """A database migrated to head that nobody can connect to any more: its name."""
    from app.__main__ import migrate  # noqa: PLC0415

    migrate(postgres.create_database(POSTGRES_TEMPLATE))
    # migrate() disposed of its engine: no connection is left, so sealing cannot fail
    # on a session still open (and none can be opened afterwards).
    postgres.seal_template(POSTGRES_TEMPLATE)
    return POSTGRES_TEMPLATE
