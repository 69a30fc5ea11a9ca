"""Quick pairing in the database: the pools' entries, and the pairing rounds.

The pool lives in the ``pool_entries`` table, so every instance on one PostgreSQL sees every
player waiting. Each instance whose holders hold an entry runs a round of every pool every
``round_seconds`` (on the injected clock); a round is ONE transaction: on PostgreSQL it
first takes every pool's advisory lock in one statement (``pg_try_advisory_xact_lock``: a
pool busy elsewhere is skipped, its holder does the work), reads the waiting entries of the
pools it holds as plain rows, pairs each pool (pairing.py), marks each pair's two entries
with their new game (one UPDATE, only where no game is set yet, returning the entries it
changed) and inserts every game with one INSERT, started with both players seated. Only the
lock's holder pairs a pool, so a player is never paired twice; an entry deleted between the
read and the mark (its holder left) is simply not marked, and its pair is not made (the
other half waits again). SQLite: one instance, one lock in the process. The round itself is
rounds.py.

An entry is held by a socket or a board seek on one instance (holder.py), which renews
``seen_ms`` every ``beat_seconds``; one not renewed for ``expire_seconds`` (its instance died)
is never paired, and is deleted by the next sweep of any instance.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Sequence

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.errors import ServiceError
from app.core.time import Clock, every
from app.db.models import Player, PlayerRating, PoolEntry
from app.domain.players import Identity
from app.games import GameService
from app.matchmaking.pools import all_pools, pools_by_id
from app.matchmaking.rounds import Made, PairingRound
from app.ratings.service import as_of
from app.realtime.hub import LocalHub
from app.realtime.messages import PoolChanged, pool_channel

log = logging.getLogger(__name__)

CASUAL_RATING = 1500.0  # an anonymous player's place in rating order


class PoolService:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        games: GameService,
        hub: LocalHub,
        clock: Clock,
        *,
        is_postgres: bool,
        round_seconds: float = 1.0,
        beat_seconds: float = 5.0,
        expire_seconds: float = 15.0,
    ) -> None:
        self.sessions = sessions
        self.games = games
        self.hub = hub
        self.clock = clock
        self.is_postgres = is_postgres
        self.instance = secrets.token_hex(8)
        self.round_seconds = round_seconds
        self.beat_seconds = beat_seconds
        self.expire_ms = round(expire_seconds * 1000)
        self.pairing = PairingRound(
            sessions, games, clock, is_postgres=is_postgres, expire_ms=self.expire_ms
        )
        self._tasks: list[asyncio.Task[None]] = []
        # Told the waiting counts whenever they differ from the last ones read (every round
        # period): the lobby pushes them to its sockets.
        self.count_listeners: list[Callable[[dict[str, int]], None]] = []
        self.last_counts: dict[str, int] | None = None
        # The entries a holder on this instance holds (holder.py): the only ones its
        # heartbeat renews.
        self.held: set[str] = set()

    # ---- entries -------------------------------------------------------------------------
    async def join(
        self,
        who: Identity,
        pool_id: str,
        *,
        rated: bool | None = None,
        rating_range: tuple[int, int] | None = None,
        entry_id: str | None = None,
    ) -> str:
        """Put the player in the pool (out of any other: one pool at a time); the entry's
        id (``entry_id``, or a new one). ``rated``: None for the player's kind (an account's
        search is rated, an anonymous player's casual)."""
        pool = pools_by_id().get(pool_id)
        if pool is None:
            raise ServiceError("pool.unknown", f"no pool {pool_id!r} (GET /api/pools lists them)")
        await self.games.setup.ensure_player(who)
        now = self.clock.now_ms()
        async with self.sessions() as session:
            player = await session.get(Player, who.id)
            rating_row = await session.get(PlayerRating, (who.id, pool.variant))
        account = player is not None and player.username is not None
        if rated is None:
            rated = account
        if rated and not account:
            raise ServiceError("pool.rated_anonymous", "rated games need an account: log in")
        rating = as_of(rating_row, now).rating.rating if account else CASUAL_RATING
        entry = PoolEntry(
            id=entry_id or secrets.token_urlsafe(9),
            pool=pool.id,
            player_id=who.id,
            rated=rated,
            rating=rating,
            range_low=None if rating_range is None else rating_range[0],
            range_high=None if rating_range is None else rating_range[1],
            joined_ms=now,
            seen_ms=now,
            instance=self.instance,
        )
        try:
            async with self.sessions() as session, session.begin():
                replaced = await session.execute(
                    delete(PoolEntry).where(
                        PoolEntry.player_id == who.id, PoolEntry.game_id.is_(None)
                    )
                )
                session.add(entry)
        except IntegrityError:
            # The player's entry that is left was paired (a round changed it first): the
            # game is theirs; a new search waits until its holder has seen it.
            raise ServiceError(
                "pool.paired", "you were just paired: your game has started", 409
            ) from None
        if replaced.rowcount:  # type: ignore[attr-defined]
            await self.hub.publish(pool_channel(who.id), PoolChanged(who.id))
        return entry.id

    async def entry(self, entry_id: str) -> PoolEntry | None:
        async with self.sessions() as session:
            return await session.get(PoolEntry, entry_id)

    async def leave(self, entry_id: str) -> None:
        """The holder is done with the entry: out of the pool, or its pairing seen."""
        async with self.sessions() as session, session.begin():
            await session.execute(delete(PoolEntry).where(PoolEntry.id == entry_id))

    async def counts(self) -> dict[str, int]:
        """Players waiting per pool (every pool listed): everyone, as any two searches can be
        paired (pairing.py), so the count is the same for every visitor."""
        cutoff = self.clock.now_ms() - self.expire_ms
        query = (
            select(PoolEntry.pool, func.count())
            .where(PoolEntry.game_id.is_(None), PoolEntry.seen_ms >= cutoff)
            .group_by(PoolEntry.pool)
        )
        async with self.sessions() as session:
            found = {pool: int(n) for pool, n in (await session.execute(query)).all()}
        return {pool.id: found.get(pool.id, 0) for pool in all_pools()}

    async def watch_counts(self) -> None:
        """Read the counts; tell the listeners if they changed. Every instance reads them
        from the shared table, so each one's lobby shows every instance's searches."""
        counts = await self.counts()
        before, self.last_counts = self.last_counts, counts
        if before is None or counts == before:
            return  # (before the first change, pages have what GET /api/pools said)
        for listener in self.count_listeners:
            listener(counts)

    async def beat(self) -> None:
        """Renew the entries held here; delete those nobody renewed (their instance died,
        or their holder is gone)."""
        now = self.clock.now_ms()
        held = list(self.held)
        async with self.sessions() as session, session.begin():
            if held:
                renew = update(PoolEntry).where(self.pairing.among(PoolEntry.id, held))
                await session.execute(renew.values(seen_ms=now))
            await session.execute(delete(PoolEntry).where(PoolEntry.seen_ms < now - self.expire_ms))

    # ---- rounds --------------------------------------------------------------------------
    async def round(self) -> list[str]:
        """One round of every pool; the ids of the games made."""
        made = await self.pairing.pair_all()
        await self.tell(made)
        return [m.game.id for m in made]

    async def periodic_round(self) -> list[str]:
        """The clock's round, run only while a holder here holds an entry. A player waiting
        has a holder on a live instance, whose own rounds pair them (with any entry, wherever
        held): a round here with none held could only pair entries whose holders are gone
        (their instance died), making games nobody waits for."""
        if not self.held:
            return []
        return await self.round()

    async def tell(self, made: Sequence[Made]) -> None:
        """After the round committed: each game's events (both players' pages and streams
        hear ``gameStart``), and each entry's holder is told its entry changed."""
        for m in made:
            try:
                async with self.games.changes.outside(m.game.id) as tell:
                    await tell(m.game, m.events)
            except Exception:
                log.exception("could not tell the start of pool game %s", m.game.id)
            for player_id in m.players:
                await self.hub.publish(pool_channel(player_id), PoolChanged(player_id))

    # ---- the loops -----------------------------------------------------------------------
    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [  # a failed round or beat is logged; the next one tries again
            loop.create_task(
                every(
                    self.clock,
                    self.round_seconds,
                    self.periodic_round,
                    log,
                    "the pairing round failed",
                )
            ),
            loop.create_task(
                every(self.clock, self.beat_seconds, self.beat, log, "the pools' heartbeat failed")
            ),
            loop.create_task(
                every(
                    self.clock,
                    self.round_seconds,
                    self.watch_counts,
                    log,
                    "could not read the pools' counts",
                )
            ),
        ]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []
        with contextlib.suppress(Exception):  # nothing held here is held any more
            async with self.sessions() as session, session.begin():
                await session.execute(
                    delete(PoolEntry).where(
                        PoolEntry.instance == self.instance, PoolEntry.game_id.is_(None)
                    )
                )
