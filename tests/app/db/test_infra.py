"""Settings, migrations and the event hub, against the real databases."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, inspect

from app.__main__ import migrate
from app.core.config import Settings
from app.db.engine import make_engine
from app.db.models import Base
from app.realtime.hub import QUEUE_SIZE, RESYNC, LocalHub, PostgresHub, asyncpg_dsn

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def test_database_url_unset_means_an_sqlite_file_in_the_data_dir(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("KODAMA_DATABASE_URL", raising=False)
    settings = Settings(data_dir=tmp_path)
    assert settings.is_sqlite
    assert settings.resolved_database_url == f"sqlite+aiosqlite:///{tmp_path / 'kodama.sqlite3'}"


def test_database_url_comes_from_the_environment(monkeypatch):
    url = "postgresql+asyncpg://kodama:secret@db:5432/kodama"
    monkeypatch.setenv("DATABASE_URL", url)
    settings = Settings()
    assert settings.resolved_database_url == url
    assert not settings.is_sqlite
    assert asyncpg_dsn(url) == "postgresql://kodama:secret@db:5432/kodama"


def test_the_generated_secret_key_is_kept_across_restarts(tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    first = Settings(data_dir=tmp_path).resolved_secret_key()
    assert len(first) >= 32
    assert Settings(data_dir=tmp_path).resolved_secret_key() == first
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0


def _diff(connection: Connection) -> list[object]:
    context = MigrationContext.configure(connection)
    return list(compare_metadata(context, Base.metadata))


@pytest.mark.anyio
async def test_migrations_build_exactly_the_models(database_url):
    # database_url is already migrated to head by the fixture.
    engine = make_engine(database_url)
    try:
        async with engine.connect() as conn:
            assert await conn.run_sync(_diff) == []
            tables = await conn.run_sync(lambda c: set(inspect(c).get_table_names()))
        assert {"players", "games", "alembic_version"} <= tables
    finally:
        await engine.dispose()


def test_migrating_twice_is_harmless(database_url):
    migrate(database_url)


def test_the_app_never_creates_tables_itself():
    for path in (ROOT / "app").rglob("*.py"):
        assert "create_all" not in path.read_text(encoding="utf-8"), path


class TextCodec:
    """The hub's messages in these tests are plain texts."""

    @staticmethod
    def encode(message: object) -> dict[str, Any]:
        return {"text": message}

    @staticmethod
    def decode(value: dict[str, Any]) -> object:
        return value["text"]


def text_hub(url: str) -> PostgresHub:
    return PostgresHub(asyncpg_dsn(url), TextCodec())


@pytest.mark.anyio
async def test_a_slow_subscriber_is_told_to_resync_instead_of_blocking_others():
    hub = LocalHub()
    async with hub.subscribe("c") as slow, hub.subscribe("c") as fast:
        for i in range(QUEUE_SIZE + 10):
            await hub.publish("c", json.dumps({"n": i}))
            assert json.loads(str(await fast.get())) == {"n": i}
        assert await slow.get() == RESYNC
        await hub.publish("c", '{"n":"after"}')
        assert await slow.get() == '{"n":"after"}'


@pytest.mark.anyio
async def test_events_cross_instances_through_postgres_notify(postgres_url):
    one, two = (
        text_hub(postgres_url),
        text_hub(postgres_url),
    )
    await one.start()
    await two.start()
    try:
        async with one.subscribe("game:x") as on_one, two.subscribe("game:x") as on_two:
            await one.publish("game:x", '{"type":"move","ply":1}')
            got_two = await asyncio.wait_for(on_two.get(), 10)
            got_one = await asyncio.wait_for(on_one.get(), 10)
            assert got_two == got_one == '{"type":"move","ply":1}'
            await one.publish("game:x", '{"type":"move","ply":2}')
            assert await asyncio.wait_for(on_one.get(), 10) == '{"type":"move","ply":2}'
            assert await asyncio.wait_for(on_two.get(), 10) == '{"type":"move","ply":2}'
            # Its own notification is not delivered twice: one from the other instance, sent
            # after it, is the next message (notifications arrive in the order sent).
            await two.publish("game:x", '{"type":"marker"}')
            assert await asyncio.wait_for(on_one.get(), 10) == '{"type":"marker"}'
            assert await asyncio.wait_for(on_two.get(), 10) == '{"type":"marker"}'
            big = json.dumps({"type": "state", "blob": "x" * 10_000})
            await two.publish("game:x", big)
            assert await asyncio.wait_for(on_two.get(), 10) == big  # local: as is
            assert await asyncio.wait_for(on_one.get(), 10) == RESYNC  # remote: too big
    finally:
        await one.stop()
        await two.stop()


async def _terminate_and_see(postgres_url: str, *conns: Any) -> None:
    """End these asyncpg connections from the server's side, and return once each of them
    has seen it (its termination listeners ran)."""
    lost = [asyncio.Event() for _ in conns]
    for conn, event in zip(conns, lost, strict=True):
        conn.add_termination_listener(lambda _conn, event=event: event.set())
    await _terminate(postgres_url, *(conn.get_server_pid() for conn in conns))
    async with asyncio.timeout(20):
        for event in lost:
            await event.wait()


async def _terminate(postgres_url: str, *pids: int) -> None:
    import asyncpg  # noqa: PLC0415

    admin = await asyncpg.connect(asyncpg_dsn(postgres_url))
    try:
        await admin.execute("SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid", pids)
    finally:
        await admin.close()


async def _receive(sub, expected: str, seconds: float = 20) -> None:
    """Wait until ``expected`` arrives on ``sub`` (a RESYNC may come before it)."""
    async with asyncio.timeout(seconds):
        while (got := await sub.get()) != expected:
            assert got == RESYNC, got


@pytest.mark.anyio
async def test_the_postgres_hub_listens_again_after_losing_its_connection(postgres_url):
    one, two = (
        text_hub(postgres_url),
        text_hub(postgres_url),
    )
    await one.start()
    await two.start()
    try:
        async with one.subscribe("game:y") as on_one, two.subscribe("lobby") as lobby_two:
            lost = one._listener
            await _terminate(postgres_url, lost.get_server_pid())
            # Once it listens again, its subscribers are told they may have missed messages...
            assert await asyncio.wait_for(on_one.get(), 20) == RESYNC
            assert one._listener is not None and one._listener is not lost
            # ...and messages from other instances arrive again.
            await two.publish("game:y", '{"type":"move","ply":3}')
            await _receive(on_one, '{"type":"move","ply":3}')
            assert lobby_two.queue.empty()  # the other instance lost nothing
    finally:
        await one.stop()
        await two.stop()


@pytest.mark.anyio
async def test_the_postgres_hub_notifies_again_after_losing_its_connection(postgres_url):
    one, two = (
        text_hub(postgres_url),
        text_hub(postgres_url),
    )
    await one.start()
    await two.start()
    try:
        async with two.subscribe("game:z") as on_two, two.subscribe("game:w") as other_two:
            await _terminate_and_see(postgres_url, one._sender)  # gone before anything is sent
            await one.publish("game:z", '{"type":"move","ply":1}')
            await one.publish("game:z", '{"type":"move","ply":2}')
            # What could not be sent reaches the other instance as one resync a channel...
            assert await asyncio.wait_for(on_two.get(), 20) == RESYNC
            # ...then messages flow as before, on a new connection.
            await one.publish("game:z", '{"type":"move","ply":3}')
            assert await asyncio.wait_for(on_two.get(), 20) == '{"type":"move","ply":3}'
            assert other_two.queue.empty()  # no other channel is disturbed
            assert on_two.queue.empty()
    finally:
        await one.stop()
        await two.stop()


@pytest.mark.anyio
async def test_the_postgres_hub_stops_cleanly_while_reconnecting(postgres_url):
    hub = text_hub(postgres_url)
    await hub.start()
    hub._dsn = "postgresql://nobody@127.0.0.1:1/none"  # no server will ever answer
    await _terminate_and_see(postgres_url, hub._listener, hub._sender)
    await hub.publish("game:v", '{"type":"move","ply":1}')
    async with asyncio.timeout(10):
        while not hub._outbox.empty():  # the sender took it: it fails, then reconnects
            await asyncio.sleep(0)
    await asyncio.wait_for(hub.stop(), 10)
