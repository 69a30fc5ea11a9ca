"""Arena tournaments: made by any account, joined and left at will; started and finished on
the injected clock; every ``wave_seconds`` (and as soon as one of its games is consumed) each
running arena pairs the players who are free (app/tournaments/pairing.py). A wave's games
are inserted in one transaction with their pairings and their players marked as playing
them, only if not marked already: two waves (two instances) never pair one player twice.
Results come from the outbox (app/tournaments/results.py); the standings are computed from
the pairings (app/tournaments/scoring.py, app/tournaments/reading.py)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from typing import Any

from sqlalchemy import case, delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.errors import ServiceError
from app.core.time import Clock, every
from app.db.models import Game, GameRow
from app.domain.enums import GameStatus
from app.domain.players import Identity
from app.games.newgames import started_game
from app.games.service import GameService
from app.games.terms import GameTerms
from app.games.timecontrol import TimeControl
from app.ratings.reading import read_at_start
from app.tournaments import reading
from app.tournaments.entry import admitted_rating, check_password
from app.tournaments.forms import ArenaForm, new_tournament
from app.tournaments.pairing import Waiting, colour_balance, wave
from app.tournaments.schedule import Scheduler
from app.tournaments.tables import Tournament, TournamentPairing, TournamentPlayer
from engine import Side

log = logging.getLogger(__name__)

CREATED, STARTED, FINISHED = "created", "started", "finished"


def not_found() -> ServiceError:
    return ServiceError("tournament.not_found", "no such tournament", 404)


class Tournaments:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        games: GameService,
        clock: Clock,
        *,
        is_postgres: bool,
        wave_seconds: float = 2.0,
    ) -> None:
        self.sessions = sessions
        self.games = games
        self.clock = clock
        self.now = clock.now_ms
        self.is_postgres = is_postgres
        self.wave_seconds = wave_seconds
        self._ticker: asyncio.Task[None] | None = None
        self._waves: dict[str, asyncio.Lock] = {}
        # Per arena, the waves asked since its last one began (many games ending at once):
        # one next wave answers them all, rather than a full read of the arena each.
        self._asked: dict[str, int] = {}
        # The site's own arenas, created ahead (its entries: app/tournaments/wiring.py).
        self.scheduler = Scheduler(sessions, clock, [], is_postgres=is_postgres)
        # Told a game whose clock a berserk changed (its timer is armed again).
        self.berserk_listeners: list[Callable[[GameRow], object]] = []

    # ---- the creator's and the players' actions --------------------------------------------
    async def create(self, who: Identity, form: ArenaForm) -> Tournament:
        tournament = new_tournament(who.id, form, self.now())
        async with self.sessions() as session, session.begin():
            session.add(tournament)
        await self.tick()  # one that starts now starts now
        return await self.get(tournament.id)

    async def get(self, tournament_id: str) -> Tournament:
        async with self.sessions() as session:
            found = await session.get(Tournament, tournament_id)
        if found is None:
            raise not_found()
        return found

    async def find(self, tournament_id: str) -> Tournament | None:
        async with self.sessions() as session:
            return await session.get(Tournament, tournament_id)

    async def current(self) -> dict[str, list[tuple[Tournament, int]]]:
        """lichess's current arenas: upcoming (soonest first), running, and the last
        finished (latest first)."""
        t = Tournament
        queries = {
            "created": select(t).where(t.status == CREATED).order_by(t.starts_ms).limit(50),
            "started": select(t).where(t.status == STARTED).order_by(t.starts_ms).limit(50),
            "finished": select(t)
            .where(t.status == FINISHED)
            .order_by(t.finished_ms.desc())
            .limit(20),
        }
        async with self.sessions() as session:
            found = {k: list((await session.execute(q)).scalars()) for k, q in queries.items()}
            counts = await reading.nb_players(session, [t.id for ts in found.values() for t in ts])
        return {k: [(t, counts.get(t.id, 0)) for t in ts] for k, ts in found.items()}

    async def next_up(self) -> tuple[Tournament, int] | None:
        """The next public arena to start (the lobby's line), or the one running."""
        lists = await self.current()
        for tour, n in lists["created"] + lists["started"]:
            if tour.password_hash is None:
                return tour, n
        return None

    async def game_ids(self, tournament_id: str) -> list[str]:
        await self.get(tournament_id)
        async with self.sessions() as session:
            rows = await session.execute(
                select(TournamentPairing.game_id)
                .where(TournamentPairing.tournament_id == tournament_id)
                .order_by(TournamentPairing.created_ms, TournamentPairing.game_id)
            )
            return list(rows.scalars())

    async def join(self, tournament_id: str, who: Identity, password: str | None) -> None:
        """Join (or come back after a pause): accounts only, the password of a private
        event, a rating within its limits."""
        tour = await self.get(tournament_id)
        if tour.status == FINISHED:
            raise ServiceError("tournament.finished", "this tournament is over", 409)
        check_password(tour.password_hash, password, "tournament")
        async with self.sessions() as session, session.begin():
            mine = await session.get(TournamentPlayer, (tournament_id, who.id))
            if mine is not None:
                mine.withdrawn = False
            else:
                rating = await admitted_rating(
                    session,
                    tour.variant,
                    who.id,
                    (tour.min_rating, tour.max_rating),
                    "tournament",
                    self.now(),
                )
                session.add(
                    TournamentPlayer(
                        tournament_id=tournament_id,
                        player_id=who.id,
                        rating=rating,
                        joined_ms=self.now(),
                        withdrawn=False,
                    )
                )
        if tour.status == STARTED:
            await self.pair(tournament_id)

    async def withdraw(self, tournament_id: str, who: Identity) -> None:
        """Leave an event before it starts; pause (not paired again) once it runs."""
        tour = await self.get(tournament_id)
        async with self.sessions() as session, session.begin():
            p = TournamentPlayer
            mine = (p.tournament_id == tournament_id, p.player_id == who.id)
            if tour.status == CREATED:
                await session.execute(delete(p).where(*mine))
            else:
                await session.execute(update(p).where(*mine).values(withdrawn=True))

    async def terminate(self, tournament_id: str, who: Identity) -> None:
        tour = await self.get(tournament_id)
        if tour.created_by != who.id:
            raise ServiceError("tournament.not_yours", "only its creator ends a tournament", 403)
        if tour.status == FINISHED:
            raise ServiceError("tournament.finished", "this tournament is over", 409)
        await self._finish(tournament_id)

    async def berserk(self, game_id: str, who: Identity) -> None:
        """Halve your own clock before your first move, for a point more if you win."""
        async with self.sessions() as session:
            pairing = await session.get(TournamentPairing, game_id)
            tour = None if pairing is None else await session.get(Tournament, pairing.tournament_id)
        if pairing is None or tour is None or not tour.berserkable:
            raise ServiceError("game.berserk", "this game allows no berserk", 400)
        if who.id not in (pairing.first_id, pairing.second_id) or pairing.status != STARTED:
            raise ServiceError("game.berserk", "you cannot berserk in this game", 400)
        side = Side.FIRST if who.id == pairing.first_id else Side.SECOND

        def halve(game: GameRow, _now: int) -> list[Any]:
            moved = game.ply >= (1 if side == Side.FIRST else 2)
            if moved or game.status != GameStatus.STARTED or game.clock_initial_ms is None:
                raise ServiceError("game.berserk", "berserk is before your first move", 400)
            half = game.clock_initial_ms // 2
            if side == Side.FIRST:
                game.first_ms = min(game.first_ms or half, half)
            else:
                game.second_ms = min(game.second_ms or half, half)
            return []

        game = await self.games.changes.run(game_id, halve)
        column = "first_berserk" if side == Side.FIRST else "second_berserk"
        async with self.sessions() as session, session.begin():
            await session.execute(
                update(TournamentPairing)
                .where(TournamentPairing.game_id == game_id)
                .values({column: True})
            )
        for hook in self.berserk_listeners:
            hook(game)

    # ---- the clock: starts, ends, pairing waves ----------------------------------------------
    async def tick(self) -> None:
        now = self.now()
        async with self.sessions() as session:  # most waves: this one read, no write
            if not await reading.wave_due(session, now):
                return
        async with self.sessions() as session, session.begin():
            await session.execute(
                update(Tournament)
                .where(Tournament.status == CREATED, Tournament.starts_ms <= now)
                .values(status=STARTED)
            )
            ended = (
                await session.execute(
                    select(Tournament.id, Tournament.starts_ms, Tournament.minutes).where(
                        Tournament.status == STARTED
                    )
                )
            ).all()
        for tournament_id, starts, minutes in ended:
            if starts + minutes * 60_000 <= now:
                await self._finish(tournament_id, starts + minutes * 60_000)
            else:
                await self.pair(tournament_id)

    async def _finish(self, tournament_id: str, at_ms: int | None = None) -> None:
        """Over: the games still on do not count (lichess's rule), those that ended before
        count once the outbox consumes them."""
        async with self.sessions() as session, session.begin():
            await session.execute(
                update(Tournament)
                .where(Tournament.id == tournament_id, Tournament.status != FINISHED)
                .values(status=FINISHED, finished_ms=min(at_ms or self.now(), self.now()))
            )
            on = select(Game.id).where(Game.status.in_([GameStatus.CREATED, GameStatus.STARTED]))
            await session.execute(
                update(TournamentPairing)
                .where(
                    TournamentPairing.tournament_id == tournament_id,
                    TournamentPairing.status == STARTED,
                    TournamentPairing.game_id.in_(on),
                )
                .values(status="void")
            )
            await session.execute(
                update(TournamentPlayer)
                .where(TournamentPlayer.tournament_id == tournament_id)
                .values(playing=None)
            )

    async def pair(self, tournament_id: str) -> list[str]:
        """A wave of this arena, coalesced with those asked meanwhile: the games made."""
        lock = self._waves.setdefault(tournament_id, asyncio.Lock())
        self._asked[tournament_id] = self._asked.get(tournament_id, 0) + 1
        async with lock:
            if not self._asked.get(tournament_id):
                return []  # a wave began after this was asked: it saw what this would see
            self._asked[tournament_id] = 0
            made = await self._wave(tournament_id)
        for game, events in made:
            try:
                async with self.games.changes.outside(game.id) as tell:
                    await tell(game, events)
            except Exception:
                log.exception("could not tell the start of arena game %s", game.id)
        return [game.id for game, _ in made]

    async def _wave(self, tournament_id: str) -> list[tuple[Game, list[Any]]]:
        async with self.sessions() as session:
            tour = await session.get(Tournament, tournament_id)
            if tour is None or tour.status != STARTED:
                return []
            state = await reading.state(session, tour)
        active = [p for p in state.players if not p.withdrawn]
        free = {p.player_id for p in active if p.playing is None}
        balance = colour_balance([(g.first_id, g.second_id) for g in state.pairings])
        last: dict[str, str] = {}
        for g in state.pairings:  # oldest first: the last one stays
            last[g.first_id], last[g.second_id] = g.second_id, g.first_id
        waiting = [
            Waiting(s.player_id, last.get(s.player_id), balance.get(s.player_id, 0))
            for s in state.standings
            if s.player_id in free
        ]
        pairs = wave(waiting, len(active))
        terms = GameTerms(
            tour.variant,
            dict(tour.rules),
            TimeControl(tour.clock_limit_s * 1000, tour.clock_increment_s * 1000),
            rated=tour.rated,
        )
        # Only accounts join: their names are their usernames, read with the standings.
        return await self._insert_pairs(tour, terms, pairs, state.names) if pairs else []

    async def _insert_pairs(
        self,
        tour: Tournament,
        terms: GameTerms,
        pairs: list[tuple[str, str]],
        names: dict[str, str],
    ) -> list[tuple[Game, list[Any]]]:
        """The wave's games, pairings and marks in one transaction. The marks: one UPDATE of
        the players not marked yet (no player paired twice), locking rows in the key's order
        (two instances' waves do not deadlock); a pair with one marked meanwhile is left out."""
        ids = [secrets.token_urlsafe(6) for _ in pairs]
        game_of = {pid: game_id for pair, game_id in zip(pairs, ids, strict=True) for pid in pair}
        partner = dict(pairs) | {b: a for a, b in pairs}
        p = TournamentPlayer
        now = self.now()
        async with self.sessions() as session, session.begin():
            ratings = await read_at_start(session, tour.variant, list(game_of), now)
            running = select(Tournament.id).where(
                Tournament.id == tour.id, Tournament.status == STARTED
            )
            await session.execute(
                update(p)
                .where(
                    p.tournament_id.in_(running),
                    p.player_id.in_(list(game_of)),
                    p.playing.is_(None),
                    p.withdrawn.is_(False),
                )
                .values(playing=case(game_of, value=p.player_id))
                .execution_options(synchronize_session=False)
            )
            mine = (p.tournament_id == tour.id, p.playing.in_(set(game_of.values())))
            marked = set((await session.execute(select(p.player_id).where(*mine))).scalars())
            if alone := [pid for pid in marked if partner[pid] not in marked]:
                await session.execute(
                    update(p)
                    .where(*mine, p.player_id.in_(alone))
                    .values(playing=None)
                    .execution_options(synchronize_session=False)
                )
            made = []
            for a, b in pairs:
                if a in marked and b in marked:
                    seats = {pid: ratings[pid] for pid in (a, b) if pid in ratings}
                    first, second = Identity(a, names[a]), Identity(b, names[b])
                    game, events = started_game(
                        game_of[a], first, second, first, now, ratings=seats, terms=terms
                    )
                    made.append((game, list(events)))
            if not made:
                return []
            columns = [c.key for c in Game.__table__.columns]
            await session.execute(
                insert(Game), [{c: vars(game).get(c) for c in columns} for game, _ in made]
            )
            await session.execute(
                insert(TournamentPairing),
                [
                    {"game_id": g.id, "tournament_id": tour.id, "first_id": g.first_id,
                     "second_id": g.second_id, "first_berserk": False, "second_berserk": False,
                     "status": STARTED, "created_ms": now}
                    for g, _ in made
                ],
            )  # fmt: skip
        self.games.reads.remember_names({pid: names[pid] for pid in marked if pid not in alone})
        return made

    async def consumed(self, event: Any) -> None:
        """After the outbox consumed a game's end: if it was an arena's, pair its players
        again now rather than at the next wave."""
        p = TournamentPairing
        async with self.sessions() as session:
            found = await session.execute(select(p.tournament_id).where(p.game_id == event.game_id))
            tournament_id = found.scalar_one_or_none()
        if tournament_id is not None:
            await self.pair(tournament_id)

    async def start(self) -> None:
        await self.scheduler.start()
        self._ticker = asyncio.get_running_loop().create_task(
            every(self.clock, self.wave_seconds, self.tick, log, "the arenas' wave failed")
        )

    async def stop(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
            self._ticker = None
        await self.scheduler.stop()
