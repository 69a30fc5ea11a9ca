"""Swiss tournaments: a fixed number of rounds, everyone present paired each round
(app/tournaments/swisspairing.py). A round starts at the event's start, then once every game
of the previous one has ended (the outbox consumed it: app/tournaments/swissresults.py) plus
the round interval, or when its creator schedules it. A round's games, pairings and bye are
inserted in one transaction that moves the event's round on only from the one it read: two
instances (or two ticks) never start one round twice. Players may join until the last round
starts (the rounds before are absences) and withdraw (not paired again until they rejoin)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.errors import ServiceError
from app.core.time import Clock, every
from app.db.models import Game, Player
from app.domain.players import Identity
from app.games.newgames import started_game
from app.games.service import GameService
from app.games.terms import GameTerms
from app.games.timecontrol import TimeControl
from app.ratings.reading import read_at_start
from app.tournaments.entry import admitted_rating, check_password
from app.tournaments.swissform import SwissForm, new_swiss, not_found
from app.tournaments.swisspairing import pair_round
from app.tournaments.swissstandings import Joined, Played, Standing, entrants, standings
from app.tournaments.tables import Swiss, SwissPairing, SwissPlayer

log = logging.getLogger(__name__)

CREATED, STARTED, FINISHED = "created", "started", "finished"


@dataclass(frozen=True)
class SwissState:
    swiss: Swiss
    standings: list[Standing]
    pairings: list[SwissPairing]


async def read_state(session: AsyncSession, swiss: Swiss) -> SwissState:
    players = list(
        (
            await session.execute(
                select(SwissPlayer, func.coalesce(Player.username, Player.name))
                .join(Player, Player.id == SwissPlayer.player_id)
                .where(SwissPlayer.swiss_id == swiss.id)
            )
        ).all()
    )
    pairings = list(
        (
            await session.execute(
                select(SwissPairing)
                .where(SwissPairing.swiss_id == swiss.id)
                .order_by(SwissPairing.round, SwissPairing.board)
            )
        ).scalars()
    )
    joined = [
        Joined(p.player_id, str(name), p.rating, p.joined_round, p.withdrawn) for p, name in players
    ]
    played = [
        Played(p.round, p.board, p.first_id, p.second_id, p.status, p.winner) for p in pairings
    ]
    return SwissState(swiss, standings(joined, played, swiss.round), pairings)


class SwissTournaments:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        games: GameService,
        clock: Clock,
        *,
        tick_seconds: float = 2.0,
    ) -> None:
        self.sessions = sessions
        self.games = games
        self.clock = clock
        self.now = clock.now_ms
        self.tick_seconds = tick_seconds
        self._ticker: asyncio.Task[None] | None = None
        self._rounds: dict[str, asyncio.Lock] = {}

    async def create(self, who: Identity, form: SwissForm) -> Swiss:
        swiss = new_swiss(who.id, form, self.now())
        async with self.sessions() as session, session.begin():
            session.add(swiss)
        return await self.get(swiss.id)

    async def get(self, swiss_id: str) -> Swiss:
        async with self.sessions() as session:
            found = await session.get(Swiss, swiss_id)
        if found is None:
            raise not_found()
        return found

    async def find(self, swiss_id: str) -> Swiss | None:
        async with self.sessions() as session:
            return await session.get(Swiss, swiss_id)

    async def state(self, swiss_id: str) -> SwissState:
        async with self.sessions() as session:
            swiss = await session.get(Swiss, swiss_id)
            if swiss is None:
                raise not_found()
            return await read_state(session, swiss)

    async def current(self) -> dict[str, list[tuple[Swiss, int]]]:
        """The Swiss events upcoming (soonest first), running, and the last finished (latest
        first), each with its number of players."""
        s = Swiss
        queries = {
            "created": select(s).where(s.status == CREATED).order_by(s.starts_ms, s.id).limit(50),
            "started": select(s).where(s.status == STARTED).order_by(s.starts_ms, s.id).limit(50),
            "finished": select(s)
            .where(s.status == FINISHED)
            .order_by(s.finished_ms.desc(), s.id)
            .limit(20),
        }
        async with self.sessions() as session:
            found = {k: list((await session.execute(q)).scalars()) for k, q in queries.items()}
            ids = [row.id for rows in found.values() for row in rows]
            counted = await session.execute(
                select(SwissPlayer.swiss_id, func.count())
                .where(SwissPlayer.swiss_id.in_(ids))
                .group_by(SwissPlayer.swiss_id)
            )
            counts: dict[str, int] = {str(k): int(n) for k, n in counted.all()}
        return {k: [(row, counts.get(row.id, 0)) for row in rows] for k, rows in found.items()}

    async def next_up(self) -> tuple[Swiss, int] | None:
        """The next public Swiss to start, or one running (for the lobby's line)."""
        lists = await self.current()
        public = [pair for pair in lists["created"] + lists["started"] if not pair[0].password_hash]
        return next(iter(public), None)

    async def game_ids(self, swiss_id: str) -> list[str]:
        state = await self.state(swiss_id)
        return [p.game_id for p in state.pairings if p.game_id is not None]

    async def join(self, swiss_id: str, who: Identity, password: str | None = None) -> None:
        """Join (or rejoin after withdrawing) until the last round starts: accounts only,
        the password of a private event, a rating within its limits."""
        swiss = await self.get(swiss_id)
        if swiss.status == FINISHED or swiss.round >= swiss.nb_rounds:
            raise ServiceError("swiss.finished", "no round of this tournament is left", 409)
        check_password(swiss.password_hash, password, "swiss")
        async with self.sessions() as session, session.begin():
            mine = await session.get(SwissPlayer, (swiss_id, who.id))
            if mine is not None:
                mine.withdrawn = False
                return
            rating = await admitted_rating(
                session,
                swiss.variant,
                who.id,
                (swiss.min_rating, swiss.max_rating),
                "swiss",
                self.now(),
            )
            session.add(
                SwissPlayer(
                    swiss_id=swiss_id,
                    player_id=who.id,
                    rating=rating,
                    joined_ms=self.now(),
                    joined_round=swiss.round,
                    withdrawn=False,
                )
            )

    async def withdraw(self, swiss_id: str, who: Identity) -> None:
        """Leave before the start; once started, not paired again (a game on goes on)."""
        swiss = await self.get(swiss_id)
        p = SwissPlayer
        mine = (p.swiss_id == swiss_id, p.player_id == who.id)
        async with self.sessions() as session, session.begin():
            if swiss.status == CREATED:
                await session.execute(delete(p).where(*mine))
            else:
                await session.execute(update(p).where(*mine).values(withdrawn=True))

    async def _mine(self, swiss_id: str, who: Identity) -> Swiss:
        swiss = await self.get(swiss_id)
        if swiss.created_by != who.id:
            raise ServiceError("swiss.not_yours", "only its creator does this", 403)
        if swiss.status == FINISHED:
            raise ServiceError("swiss.finished", "this tournament is over", 409)
        return swiss

    async def terminate(self, swiss_id: str, who: Identity) -> None:
        """End it now: no more rounds (the games on still count when they end)."""
        await self._mine(swiss_id, who)
        async with self.sessions() as session, session.begin():
            await session.execute(
                update(Swiss)
                .where(Swiss.id == swiss_id, Swiss.status != FINISHED)
                .values(status=FINISHED, finished_ms=self.now(), next_round_ms=None)
            )

    async def schedule_next_round(self, swiss_id: str, who: Identity, at_ms: int) -> None:
        """The creator's time for the next round (it still waits for the games on)."""
        swiss = await self._mine(swiss_id, who)
        if swiss.round >= swiss.nb_rounds:
            raise ServiceError("swiss.finished", "no round of this tournament is left", 409)
        async with self.sessions() as session, session.begin():
            await session.execute(
                update(Swiss)
                .where(Swiss.id == swiss_id, Swiss.round == swiss.round)
                .values(next_round_ms=max(at_ms, self.now()))
            )
        await self.tick()

    # ---- the clock: rounds -------------------------------------------------------------------
    async def tick(self) -> None:
        now = self.now()
        async with self.sessions() as session:
            due = list(
                (
                    await session.execute(
                        select(Swiss.id).where(
                            Swiss.status.in_([CREATED, STARTED]), Swiss.next_round_ms <= now
                        )
                    )
                ).scalars()
            )
        for swiss_id in due:
            await self.next_round(swiss_id)

    async def next_round(self, swiss_id: str) -> int | None:
        """Start the next round if it is due and the last one is over: its number."""
        lock = self._rounds.setdefault(swiss_id, asyncio.Lock())
        async with lock:
            started = await self._start_round(swiss_id)
        if started is None:
            return None
        number, made = started
        for game, events in made:
            try:
                async with self.games.changes.outside(game.id) as tell:
                    await tell(game, events)
            except Exception:
                log.exception("could not tell the start of swiss game %s", game.id)
        return number

    async def _finish(self, session: AsyncSession, swiss: Swiss) -> None:
        await session.execute(
            update(Swiss)
            .where(Swiss.id == swiss.id, Swiss.round == swiss.round, Swiss.status != FINISHED)
            .values(status=FINISHED, finished_ms=self.now(), next_round_ms=None)
        )

    async def _start_round(self, swiss_id: str) -> tuple[int, list[tuple[Game, Any]]] | None:
        now = self.now()
        async with self.sessions() as session, session.begin():
            swiss = await session.get(Swiss, swiss_id)
            if swiss is None or swiss.status == FINISHED:
                return None
            if swiss.next_round_ms is None or swiss.next_round_ms > now:
                return None
            on = await session.execute(
                select(func.count()).where(
                    SwissPairing.swiss_id == swiss_id,
                    SwissPairing.round == swiss.round,
                    SwissPairing.status == STARTED,
                )
            )
            if on.scalar_one():
                return None  # a game of the round is still on
            state = await read_state(session, swiss)
            present = entrants(
                state.standings,
                [
                    Played(p.round, p.board, p.first_id, p.second_id, p.status, p.winner)
                    for p in state.pairings
                ],
            )
            if swiss.round >= swiss.nb_rounds or len(present) < 2:
                await self._finish(session, swiss)
                return None
            # pure, and at worst a search of many steps: off the event loop
            plan = await asyncio.to_thread(pair_round, present)
            number = swiss.round + 1
            moved = await session.execute(
                update(Swiss)
                .where(Swiss.id == swiss_id, Swiss.round == swiss.round, Swiss.status != FINISHED)
                .values(round=number, status=STARTED, next_round_ms=None)
                .execution_options(synchronize_session=False)
            )
            if moved.rowcount != 1:  # type: ignore[attr-defined]
                return None  # another instance started it
            terms = GameTerms(
                swiss.variant,
                dict(swiss.rules),
                TimeControl(swiss.clock_limit_s * 1000, swiss.clock_increment_s * 1000),
                rated=swiss.rated,
            )
            ids = [pid for pair in plan.pairs for pid in pair]
            rows = await session.execute(select(Player.id, Player.name).where(Player.id.in_(ids)))
            names: dict[str, str] = {str(pid): str(name) for pid, name in rows.all()}
            ratings = await read_at_start(session, swiss.variant, ids, now)
            made = []
            columns = [c.key for c in Game.__table__.columns]
            for board, (first_id, second_id) in enumerate(plan.pairs, start=1):
                first, second = (
                    Identity(first_id, names[first_id]),
                    Identity(second_id, names[second_id]),
                )
                mine = {k: v for k, v in ratings.items() if k in (first_id, second_id)}
                game, events = started_game(
                    secrets.token_urlsafe(6), first, second, first, now, ratings=mine, terms=terms
                )
                await session.execute(insert(Game), [{c: vars(game).get(c) for c in columns}])
                session.add(
                    SwissPairing(
                        swiss_id=swiss_id,
                        round=number,
                        board=board,
                        game_id=game.id,
                        first_id=first_id,
                        second_id=second_id,
                        status=STARTED,
                    )
                )
                made.append((game, list(events)))
            if plan.bye is not None:
                session.add(
                    SwissPairing(
                        swiss_id=swiss_id,
                        round=number,
                        board=0,
                        first_id=plan.bye,
                        status=FINISHED,
                        finished_ms=now,
                    )
                )
        self.games.reads.remember_names(names)
        return number, made

    async def consumed(self, event: Any) -> None:
        """After the outbox consumed a game's end: a Swiss whose round it ended may start
        the next one now (an interval of 0)."""
        async with self.sessions() as session:
            swiss_id = (
                await session.execute(
                    select(SwissPairing.swiss_id).where(SwissPairing.game_id == event.game_id)
                )
            ).scalar_one_or_none()
        if swiss_id is not None:
            await self.next_round(swiss_id)

    async def start(self) -> None:
        self._ticker = asyncio.get_running_loop().create_task(
            every(self.clock, self.tick_seconds, self.tick, log, "the swiss rounds failed")
        )

    async def stop(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
            self._ticker = None
