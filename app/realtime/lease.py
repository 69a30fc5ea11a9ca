"""One holder per database for work that must run once however many instances start (the
built-in bots): a PostgreSQL advisory lock held by a connection of its own.

``pg_try_advisory_lock`` is taken on a dedicated connection and held as long as that connection
lives: an instance that stops, or is killed (``kill -9``), loses its connection and PostgreSQL
releases the lock at once. The others try again every ``retry_s`` and one of them takes over.
The holder checks its connection as often, and gives the work up when it is lost (a PostgreSQL
restart: another instance may hold the lock by now). With SQLite there is one instance:
``SoleHolder`` always holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Protocol

log = logging.getLogger(__name__)

BUILTIN_BOTS_LOCK = 0x6B6F64616D61_01  # "kodama" + 1: the built-in bots' lock id


class Lease(Protocol):
    async def acquire(self) -> None:
        """Wait until this instance holds the lease."""

    async def lost(self) -> None:
        """Wait until the lease held is lost."""

    async def release(self) -> None: ...


class SoleHolder:
    """The lease of a single instance (SQLite): always held."""

    async def acquire(self) -> None:
        return None

    async def lost(self) -> None:
        await asyncio.Event().wait()  # never

    async def release(self) -> None:
        return None


class AdvisoryLease:
    def __init__(self, dsn: str, key: int, retry_s: float = 5.0) -> None:
        self.dsn = dsn
        self.key = key
        self.retry_s = retry_s
        self._conn: Any = None

    @property
    def held(self) -> bool:
        return self._conn is not None and not self._conn.is_closed()

    async def try_acquire(self) -> bool:
        """One attempt: True if this instance holds the lease now."""
        import asyncpg  # noqa: PLC0415 - only needed with PostgreSQL

        if self.held:
            return True
        conn = await asyncpg.connect(self.dsn)
        try:
            got = bool(await conn.fetchval("SELECT pg_try_advisory_lock($1)", self.key))
        except BaseException:
            await _close(conn)
            raise
        if not got:
            await _close(conn)
            return False
        self._conn = conn
        return True

    async def acquire(self) -> None:
        while True:
            try:
                if await self.try_acquire():
                    return
            except Exception as exc:  # the database is down: try again later
                log.warning("could not try the lease %#x (%s)", self.key, exc)
            await asyncio.sleep(self.retry_s)

    async def lost(self) -> None:
        while True:
            await asyncio.sleep(self.retry_s)
            conn = self._conn
            if conn is None:
                return
            try:
                await asyncio.wait_for(conn.fetchval("SELECT 1"), self.retry_s)
            except Exception as exc:  # closed, broken, or not answering: not held any more
                log.warning("lost the lease %#x (%s)", self.key, exc)
                self._conn = None
                await _close(conn)
                return

    async def release(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            await _close(conn)  # the lock goes with its connection


async def _close(conn: Any) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(conn.close(), 5)
