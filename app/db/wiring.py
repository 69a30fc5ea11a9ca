"""The database of an app instance: its engine (pooled connections) and sessions."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.core.config import Settings
from app.core.running import Running
from app.db.engine import make_engine, make_sessionmaker


@dataclass(frozen=True)
class Database:
    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    is_postgres: bool


def wire(settings: Settings, running: Running) -> Database:
    if settings.is_sqlite:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    engine = make_engine(settings.resolved_database_url)
    running.on_stop(engine.dispose)
    return Database(engine, make_sessionmaker(engine), is_postgres=not settings.is_sqlite)
