"""Setting games up: a player's row, a game created (waiting for its opponent) or created
started (an accepted challenge, a rematch), a seat taken, a game withdrawn before it starts."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable

from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.config import Settings
from app.core.errors import ServiceError
from app.db.models import Game, GameRow, Player
from app.domain.events import GameCreated, GameEvent, SeatTaken
from app.domain.players import Identity
from app.games import queries
from app.games.changes import Changes
from app.games.newgames import (
    NewGame,
    new_game,
    rated_needs_account,
    started_game,
    too_many_open,
)
from app.games.reads import GameReads
from app.games.terms import GameTerms
from app.games.transitions import Transitions
from app.ratings.reading import at_start
from app.relations import blocks
from engine import Side

# Run in the transaction that inserts a started game (an accepted challenge flips its
# status there): False rolls the insert back, so a game exists exactly when it was claimed.
Claim = Callable[[AsyncSession], Awaitable[bool]]


class _Unclaimed(Exception):
    """The claim of a game's insert said no."""


class GameSetup:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        settings: Settings,
        reads: GameReads,
        changes: Changes,
        transitions: Transitions,
        clock_ms: Callable[[], int],
        *,
        is_postgres: bool,
    ) -> None:
        self.sessions = sessions
        self.settings = settings
        self.reads = reads
        self.changes = changes
        self.transitions = transitions
        self.now = clock_ms
        self.is_postgres = is_postgres

    async def ensure_player(self, who: Identity) -> None:
        """The player's row, made on first use. A new visitor's first requests come at once:
        a check then an insert raced (a duplicate key, a 500), so the insert is one statement
        that does nothing when the row is already there (``ON CONFLICT DO NOTHING``)."""
        async with self.sessions() as session:
            if await session.get(Player, who.id) is not None:
                return  # the usual case: a read, no write
        insert = postgresql_insert if self.is_postgres else sqlite_insert
        statement = (
            insert(Player)
            .values(id=who.id, name=who.name, created_ms=self.now())
            .on_conflict_do_nothing(index_elements=[Player.id])
        )
        async with self.sessions() as session, session.begin():
            await session.execute(statement)

    async def _insert(
        self, game: Game, events: list[GameEvent], claim: Claim | None = None
    ) -> GameRow | None:
        """Insert the game (None: ``claim`` said no, nothing was written) and tell its
        events."""
        async with self.changes.outside(game.id) as tell:
            try:
                async with self.sessions() as session, session.begin():
                    if claim is not None and not await claim(session):
                        raise _Unclaimed  # rolls the transaction back
                    session.add(game)
            except _Unclaimed:
                return None
            except IntegrityError:
                if game.first_id is None or game.first_id != game.second_id:
                    raise
                # The table's CHECK: one player never holds both seats, whatever seated them.
                raise ServiceError(
                    "game.same_player", "one player cannot take both seats of a game", 409
                ) from None
            stored = await self.reads.get(game.id)  # as stored (the columns' defaults too)
            await tell(stored, events)
            return stored

    async def create(self, who: Identity, new: NewGame) -> GameRow:
        if new.color not in ("first", "second", "random"):
            raise ServiceError(
                "request.invalid", f"color must be first, second or random, not {new.color!r}"
            )
        terms = new.terms
        game = new_game(
            secrets.token_urlsafe(6),  # 8 characters, 48 bits: public, only needs no clash
            who,
            self.now(),
            terms=terms,
            public=new.public,
            color=new.color,
        )
        if new.public:
            waiting = await queries.open_public_count(self.sessions, who.id)
            if waiting >= self.settings.max_open_games:
                raise too_many_open(
                    f"you already have {waiting} open games waiting", self.settings.max_open_games
                )
        await self.ensure_player(who)
        if terms.rated:
            if not await at_start(self.sessions, terms.variant, [who.id], self.now()):
                raise rated_needs_account("only an account can create a rated game")
            game.rated = True
        if new.rating_range is not None:
            if not new.public:
                raise ServiceError(
                    "request.invalid",
                    "a rating range is for a public game (an invite names its opponent)",
                )
            game.rating_min, game.rating_max = new.rating_range
        events: list[GameEvent] = [GameCreated(game.id, 0, who.id, new.public)]
        if new.color != "random":
            events.append(SeatTaken(game.id, 0, Side(new.color), who.id))
        inserted = await self._insert(game, events)
        assert inserted is not None  # no claim: always inserted
        return inserted

    async def create_started(
        self,
        game_id: str,
        first: Identity,
        second: Identity,
        creator: Identity,
        terms: GameTerms,
        *,
        public: bool = True,
        claim: Claim | None = None,
    ) -> GameRow | None:
        """A game whose two players are known (an accepted challenge): both seated and the
        game started at once, under the given id (the challenge's), played by ``terms``.
        With ``claim``, the game is inserted in the same transaction as the claim, and only
        if it succeeds (None otherwise). The terms were checked when they were proposed."""
        await self.ensure_player(first)
        await self.ensure_player(second)
        ratings = await at_start(self.sessions, terms.variant, (first.id, second.id), self.now())
        game, events = started_game(
            game_id, first, second, creator, self.now(), ratings=ratings, terms=terms, public=public
        )
        return await self._insert(game, events, claim)

    async def join(
        self, who: Identity, game_id: str | None = None, token: str | None = None
    ) -> GameRow:
        """Take the free seat: of a public game by id, or of any game by its invite token."""
        if token is not None:
            game_id = await queries.invited(self.sessions, token)
            if game_id is None:
                raise ServiceError("invite.not_found", "this invite link is not valid", 404)
        assert game_id is not None
        await self.ensure_player(who)
        by_invite = token is not None
        # Both players' ratings as the game starts (kept with it), read before the change:
        # also says whether the joiner is an account (a rated game's seat is an account's).
        game = await self.reads.get(game_id)
        if who.id != game.creator_id:
            async with self.sessions() as session:
                if await blocks.between(session, who.id, game.creator_id):
                    raise blocks.apart("game.blocked")  # a seek, an open game, an invite
        ratings = await at_start(self.sessions, game.variant, (game.creator_id, who.id), self.now())
        return await self.changes.run(
            game_id,
            lambda g, now: self.transitions.take_seat(
                g, now, who, by_invite=by_invite, ratings=ratings
            ),
        )

    async def cancel(self, who: Identity, game_id: str) -> GameRow:
        return await self.changes.run(game_id, lambda g, now: self.transitions.cancel(g, now, who))
