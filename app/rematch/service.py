"""Rematches (docs/decisions/rematch.md): after a game ends either player offers one, the
opponent accepts or declines, the maker may withdraw; accepted, a new game with the same
game, rules, clock, public flag and rated-ness, colours swapped, is created in ONE
transaction with the answer.

The changes are transitions of the finished game's row (games/rematching.py). An offer, a
decline and a lapse go through the move pipeline; an accept is written by the transaction
that inserts the new game (its claim: the game rows' conditional UPDATE of the old row,
``save_in``, so that of two accepts racing, on one instance or two, exactly one creates the
game; the new game's id, reserved with the offer, is its primary key besides).

An offer to an account is also a challenge with the new game's id (``rematch_of``): a bot,
or a person on the board API, sees it on ``/api/stream/event`` and answers it as any
challenge (app/challenges/service.py hands such answers here).

An offer lapses when its maker has had no page of the game open for ``rematch_gone_seconds``
(the presence this instance knows, checked on the injected clock every
``rematch_sweep_seconds``), and when a player of the game starts another game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.challenges.service import ChallengeService
from app.challenges.terms import Terms, columns
from app.core.config import Settings
from app.core.errors import ServiceError
from app.core.time import Clock, every
from app.db.gamerows import Stored, snapshot, to_game
from app.db.models import Challenge, Game, GameRow, Player
from app.domain.enums import ChallengeStatus, RematchLapse, Side
from app.domain.events import (
    GameEvent,
    GameStarted,
    RematchAccepted,
    RematchDeclined,
    RematchLapsed,
    RematchOffered,
)
from app.domain.players import Identity
from app.games import GameService
from app.games.pipeline import Change
from app.games.terms import GameTerms
from app.realtime.presence import Presence
from app.rematch import transitions as rematching

log = logging.getLogger(__name__)

ACTIONS = ("offer", "accept", "decline")
COLOR = {Side.FIRST: "white", Side.SECOND: "black"}


@dataclass
class _Watch:
    """A standing offer this instance watches: its maker's seat, and since when (ms) they
    have had no page of the game open (None: they have one)."""

    side: Side
    away_since: int | None = None


class Rematches:
    def __init__(
        self,
        games: GameService,
        challenges: ChallengeService,
        presence: Presence,
        clock: Clock,
        settings: Settings,
        base_url: str,
    ) -> None:
        self.games = games
        self.challenges = challenges
        self.presence = presence
        self.clock = clock
        self.grace_ms = round(settings.rematch_gone_seconds * 1000)
        self.sweep_s = settings.rematch_sweep_seconds
        self.base_url = base_url  # a challenge's links: the last request's address
        self._watched: dict[str, _Watch] = {}
        # player -> the games they started, heard but not yet looked at: their offers in
        # other games lapse.
        self._started: dict[str, set[str]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._runner: asyncio.Task[None] | None = None
        self._lapsing: asyncio.Task[None] | None = None
        challenges.rematches = self

    # ---- the players' answers ----------------------------------------------------------
    async def act(self, who: Identity, game_id: str, action: str, base_url: str) -> None:
        """A page's ``rematch`` message (docs/protocol.md)."""
        self.base_url = base_url
        if action == "offer":
            await self.offer(who, game_id)
        elif action == "accept":
            await self.accept(who, game_id)
        elif action == "decline":
            await self.decline(who, game_id)
        else:
            raise ServiceError(
                "request.invalid",
                f"unknown rematch action {action!r} (actions: {', '.join(ACTIONS)})",
            )

    async def offer(self, who: Identity, game_id: str) -> None:
        """Offer a rematch; the opponent's standing offer is accepted instead."""
        game = await self.games.reads.get(game_id)
        side = rematching.rematch_seat(game, who)
        if game.rematch_offer == side.other:
            await self.accept(who, game_id)
            return
        if game.rematch_offer == side:
            return  # offering again changes nothing
        opponent_id = game.second_id if side == Side.FIRST else game.first_id
        assert opponent_id is not None
        await self.challenges.not_blocked(who.id, opponent_id)  # a block since the game began
        new_id = await self._new_id()
        challenge = await self._challenge(game, new_id, who.id, opponent_id, side.other)
        game = await self.games.changes.run(
            game_id, lambda g, now: rematching.offer(g, now, who, new_id)
        )
        if game.rematch_id != new_id:  # another offer stood by the time ours was written
            if challenge:
                await self._drop_challenge(new_id)
            if game.rematch_offer == side.other:
                await self.accept(who, game_id)
            return
        self._watched[game_id] = _Watch(side)
        if challenge:
            await self.challenges.announce(
                await self.challenges.get(new_id), "challenge", self.base_url
            )

    async def accept(self, who: Identity, game_id: str) -> GameRow:
        """Accept the opponent's offer: the new game, created with the answer."""
        game = await self.games.reads.get(game_id)
        await self.challenges.not_blocked(who.id, game.first_id, game.second_id)
        for _attempt in range(3):
            async with self.games.changes.outside(game_id) as tell:
                stored = await self.games.pipeline.load(game_id)
                game = to_game(stored.row)
                events = rematching.accept(game, self.games.now(), who)
                created = await self._create(game, stored, events)
                if created is not None:
                    await tell(game, events)
                    self._watched.pop(game_id, None)
                    return created
            # The offer changed between the read and the write: read it again (refused then).
        raise ServiceError("game.busy", "the game is changing too fast; try again", 409)

    async def decline(self, who: Identity, game_id: str, reason: str = "generic") -> None:
        """Decline the opponent's offer, or withdraw one's own. ``reason``: a bot's (its
        challenge's decline reason)."""
        await self._settle(game_id, lambda g, now: rematching.decline(g, now, who), reason)

    async def lapse(self, game_id: str, maker: Side, reason: RematchLapse) -> None:
        await self._settle(game_id, lambda g, now: rematching.lapse(g, now, maker, reason))

    async def _settle(self, game_id: str, change: Change, reason: str = "generic") -> None:
        """Run a change that ends an offer, and end its challenge (if any) the same way once
        the change has committed, before the change is told: a page that sees the offer end
        and then reads the challenge finds it ended."""
        reserved: list[str] = []

        def run(game: GameRow, now: int) -> list[GameEvent]:
            reserved[:] = [game.rematch_id or ""]
            return change(game, now)

        async def end_challenge(_game: GameRow, events: Sequence[GameEvent]) -> None:
            self._watched.pop(game_id, None)
            declined = any(isinstance(e, RematchDeclined) for e in events)
            await self.challenges.settle_rematch(
                reserved[0],
                ChallengeStatus.DECLINED if declined else ChallengeStatus.CANCELED,
                self.base_url,
                reason,
            )

        await self.games.changes.run(game_id, run, before_telling=end_challenge)

    # ---- the new game --------------------------------------------------------------------
    async def _create(
        self, game: GameRow, stored: Stored, events: Sequence[GameEvent]
    ) -> GameRow | None:
        """Insert the rematch of ``game`` (read as ``stored``, whose accept made ``events``)
        in the transaction that writes the accept through the game rows (``save_in``); None
        (nothing written) if the row changed meanwhile."""
        accepted = next(e for e in events if isinstance(e, RematchAccepted))
        maker = accepted.by.other
        seats = await self.games.reads.players(game)
        first_seat, second_seat = seats["second"], seats["first"]  # colours swapped
        assert first_seat is not None and second_seat is not None
        first = Identity(first_seat["id"], first_seat["name"])
        second = Identity(second_seat["id"], second_seat["name"])
        creator = second if maker == Side.FIRST else first  # the maker, in their new seat
        now = self.games.now()

        pipeline = self.games.pipeline

        async def claim(session: AsyncSession) -> bool:
            if not await pipeline.rows.save_in(session, stored, snapshot(game)):
                return False
            await session.execute(
                update(Challenge)
                .where(Challenge.id == accepted.game, Challenge.status == ChallengeStatus.CREATED)
                .values(
                    status=ChallengeStatus.ACCEPTED,
                    final_color=COLOR[maker.other],
                    updated_ms=now,
                )
            )
            return True

        try:
            return await self.games.setup.create_started(
                accepted.game,
                first,
                second,
                creator,
                GameTerms.of_game(game),
                public=game.public,
                claim=claim,
            )
        finally:
            # Written or not, the cached row is no longer the stored one: the next change of
            # the game reads it.
            pipeline.cache.drop(game.id)

    async def _new_id(self) -> str:
        """A new game's id that is neither a game's nor a challenge's yet."""
        while True:
            candidate = secrets.token_urlsafe(6)
            async with self.games.sessions() as session:
                if (
                    await session.get(Game, candidate) is None
                    and await session.get(Challenge, candidate) is None
                ):
                    return candidate

    async def _challenge(
        self, game: GameRow, new_id: str, maker_id: str, opponent_id: str, maker_new: Side
    ) -> bool:
        """The offer as a challenge to an opponent who is an account (False: anonymous, no
        challenge). Written before the offer, so that an answer to the offer finds it."""
        async with self.games.sessions() as session:
            opponent = await session.get(Player, opponent_id)
        if opponent is None or opponent.username is None:
            return False
        now = self.games.now()
        terms = Terms(GameTerms.of_game(game), COLOR[maker_new])
        async with self.games.sessions() as session, session.begin():
            session.add(
                Challenge(
                    id=new_id,
                    challenger_id=maker_id,
                    dest_id=opponent_id,
                    **columns(terms),
                    final_color=None,
                    status=ChallengeStatus.CREATED,
                    decline_reason=None,
                    open_white_id=None,
                    open_black_id=None,
                    created_ms=now,
                    updated_ms=now,
                    rematch_of=game.id,
                )
            )
        return True

    async def _drop_challenge(self, challenge_id: str) -> None:
        """The challenge of an offer that was never written (never announced either)."""
        async with self.games.sessions() as session, session.begin():
            await session.execute(
                delete(Challenge).where(
                    Challenge.id == challenge_id, Challenge.status == ChallengeStatus.CREATED
                )
            )

    # ---- lapses ------------------------------------------------------------------------
    def heard(self, game: GameRow, events: Sequence[GameEvent]) -> None:
        """A listener of every committed change here: a started game lapses its players'
        offers; an offer made or ended elsewhere is watched or forgotten."""
        for event in events:
            if isinstance(event, GameStarted):
                for player_id in (event.first_id, event.second_id):
                    self._started.setdefault(player_id, set()).add(game.id)
            elif isinstance(event, RematchOffered) and game.id not in self._watched:
                self._watched[game.id] = _Watch(event.by)
            elif isinstance(event, RematchAccepted | RematchDeclined | RematchLapsed):
                self._watched.pop(game.id, None)
        if self._started and (self._lapsing is None or self._lapsing.done()):
            self._lapsing = asyncio.get_running_loop().create_task(self._lapse_started())
            self._tasks.add(self._lapsing)
            self._lapsing.add_done_callback(self._tasks.discard)

    async def _lapse_started(self) -> None:
        """The offers standing in games of players who started another game: one read for
        all the games started meanwhile (a pairing round starts hundreds). Never an offer in
        the started game itself: on a busy database this read can run late, after that
        game has ended and an offer was made in it."""
        while self._started:
            started, self._started = self._started, {}
            players = set(started)
            try:
                async with self.games.sessions() as session:
                    rows = (
                        await session.execute(
                            select(Game.id, Game.rematch_offer, Game.first_id, Game.second_id)
                            .where(Game.rematch_offer.is_not(None))
                            .where(Game.first_id.in_(players) | Game.second_id.in_(players))
                        )
                    ).all()
                for row in rows:
                    others = started.get(row.first_id, set()) | started.get(row.second_id, set())
                    if not others - {row.id}:
                        continue
                    with contextlib.suppress(ServiceError):  # (gone meanwhile: nothing to do)
                        await self.lapse(row.id, Side(row.rematch_offer), RematchLapse.OTHER_GAME)
            except Exception:
                log.exception("could not lapse the rematch offers of players in a new game")

    async def sweep(self) -> None:
        """Lapse the watched offers whose maker has been away for the grace."""
        now = self.clock.now_ms()
        for game_id, watch in list(self._watched.items()):
            if self.presence.online(game_id, watch.side):
                watch.away_since = None
                continue
            if watch.away_since is None:
                watch.away_since = now - (self.presence.gone_for_ms(game_id, watch.side) or 0)
            if now - watch.away_since < self.grace_ms:
                continue
            self._watched.pop(game_id, None)
            try:
                await self.lapse(game_id, watch.side, RematchLapse.LEFT)
            except ServiceError:
                continue

    async def start(self) -> None:
        """Watch the offers standing (from before a restart), then sweep on the clock."""
        async with self.games.sessions() as session:
            rows = (
                await session.execute(
                    select(Game.id, Game.rematch_offer).where(Game.rematch_offer.is_not(None))
                )
            ).all()
        for game_id, side in rows:
            self._watched.setdefault(game_id, _Watch(Side(str(side))))
        self._runner = asyncio.get_running_loop().create_task(
            every(self.clock, self.sweep_s, self.sweep, log, "could not sweep the rematch offers")
        )

    async def stop(self) -> None:
        for task in (self._runner, *self._tasks):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self._runner = None
