"""Shared fixtures: a real PostgreSQL server for the session (tests/postgres.py), and
databases at the head revision copied from templates migrated once per session
(tests/templates.py)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.postgres import TempPostgres
from tests.templates import SqliteTemplate, make_postgres_template

_names = itertools.count()


@pytest.fixture(scope="session")
def postgres() -> Iterator[TempPostgres]:
    pg = TempPostgres()
    pg.start()
    try:
        yield pg
    finally:
        pg.stop()


@pytest.fixture(scope="session")
def postgres_template(postgres: TempPostgres) -> str:
    """The name of the session's PostgreSQL template: migrated to head once, then sealed."""
    return make_postgres_template(postgres)


@pytest.fixture
def postgres_url(postgres: TempPostgres, postgres_template: str) -> str:
    """A fresh database at the head revision on the session's server: a template copy."""
    return postgres.create_database(f"test_{next(_names)}", template=postgres_template)


@pytest.fixture
def empty_postgres_url(postgres: TempPostgres) -> str:
    """A fresh, empty database on the session's server: for tests of the migrations."""
    return postgres.create_database(f"empty_{next(_names)}")


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> SqliteTemplate:
    """The session's SQLite template: a file migrated to head once."""
    return SqliteTemplate.make(tmp_path_factory.mktemp("sqlite-template"))


@pytest.fixture
def sqlite_url(sqlite_template: SqliteTemplate, tmp_path: Path) -> str:
    """A fresh SQLite database at the head revision: tmp_path/kodama.sqlite3, a template copy."""
    return sqlite_template.copy_to(tmp_path)
