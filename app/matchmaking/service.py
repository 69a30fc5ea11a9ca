"""Quick pairing in the database: the pools' entries, and the pairing rounds.

The pool lives in the ``pool_entries`` table, so every instance on one PostgreSQL sees every
player waiting. Each instance runs a round of every pool every ``round_seconds`` (on the
injected clock); a round is ONE transaction: on PostgreSQL it first takes every pool's
advisory lock in one statement (``pg_try_advisory_xact_lock``: a pool busy elsewhere is
skipped, its holder does the work), reads the waiting entries of the pools it holds as plain
rows, pairs each pool (pairing.py), marks each pair's two entries with their new game (one
UPDATE, only where no game is set yet, returning the entries it changed) and inserts every
game with one INSERT, started with both players seated. Only the lock's holder pairs a pool,
so a player is never paired twice; an entry deleted between the read and the mark (its
holder left) is simply not marked, and its pair is not made (the other half waits again).
SQLite: one instance, one lock in the process.

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
from typing import Any, cast

from sqlalchemy import (
    ColumnElement,
    String,
    Table,
    Update,
    any_,
    case,
    delete,
    func,
    insert,
    literal,
    or_,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import InstrumentedAttribute

from app.core.errors import ServiceError
from app.core.time import Clock, every
from app.db.models import Game, Player, PlayerRating, PoolEntry
from app.domain.enums import GameStatus
from app.domain.events import GameEvent
from app.domain.players import Identity
from app.games import GameService
from app.games.newgames import started_game
from app.games.timecontrol import TimeControl
from app.matchmaking.pairing import Seeker, pair
from app.matchmaking.pools import BY_ID, POOLS, Pool
from app.ratings.reading import read_at_start
from app.ratings.service import as_of
from app.realtime.hub import LocalHub
from app.realtime.messages import PoolChanged, pool_channel

log = logging.getLogger(__name__)

POOLS_LOCK = 0x6B6F6461  # "koda": the pools' advisory locks are (POOLS_LOCK, pool index)
CASUAL_RATING = 1500.0  # an anonymous player's place in rating order
# A round reads, marks and inserts plain rows: no ORM objects.
ENTRIES = cast(Table, PoolEntry.__table__)
GAMES = cast(Table, Game.__table__)


@dataclass(frozen=True, slots=True)
class Made:
    """A game a round made, with its events to tell once committed."""

    game: Game
    events: list[GameEvent]
    players: tuple[str, str]
    entries: tuple[str, str]  # the two pool entries it pairs


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
        self._lock = asyncio.Lock()  # SQLite: one instance, one round at a time
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
        made = await self.pair_all()
        await self.tell(made)
        return [m.game.id for m in made]

    async def pair_all(self) -> list[Made]:
        """The round's one transaction over every pool: pair, mark the entries, insert the
        games."""
        if self.is_postgres:
            return await self._transaction()
        async with self._lock:
            return await self._transaction()

    async def _transaction(self) -> list[Made]:
        async with self.sessions() as session, session.begin():
            pools: Sequence[Pool] = POOLS
            if self.is_postgres:
                # Every pool's lock in one statement; a pool another instance is pairing
                # right now is skipped this round (that one pairs it).
                locks = select(
                    *(func.pg_try_advisory_xact_lock(POOLS_LOCK, i) for i in range(len(POOLS)))
                )
                held = (await session.execute(locks)).one()
                pools = [pool for pool, mine in zip(POOLS, held, strict=True) if mine]
                if not pools:
                    return []
            return await self._pair_in(session, pools)

    async def _pair_in(self, session: AsyncSession, pools: Sequence[Pool]) -> list[Made]:
        now = self.clock.now_ms()
        e = ENTRIES.c
        query = select(
            e.pool, e.id, e.player_id, e.rating, e.joined_ms, e.rated, e.range_low, e.range_high
        ).where(e.game_id.is_(None), e.seen_ms >= now - self.expire_ms)
        if len(pools) < len(POOLS):
            query = query.where(e.pool.in_([pool.id for pool in pools]))
        waiting: dict[str, list[Seeker]] = {}
        for pool_id, entry_id, player_id, rating, joined, rated, low, high in (
            await session.execute(query)
        ).all():
            waiting.setdefault(pool_id, []).append(
                Seeker(
                    entry_id,
                    player_id,
                    rating,
                    joined,
                    rated,
                    None if low is None or high is None else (low, high),
                )
            )
        pairs = {p: pair(seekers, now) for p, seekers in waiting.items() if len(seekers) > 1}
        # Only the players about to be paired are looked up (a quiet round asks nothing).
        playing = await self._playing(session, _players(pairs))
        for pool_id, found in pairs.items():
            if any(s.player_id in playing for ab in found for s in ab):
                seekers = [s for s in waiting[pool_id] if s.player_id not in playing]
                pairs[pool_id] = pair(seekers, now)
        made = await self._games(session, pairs, now)
        if not made:
            return []
        marks = {entry: m.game.id for m in made for entry in m.entries}
        done = set((await session.execute(self._mark(marks))).scalars())
        if len(done) != len(marks):
            # An entry left (or was replaced) since the read: its pair is not made, and the
            # other half waits again.
            loose = [i for m in made if not set(m.entries) <= done for i in m.entries if i in done]
            if loose:
                unmark = update(ENTRIES).where(self._among(e.id, loose)).values(game_id=None)
                await session.execute(unmark)
            made = [m for m in made if set(m.entries) <= done]
        if made:
            columns = [c.key for c in GAMES.columns]
            # Every column: those started_game left unset are None, as their defaults.
            rows = [{c: vars(m.game).get(c) for c in columns} for m in made]
            await session.execute(insert(GAMES), rows)
        return made

    def _mark(self, marks: dict[str, str]) -> Update:
        """Set each entry's game, only where it has none yet; returns the entries marked."""
        e = ENTRIES.c
        if self.is_postgres:  # two arrays, one statement whatever the number of entries
            pairs = select(
                func.unnest(literal(list(marks), ARRAY(String))).label("entry"),
                func.unnest(literal(list(marks.values()), ARRAY(String))).label("game"),
            ).subquery()
            return (
                update(ENTRIES)
                .where(e.id == pairs.c.entry, e.game_id.is_(None))
                .values(game_id=pairs.c.game)
                .returning(e.id)
            )
        return (
            update(ENTRIES)
            .where(e.id.in_(list(marks)), e.game_id.is_(None))
            .values(game_id=case(marks, value=e.id))
            .returning(e.id)
        )

    def _among(
        self, column: ColumnElement[Any] | InstrumentedAttribute[Any], values: Sequence[str]
    ) -> ColumnElement[bool]:
        """``column IN values``: on PostgreSQL one array parameter (= ANY), not one each."""
        if self.is_postgres:
            return column == any_(literal(list(values), ARRAY(String)))
        return column.in_(values)

    async def _games(
        self, session: AsyncSession, pairs: dict[str, list[tuple[Seeker, Seeker]]], now: int
    ) -> list[Made]:
        """The started games of the pairs (not yet inserted); their players' names and
        ratings are read once for all pools."""
        ids = _players(pairs)
        if not ids:
            return []
        query = select(Player.id, Player.name).where(self._among(Player.id, ids))
        names: dict[str, str] = dict((await session.execute(query)).all())
        self.games.remember_names(names)  # telling the games reads no name
        by_variant: dict[str, list[str]] = {}
        for pool_id, found in pairs.items():
            by_variant.setdefault(BY_ID[pool_id].variant, []).extend(_players({pool_id: found}))
        ratings = {
            variant: await read_at_start(session, variant, players, now)
            for variant, players in by_variant.items()
        }
        made: list[Made] = []
        for pool_id, found in pairs.items():
            pool = BY_ID[pool_id]
            known, rules = ratings[pool.variant], pool.rules
            control = TimeControl(pool.clock_ms, pool.increment_ms)
            for a, b in found:
                first, second = (a, b) if secrets.randbelow(2) else (b, a)
                players = (
                    Identity(first.player_id, names[first.player_id]),
                    Identity(second.player_id, names[second.player_id]),
                )
                game, events = started_game(
                    secrets.token_urlsafe(6),
                    *players,
                    players[0],
                    self.games.now(),
                    ratings={p.id: known[p.id] for p in players if p.id in known},
                    variant=pool.variant,
                    rules=rules,
                    control=control,
                    rated=a.rated and b.rated,
                )
                made.append(Made(game, events, (first.player_id, second.player_id),
                                 (a.entry_id, b.entry_id)))  # fmt: skip
        return made

    async def _playing(self, session: AsyncSession, player_ids: Sequence[str]) -> set[str]:
        """Which of these players play a game with a clock now: they are not paired until
        it ends (nobody plays two real-time games at once from the pools)."""
        if not player_ids:
            return set()
        query = select(Game.first_id, Game.second_id).where(
            Game.status == GameStatus.STARTED,
            Game.clock_initial_ms.is_not(None),
            or_(self._among(Game.first_id, player_ids), self._among(Game.second_id, player_ids)),
        )
        found = (await session.execute(query)).all()
        return {p for row in found for p in row if p is not None} & set(player_ids)

    async def tell(self, made: Sequence[Made]) -> None:
        """After the round committed: each game's events (both players' pages and streams
        hear ``gameStart``), and each entry's holder is told its entry changed."""
        for m in made:
            try:
                await self.games.tell_started(m.game, m.events)
            except Exception:
                log.exception("could not tell the start of pool game %s", m.game.id)
            for player_id in m.players:
                await self.hub.publish(pool_channel(player_id), PoolChanged(player_id))

    # ---- the loops -----------------------------------------------------------------------
    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [  # a failed round or beat is logged; the next one tries again
            loop.create_task(
                every(self.clock, self.round_seconds, self.round, log, "the pairing round failed")
            ),
            loop.create_task(
                every(self.clock, self.beat_seconds, self.beat, log, "the pools' heartbeat failed")
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


def _players(pairs: dict[str, list[tuple[Seeker, Seeker]]]) -> list[str]:
    return [s.player_id for found in pairs.values() for ab in found for s in ab]
