"""Statements are compiled once per process, not once per engine (app/db/engine.py,
``CompiledStatements``): a second engine on either backend finds what the first compiled,
and dialects that would compile differently do not share."""

from __future__ import annotations

import asyncio
import uuid

from sqlalchemy import select
from sqlalchemy.dialects.sqlite.aiosqlite import SQLiteDialect_aiosqlite

from app.db.engine import CompiledStatements, make_engine
from app.db.models import Game


def _cache_hits(url: str) -> list[bool]:
    """Whether each of two engines on ``url``, one after the other, found a query already
    compiled; the query is new to the process (a label of its own)."""

    async def run() -> list[bool]:
        query = select(Game.id, Game.ply, Game.id.label(f"probe_{uuid.uuid4().hex}"))
        hits = []
        for _ in range(2):
            engine = make_engine(url)
            try:
                async with engine.connect() as conn:
                    result = await conn.execute(query)
                    context = result.context
                    hits.append(context.cache_hit == context.dialect.CACHE_HIT)
            finally:
                await engine.dispose()
        return hits

    return asyncio.run(run())


def test_a_second_engine_uses_the_statements_the_first_compiled(database_url: str):
    assert _cache_hits(database_url) == [False, True]


def test_dialects_share_only_when_they_would_compile_alike():
    cache = CompiledStatements(capacity=10)
    old, new, other = (
        SQLiteDialect_aiosqlite(),
        SQLiteDialect_aiosqlite(),
        SQLiteDialect_aiosqlite(),
    )
    old.server_version_info = new.server_version_info = (3, 45, 1)
    other.server_version_info = (3, 31, 0)
    cache[(old, "statement", (), False, False)] = "compiled by old"
    assert cache.get((new, "statement", (), False, False)) == "compiled by old"
    assert cache.get((other, "statement", (), False, False)) is None
    pg = make_engine("postgresql+asyncpg://nobody@localhost/nothing").dialect  # not connected
    pg.server_version_info = (3, 45, 1)
    assert cache.get((pg, "statement", (), False, False)) is None
    assert len(cache) == 1


def test_keys_without_a_dialect_are_kept_as_they_are():
    cache = CompiledStatements(capacity=10)
    cache["plain"] = 1
    assert cache["plain"] == 1
    assert list(cache) == ["plain"]
    del cache["plain"]
    assert len(cache) == 0
