"""Each test's database is a copy of a template migrated once per session (tests/templates.py):
the copies are independent of one another, and the templates stay at the head revision,
untouched by what the tests write."""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
from pathlib import Path

import asyncpg
import pytest
import sqlalchemy as sa

from app.db.engine import make_engine
from tests.postgres import TempPostgres, asyncpg_url
from tests.templates import SqliteTemplate, file_digest, head_revision

_checks = itertools.count()
# The URL each run of the test below was given, per backend: no two runs share one.
_seen: dict[str, list[str]] = {}


async def _contents(url: str) -> tuple[str, dict[str, int]]:
    """The database's revision, and how many rows each of its tables holds."""
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            names = await conn.run_sync(lambda sync: sa.inspect(sync).get_table_names())
            counts = {
                name: (await conn.execute(sa.text(f'SELECT count(*) FROM "{name}"'))).scalar_one()
                for name in names
            }
            revision = await conn.execute(sa.text("SELECT version_num FROM alembic_version"))
            return revision.scalar_one(), counts
    finally:
        await engine.dispose()


async def _write_a_player(url: str) -> None:
    engine = make_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.execute(
                sa.text("INSERT INTO players (id, name, created_ms) VALUES (:id, :name, 0)"),
                {"id": "template-check", "name": "Written by a test"},
            )
    finally:
        await engine.dispose()


def _assert_fresh(url: str) -> None:
    revision, counts = asyncio.run(_contents(url))
    assert revision == head_revision()
    assert counts.pop("alembic_version") == 1
    assert {"players", "games", "challenges"} <= set(counts)
    assert counts == dict.fromkeys(counts, 0), "a fresh database holds no row"


@pytest.mark.parametrize("run", [1, 2])
def test_every_test_gets_a_fresh_database_at_head_whatever_the_last_one_wrote(
    database_url: str, run: int
) -> None:
    # Run 2 starts after run 1 wrote a player: it finds none in its own database.
    backend = database_url.split(":", 1)[0]
    assert database_url not in _seen.setdefault(backend, [])
    _seen[backend].append(database_url)
    _assert_fresh(database_url)
    asyncio.run(_write_a_player(database_url))
    assert asyncio.run(_contents(database_url))[1]["players"] == 1


def test_the_sqlite_template_stays_at_head_untouched(
    sqlite_template: SqliteTemplate, sqlite_url: str, tmp_path: Path
) -> None:
    asyncio.run(_write_a_player(sqlite_url))
    assert Path(sqlite_url.split("///", 1)[1]).parent == tmp_path  # the copy, not the template
    assert file_digest(sqlite_template.path) == sqlite_template.digest
    # Nothing opened it since its checkpoint: no write-ahead log or shared memory beside it.
    assert [p.name for p in sqlite_template.path.parent.iterdir()] == [sqlite_template.path.name]
    # immutable=1: read without locking or creating a -wal file beside it.
    template = sqlite3.connect(f"file:{sqlite_template.path}?immutable=1", uri=True)
    try:
        assert template.execute("SELECT version_num FROM alembic_version").fetchall() == [
            (head_revision(),)
        ]
        assert template.execute("SELECT count(*) FROM players").fetchone() == (0,)
    finally:
        template.close()
    again = tmp_path / "again"
    again.mkdir()
    _assert_fresh(sqlite_template.copy_to(again))


def test_the_postgres_template_stays_at_head_sealed_and_untouched(
    postgres: TempPostgres, postgres_template: str, postgres_url: str
) -> None:
    asyncio.run(_write_a_player(postgres_url))
    flags = "SELECT datistemplate, datallowconn FROM pg_database WHERE datname = '{}'"
    assert postgres.admin().fetch(flags.format(postgres_template)) == [(True, False)]
    # Sealed: nobody can connect, so nobody can change it or hold a copy up.
    with pytest.raises(asyncpg.PostgresError, match="is not currently accepting connections"):
        asyncio.run(asyncpg.connect(asyncpg_url(postgres.url(postgres_template))))
    copy = postgres.create_database(f"check_{next(_checks)}", template=postgres_template)
    _assert_fresh(copy)
