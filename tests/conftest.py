"""Shared fixtures: a real PostgreSQL server for the session (tests/postgres.py)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from tests.postgres import TempPostgres

_names = itertools.count()


@pytest.fixture(scope="session")
def postgres() -> Iterator[TempPostgres]:
    pg = TempPostgres()
    pg.start()
    try:
        yield pg
    finally:
        pg.stop()


@pytest.fixture
def postgres_url(postgres: TempPostgres) -> str:
    """A fresh, empty database on the session's PostgreSQL server."""
    return postgres.create_database(f"test_{next(_names)}")
