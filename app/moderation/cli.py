"""The site operator names the moderators: ``python -m app moderators add|remove USERNAME``
and ``python -m app moderators list``, against the configured database (migrated first)."""

from __future__ import annotations

import asyncio
import sys
from typing import TextIO

from sqlalchemy import select

from app.accounts.service import username_key
from app.core.time import SystemClock
from app.db.engine import make_engine, make_sessionmaker
from app.db.models import Player
from app.moderation import storage


def run(action: str, username: str | None, url: str, out: TextIO = sys.stdout) -> int:
    """Do it; the exit status (1: no such account, or a username missing)."""
    return asyncio.run(_run(action, username, url, out))


async def _run(action: str, username: str | None, url: str, out: TextIO) -> int:
    engine = make_engine(url)
    try:
        sessions = make_sessionmaker(engine)
        async with sessions() as session, session.begin():
            if action == "list":
                for name, _added in await storage.moderators(session):
                    print(name, file=out)
                return 0
            if not username:
                print(f"moderators {action}: give a username", file=out)
                return 1
            player = None
            if len(username) <= 20:
                stmt = select(Player).where(Player.username_key == username_key(username))
                player = (await session.execute(stmt)).scalar_one_or_none()
            if player is None or player.username is None:
                print(f"no account {username!r}", file=out)
                return 1
            if action == "add":
                added = await storage.add_moderator(session, player.id, SystemClock().now_ms())
                print(
                    f"{player.username} {'is now' if added else 'was already'} a moderator",
                    file=out,
                )
            else:
                removed = await storage.remove_moderator(session, player.id)
                print(
                    f"{player.username} {'is no longer' if removed else 'was not'} a moderator",
                    file=out,
                )
            return 0
    finally:
        await engine.dispose()
