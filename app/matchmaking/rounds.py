"""A pairing round of every quick-pairing pool as ONE transaction (the why is in service.py):
on PostgreSQL it first takes every pool's advisory lock in one statement, reads the waiting
entries of the pools it holds as plain rows, pairs each pool (pairing.py), marks each pair's
two entries with their new game (one UPDATE, only where no game is set yet, returning the
entries it changed) and inserts every game with one INSERT, started with both players seated.
"""

from __future__ import annotations

import asyncio
import dataclasses
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
    func,
    insert,
    literal,
    or_,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import InstrumentedAttribute

from app.core.time import Clock
from app.db.models import Game, Player, PoolEntry
from app.domain.enums import GameStatus
from app.domain.events import GameEvent
from app.domain.players import Identity
from app.games import GameService
from app.games.newgames import started_game
from app.games.terms import GameTerms
from app.games.timecontrol import TimeControl
from app.matchmaking.pairing import Seeker, pair
from app.matchmaking.pools import Pool, all_pools, pools_by_id
from app.ratings.reading import read_at_start
from app.relations import blocks

POOLS_LOCK = 0x6B6F6461  # "koda": the pools' advisory locks are (POOLS_LOCK, pool index)
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


class PairingRound:
    """Pairs every pool in one transaction: the games made, inserted, not yet told."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        games: GameService,
        clock: Clock,
        *,
        is_postgres: bool,
        expire_ms: int,
    ) -> None:
        self.sessions = sessions
        self.games = games
        self.clock = clock
        self.is_postgres = is_postgres
        self.expire_ms = expire_ms
        self._lock = asyncio.Lock()  # SQLite: one instance, one round at a time

    async def pair_all(self) -> list[Made]:
        """The round's one transaction over every pool: pair, mark the entries, insert the
        games."""
        if self.is_postgres:
            return await self._transaction()
        async with self._lock:
            return await self._transaction()

    async def _transaction(self) -> list[Made]:
        async with self.sessions() as session, session.begin():
            every = all_pools()
            pools: Sequence[Pool] = every
            if self.is_postgres:
                # Every pool's lock in one statement; a pool another instance is pairing
                # right now is skipped this round (that one pairs it).
                locks = select(
                    *(func.pg_try_advisory_xact_lock(POOLS_LOCK, i) for i in range(len(every)))
                )
                held = (await session.execute(locks)).one()
                pools = [pool for pool, mine in zip(every, held, strict=True) if mine]
                if not pools:
                    return []
            return await self._pair_in(session, pools)

    async def _pair_in(self, session: AsyncSession, pools: Sequence[Pool]) -> list[Made]:
        now = self.clock.now_ms()
        e = ENTRIES.c
        query = select(
            e.pool, e.id, e.player_id, e.rating, e.joined_ms, e.rated, e.range_low, e.range_high
        ).where(e.game_id.is_(None), e.seen_ms >= now - self.expire_ms)
        if len(pools) < len(all_pools()):
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
        # Who of those who could be paired blocks whom: such two are never paired.
        apart = await blocks.among(
            session, [s.player_id for found in waiting.values() if len(found) > 1 for s in found]
        )
        pairs = {p: pair(seekers, now, apart) for p, seekers in waiting.items() if len(seekers) > 1}
        # Only the players about to be paired are looked up (a quiet round asks nothing).
        playing = await self._playing(session, _players(pairs))
        for pool_id, found in pairs.items():
            if any(s.player_id in playing for ab in found for s in ab):
                seekers = [s for s in waiting[pool_id] if s.player_id not in playing]
                pairs[pool_id] = pair(seekers, now, apart)
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
                unmark = update(ENTRIES).where(self.among(e.id, loose)).values(game_id=None)
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

    def among(
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
        query = select(Player.id, Player.name).where(self.among(Player.id, ids))
        names: dict[str, str] = dict((await session.execute(query)).all())
        self.games.reads.remember_names(names)  # telling the games reads no name
        by_variant: dict[str, list[str]] = {}
        table = pools_by_id()
        for pool_id, found in pairs.items():
            by_variant.setdefault(table[pool_id].variant, []).extend(_players({pool_id: found}))
        ratings = {
            variant: await read_at_start(session, variant, players, now)
            for variant, players in by_variant.items()
        }
        made: list[Made] = []
        for pool_id, found in pairs.items():
            pool = table[pool_id]
            known = ratings[pool.variant]
            # The pool's terms, once for all its games (rated when both players' searches are).
            unrated = GameTerms(
                pool.variant, pool.rules, TimeControl(pool.clock_ms, pool.increment_ms)
            )
            terms = {False: unrated, True: dataclasses.replace(unrated, rated=True)}
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
                    terms=terms[a.rated and b.rated],
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
            or_(self.among(Game.first_id, player_ids), self.among(Game.second_id, player_ids)),
        )
        found = (await session.execute(query)).all()
        return {p for row in found for p in row if p is not None} & set(player_ids)


def _players(pairs: dict[str, list[tuple[Seeker, Seeker]]]) -> list[str]:
    return [s.player_id for found in pairs.values() for ab in found for s in ab]
