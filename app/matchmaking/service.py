"""Quick pairing in the database: the pools' entries, and the pairing rounds.

The pool lives in the ``pool_entries`` table, so every instance on one PostgreSQL sees every
player waiting. Each instance runs a round per pool every ``round_seconds`` (on the injected
clock); a round is ONE transaction: on PostgreSQL it first takes the pool's advisory lock
(``pg_try_advisory_xact_lock``: a pool busy elsewhere is skipped, its holder does the work)
and reads the entries ``FOR UPDATE SKIP LOCKED``; it pairs them (pairing.py), marks each pair's
two entries with their new game (one UPDATE that must change exactly the entries paired) and
inserts every game, started with both players seated. So a player is never paired twice: an
entry is paired by the transaction that changed it, and nothing else can change it meanwhile
(SQLite: one instance, a lock in the process).

An entry is held by a socket or a board seek on one instance (holder.py), which renews
``seen_ms`` every ``beat_seconds``; one not renewed for ``expire_seconds`` (its instance died)
is never paired, and is deleted by the next sweep of any instance.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import case, delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..core.time import Clock
from ..domain.enums import GameStatus
from ..domain.events import GameEvent
from ..domain.players import Identity
from ..models import Game, Player, PlayerRating, PoolEntry
from ..ratings.reading import read_at_start
from ..ratings.service import as_of
from ..realtime.hub import LocalHub
from ..services.errors import ServiceError
from ..services.games import GameService
from ..services.timecontrol import TimeControl
from ..services.updates import PoolChanged, pool_channel
from .pairing import Seeker, pair
from .pools import BY_ID, POOLS, Pool

log = logging.getLogger(__name__)

POOLS_LOCK = 0x6B6F6461  # "koda": the pools' advisory locks are (POOLS_LOCK, pool index)
CASUAL_RATING = 1500.0  # an anonymous player's place in rating order


@dataclass(frozen=True, slots=True)
class Made:
    """A game a round made, with its events to tell once committed."""

    game: Game
    events: list[GameEvent]
    players: tuple[str, str]


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
        self._locks = {pool.id: asyncio.Lock() for pool in POOLS}  # SQLite: one instance
        self._tasks: list[asyncio.Task[None]] = []

    # ---- entries -------------------------------------------------------------------------
    async def join(
        self,
        who: Identity,
        pool_id: str,
        *,
        rated: bool | None = None,
        rating_range: tuple[int, int] | None = None,
    ) -> str:
        """Put the player in the pool (out of any other: one pool at a time); the entry's
        id. ``rated``: None for the player's kind (an account's search is rated, an
        anonymous player's casual)."""
        pool = BY_ID.get(pool_id)
        if pool is None:
            raise ServiceError("pool.unknown", f"no pool {pool_id!r} (GET /api/pools lists them)")
        await self.games.ensure_player(who)
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
            id=secrets.token_urlsafe(9),
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
        """Players waiting per pool (every pool listed)."""
        cutoff = self.clock.now_ms() - self.expire_ms
        query = (
            select(PoolEntry.pool, func.count())
            .where(PoolEntry.game_id.is_(None), PoolEntry.seen_ms >= cutoff)
            .group_by(PoolEntry.pool)
        )
        async with self.sessions() as session:
            found = {pool: int(n) for pool, n in (await session.execute(query)).all()}
        return {pool.id: found.get(pool.id, 0) for pool in POOLS}

    async def beat(self) -> None:
        """Renew the entries held here; delete those nobody renewed (their instance died)."""
        now = self.clock.now_ms()
        async with self.sessions() as session, session.begin():
            await session.execute(
                update(PoolEntry).where(PoolEntry.instance == self.instance).values(seen_ms=now)
            )
            await session.execute(delete(PoolEntry).where(PoolEntry.seen_ms < now - self.expire_ms))

    # ---- rounds --------------------------------------------------------------------------
    async def round(self) -> list[str]:
        """One round of every pool; the ids of the games made."""
        made: list[str] = []
        for pool in POOLS:
            made += await self.round_of(pool)
        return made

    async def round_of(self, pool: Pool) -> list[str]:
        made = await self.pair_pool(pool)
        await self.tell(made)
        return [m.game.id for m in made]

    async def pair_pool(self, pool: Pool) -> list[Made]:
        """The round's one transaction: pair, mark the entries, insert the games."""
        if self.is_postgres:
            return await self._transaction(pool)
        async with self._locks[pool.id]:
            return await self._transaction(pool)

    async def _transaction(self, pool: Pool) -> list[Made]:
        async with self.sessions() as session, session.begin():
            if self.is_postgres:
                locked = select(func.pg_try_advisory_xact_lock(POOLS_LOCK, POOLS.index(pool)))
                if not await session.scalar(locked):
                    return []  # another instance is pairing this pool right now
            return await self._pair_in(session, pool)

    async def _pair_in(self, session: AsyncSession, pool: Pool) -> list[Made]:
        now = self.clock.now_ms()
        rows = (
            await session.execute(
                select(PoolEntry, Player.name)
                .join(Player, Player.id == PoolEntry.player_id)
                .where(
                    PoolEntry.pool == pool.id,
                    PoolEntry.game_id.is_(None),
                    PoolEntry.seen_ms >= now - self.expire_ms,
                )
                .with_for_update(skip_locked=True, of=PoolEntry)
            )
        ).all()
        if len(rows) < 2:
            return []
        names = {entry.player_id: name for entry, name in rows}
        seekers = [
            Seeker(
                entry_id=entry.id,
                player_id=entry.player_id,
                rating=entry.rating,
                joined_ms=entry.joined_ms,
                rated=entry.rated,
                rating_range=(
                    None
                    if entry.range_low is None or entry.range_high is None
                    else (entry.range_low, entry.range_high)
                ),
            )
            for entry, _ in rows
        ]
        pairs = pair(seekers, now)
        # Only the players about to be paired are looked up (a quiet round asks nothing).
        playing = await self._playing(session, [s.player_id for ab in pairs for s in ab])
        if playing:
            seekers = [s for s in seekers if s.player_id not in playing]
            pairs = pair(seekers, now)
        made: list[Made] = []
        marks: dict[str, str] = {}
        paired = [s.player_id for ab in pairs for s in ab]
        ratings = await read_at_start(session, pool.variant, paired, now)
        for a, b in pairs:
            first, second = (a, b) if secrets.randbelow(2) else (b, a)
            players = (
                Identity(first.player_id, names[first.player_id]),
                Identity(second.player_id, names[second.player_id]),
            )
            game, events = self.games.started_game(
                secrets.token_urlsafe(6),
                *players,
                players[0],
                ratings=ratings,
                variant=pool.variant,
                rules=pool.rules,
                control=TimeControl(pool.clock_ms, pool.increment_ms),
                rated=a.rated and b.rated,
            )
            made.append(Made(game, events, (first.player_id, second.player_id)))
            marks[a.entry_id] = marks[b.entry_id] = game.id
        if not made:
            return []
        marked = await session.execute(
            update(PoolEntry)
            .where(PoolEntry.id.in_(list(marks)), PoolEntry.game_id.is_(None))
            .values(game_id=case(marks, value=PoolEntry.id))
        )
        if marked.rowcount != len(marks):  # type: ignore[attr-defined]
            # Only if something changed the entries despite the locks: pair nobody.
            raise RuntimeError(f"pool {pool.id}: {marked.rowcount} entries of {len(marks)} marked")  # type: ignore[attr-defined]
        session.add_all([m.game for m in made])
        return made

    async def _playing(self, session: AsyncSession, player_ids: Sequence[str]) -> set[str]:
        """Which of these players play a game with a clock now: they are not paired until
        it ends (nobody plays two real-time games at once from the pools)."""
        if not player_ids:
            return set()
        query = select(Game.first_id, Game.second_id).where(
            Game.status == GameStatus.STARTED,
            Game.clock_initial_ms.is_not(None),
            or_(Game.first_id.in_(player_ids), Game.second_id.in_(player_ids)),
        )
        found = (await session.execute(query)).all()
        return {p for row in found for p in row if p is not None} & set(player_ids)

    async def tell(self, made: Sequence[Made]) -> None:
        """After the round committed: each game's events (both players' pages and streams
        hear ``gameStart``), and each entry's holder is told its entry changed."""
        for m in made:
            try:
                await self.games.tell_inserted(m.game.id, m.events)
            except Exception:
                log.exception("could not tell the start of pool game %s", m.game.id)
            for player_id in m.players:
                await self.hub.publish(pool_channel(player_id), PoolChanged(player_id))

    # ---- the loops -----------------------------------------------------------------------
    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._rounds()), loop.create_task(self._beats())]

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

    async def _rounds(self) -> None:
        while True:
            await self.clock.sleep(self.round_seconds)
            for pool in POOLS:
                try:
                    await self.round_of(pool)
                except Exception:  # the next round tries again
                    log.exception("the pairing round of pool %s failed", pool.id)

    async def _beats(self) -> None:
        while True:
            await self.clock.sleep(self.beat_seconds)
            try:
                await self.beat()
            except Exception:
                log.exception("the pools' heartbeat failed")
