"""Shared fixtures: a real PostgreSQL server for the session (tests/postgres.py), and
databases at the head revision copied from templates migrated once per session
(tests/templates.py).

The suite runs on parallel workers (pytest-xdist, ``--dist loadgroup`` in pyproject.toml):
each worker is a session of its own, with its own PostgreSQL cluster and templates. Tests
sharing an expensive fixture wider than one test (a server process for a module, the browser
for tests/browser) are kept on one worker, so that it starts once."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.postgres import TempPostgres
from tests.templates import SqliteTemplate, make_postgres_template

_names = itertools.count()
BROWSER = Path(__file__).resolve().parent / "browser"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        group = _group(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


def _group(item: pytest.Item) -> str | None:
    """The worker group of a test: its module's, if a module-scoped fixture serves it; the
    browser's for tests/browser (a session-scoped server and Chromium); else none."""
    if BROWSER in item.path.parents:
        return "browser"
    info = getattr(item, "_fixtureinfo", None)
    defs = {} if info is None else info.name2fixturedefs
    if any(d.scope == "module" for chain in defs.values() for d in chain):
        return item.nodeid.split("::", 1)[0]
    return None


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
