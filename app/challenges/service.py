"""Challenges (lichess-style) and seeks.

A challenge proposes a game to one account; the challenged player accepts (the game starts
at once with both seats taken, under the challenge's id), declines with a reason, or the
challenger cancels. An *open* challenge has no destination: the first two people to open
its links take the seats, and the game starts when both are taken. A challenge nobody
answers expires after ``challenge_expire_minutes``.

Every status change is one conditional UPDATE (``... WHERE status = 'created'``): of an
accept and a cancel racing, exactly one wins, on SQLite and PostgreSQL alike.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any, Protocol

from sqlalchemy import or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.accounts.service import AccountService
from app.botapi.gamejson import load_players
from app.challenges import openseats
from app.challenges.lichess import DECLINE_REASONS, challenge_json
from app.challenges.terms import Terms, columns, needs_account
from app.core.config import Settings
from app.core.errors import ServiceError
from app.core.time import Clock
from app.db.models import Challenge, Game, GameRow, Player
from app.domain.enums import ChallengeStatus
from app.games import GameService, Identity
from app.ratings.reading import at_start
from app.realtime.hub import LocalHub
from app.realtime.messages import PlayerLine, player_channel
from app.relations import blocks

log = logging.getLogger(__name__)


class RematchAnswers(Protocol):
    """Who answers a challenge that is a rematch offer (app/rematch/service.py)."""

    async def accept(self, who: Identity, game_id: str) -> GameRow: ...

    async def decline(self, who: Identity, game_id: str, reason: str = "generic") -> None: ...


class ChallengeService:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        games: GameService,
        accounts: AccountService,
        hub: LocalHub,
        settings: Settings,
        clock: Clock,
    ) -> None:
        self.sessions = sessions
        self.games = games
        self.accounts = accounts
        self.hub = hub
        self.settings = settings
        self.clock = clock  # what waits for an answer waits on (app/challenges/waiting.py)
        self.rematches: RematchAnswers | None = None

    # ---- reading -------------------------------------------------------------------------
    def _cutoff(self) -> int:
        return self.games.now() - int(self.settings.challenge_expire_minutes * 60_000)

    async def get(self, challenge_id: str) -> Challenge:
        async with self.sessions() as session:
            found = await session.get(Challenge, challenge_id)
        if found is None:
            raise ServiceError("challenge.not_found", f"no challenge {challenge_id!r}", 404)
        # (A rematch offer lives as long as its offer stands: app/rematch/service.py.)
        if (
            found.status == ChallengeStatus.CREATED
            and found.rematch_of is None
            and found.created_ms < self._cutoff()
        ):
            await self._set_status(found.id, ChallengeStatus.EXPIRED)
            return await self.get(challenge_id)
        return found

    async def pending(self, player_id: str) -> tuple[list[Challenge], list[Challenge]]:
        """The player's challenges waiting for an answer: (received, sent), oldest first."""
        async with self.sessions() as session:
            rows = (
                await session.execute(
                    select(Challenge)
                    .where(
                        Challenge.status == ChallengeStatus.CREATED,
                        or_(
                            Challenge.created_ms >= self._cutoff(),
                            Challenge.rematch_of.is_not(None),
                        ),
                        or_(Challenge.dest_id == player_id, Challenge.challenger_id == player_id),
                    )
                    .order_by(Challenge.created_ms, Challenge.id)
                )
            ).scalars()
            found = list(rows)
        received = [c for c in found if c.dest_id == player_id]
        sent = [c for c in found if c.challenger_id == player_id and c.dest_id != player_id]
        return received, sent

    async def to_json(
        self, challenge: Challenge, base_url: str, direction: str | None = None
    ) -> dict[str, Any]:
        players = await load_players(
            self.sessions,
            (
                challenge.challenger_id,
                challenge.dest_id,
                challenge.open_white_id,
                challenge.open_black_id,
            ),
        )
        # Each side's rating in the challenge's game as of now (lichess-bot filters on it).
        ratings = await at_start(
            self.sessions,
            challenge.variant,
            (challenge.challenger_id, challenge.dest_id),
            self.games.now(),
        )
        return challenge_json(challenge, players, base_url, direction, ratings)

    # ---- creating ------------------------------------------------------------------------
    async def _new_id(self) -> str:
        """8 characters (48 bits) that are neither a challenge's nor a game's id yet: the
        challenge's id becomes its game's."""
        while True:
            candidate = secrets.token_urlsafe(6)
            async with self.sessions() as session:
                challenge = await session.get(Challenge, candidate)
                game = await session.get(Game, candidate)
            if challenge is None and game is None:
                return candidate

    async def create(
        self, challenger: Identity, username: str, terms: Terms, base_url: str
    ) -> Challenge:
        dest = await self.accounts.by_username(username) if len(username) <= 40 else None
        if dest is None or dest.username is None:
            raise ServiceError("user.not_found", f"no player {username!r}", 404)
        if dest.id == challenger.id:
            raise ServiceError("challenge.self", "you cannot challenge yourself")
        await self.not_blocked(challenger.id, dest.id)
        await self.require_account(challenger, terms)
        challenge = await self._insert(challenger, dest.id, terms)
        await self.announce(challenge, "challenge", base_url)
        return challenge

    async def create_open(
        self, creator: Identity, terms: Terms, name: str | None = None
    ) -> Challenge:
        await self.require_account(creator, terms)
        return await self._insert(creator, None, terms, name)

    async def require_account(self, who: Identity, terms: Terms) -> None:
        """A rated game is proposed, and played, by accounts only."""
        if terms.game.rated and not await self.is_account(who.id):
            raise needs_account()

    async def not_blocked(self, player_id: str, *others: str | None) -> None:
        """Refuse (``403 challenge.blocked``) if one of them blocks the other
        (app/relations/blocks.py)."""
        async with self.sessions() as session:
            if await blocks.between(session, player_id, *others):
                raise blocks.apart("challenge.blocked")

    async def is_account(self, player_id: str) -> bool:
        async with self.sessions() as session:
            player = await session.get(Player, player_id)
        return player is not None and player.username is not None

    async def _insert(
        self, challenger: Identity, dest_id: str | None, terms: Terms, name: str | None = None
    ) -> Challenge:
        await self.games.setup.ensure_player(challenger)
        now = self.games.now()
        challenge = Challenge(
            id=await self._new_id(),
            challenger_id=challenger.id,
            dest_id=dest_id,
            **columns(terms),
            final_color=None,
            status=ChallengeStatus.CREATED,
            decline_reason=None,
            open_white_id=None,
            open_black_id=None,
            created_ms=now,
            updated_ms=now,
            name=name,
        )
        async with self.sessions() as session, session.begin():
            session.add(challenge)
        return challenge

    async def announce(self, challenge: Challenge, kind: str, base_url: str) -> None:
        """Tell both players' event streams (lichess sends the challenger a copy too)."""
        data = {"type": kind, "challenge": await self.to_json(challenge, base_url)}
        for player_id in {challenge.challenger_id, challenge.dest_id}:
            if player_id is not None:
                await self.hub.publish(player_channel(player_id), PlayerLine(player_id, data))

    # ---- answering -----------------------------------------------------------------------
    async def _set_status(self, challenge_id: str, status: str, **values: Any) -> bool:
        """Move a waiting challenge to ``status``; False if it was no longer waiting."""
        async with self.sessions() as session, session.begin():
            result = await session.execute(
                update(Challenge)
                .where(Challenge.id == challenge_id, Challenge.status == ChallengeStatus.CREATED)
                .values(status=status, updated_ms=self.games.now(), **values)
            )
            return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    @staticmethod
    def not_pending(challenge: Challenge) -> ServiceError:
        return ServiceError(
            "challenge.not_pending",
            f"this challenge is {challenge.status}, no longer waiting for an answer",
            409,
            challengeStatus=challenge.status,
        )

    async def _changed(self, challenge_id: str, status: str, **values: Any) -> Challenge:
        if not await self._set_status(challenge_id, status, **values):
            raise self.not_pending(await self.get(challenge_id))
        return await self.get(challenge_id)

    async def accept(self, who: Identity, challenge_id: str, color: str | None = None) -> Challenge:
        challenge = await self.get(challenge_id)
        if challenge.rematch_of is not None and self.rematches is not None:
            self._rematch_answer(who, challenge, "accept")
            await self.rematches.accept(who, challenge.rematch_of)
            return await self.get(challenge_id)
        if challenge.dest_id is None:
            return await openseats.take_open_seat(self, who, challenge, color)
        if challenge.dest_id != who.id:
            raise ServiceError(
                "challenge.not_yours", "only the challenged player can accept this challenge", 403
            )
        if challenge.status != ChallengeStatus.CREATED:
            raise self.not_pending(challenge)
        await self.not_blocked(who.id, challenge.challenger_id)  # blocked since it was sent
        final = challenge.color
        if final == "random":
            final = secrets.choice(("white", "black"))
        challenger = await self.identity(challenge.challenger_id)
        first, second = (challenger, who) if final == "white" else (who, challenger)
        if not await self.start(challenge, first, second, challenger, final_color=final):
            raise self.not_pending(await self.get(challenge.id))
        return await self.get(challenge.id)

    def _rematch_answer(self, who: Identity, challenge: Challenge, verb: str) -> None:
        if challenge.dest_id != who.id:
            raise ServiceError(
                "challenge.not_yours", f"only the challenged player can {verb} this challenge", 403
            )
        if challenge.status != ChallengeStatus.CREATED:
            raise self.not_pending(challenge)

    async def settle_rematch(
        self, challenge_id: str, status: ChallengeStatus, base_url: str, reason: str = "generic"
    ) -> None:
        """A rematch offer was declined, withdrawn or lapsed: its challenge (if it has one,
        still waiting) too, told to both event streams."""
        values = {"decline_reason": reason} if status == ChallengeStatus.DECLINED else {}
        if not await self._set_status(challenge_id, status, **values):
            return
        kind = "challengeDeclined" if status == ChallengeStatus.DECLINED else "challengeCanceled"
        await self.announce(await self.get(challenge_id), kind, base_url)

    async def identity(self, player_id: str) -> Identity:
        async with self.sessions() as session:
            player = await session.get(Player, player_id)
        return Identity(player_id, player.name if player is not None else "?")

    async def start(
        self,
        challenge: Challenge,
        first: Identity,
        second: Identity,
        creator: Identity,
        **accepted: Any,
    ) -> bool:
        """Accept the waiting challenge and create its game, in one transaction: False (and
        nothing written) if the challenge was no longer waiting."""

        async def claim(session: AsyncSession) -> bool:
            result = await session.execute(
                update(Challenge)
                .where(Challenge.id == challenge.id, Challenge.status == ChallengeStatus.CREATED)
                .values(status=ChallengeStatus.ACCEPTED, updated_ms=self.games.now(), **accepted)
            )
            return bool(result.rowcount == 1)  # type: ignore[attr-defined]

        game = await self.games.setup.create_started(
            challenge.id,
            first,
            second,
            creator,
            Terms.of(challenge).game,
            claim=claim,
        )
        return game is not None

    async def decline(
        self, who: Identity, challenge_id: str, reason: str | None, base_url: str
    ) -> Challenge:
        reason = reason or "generic"
        if reason not in DECLINE_REASONS:
            raise ServiceError(
                "request.invalid",
                f"unknown decline reason {reason!r} (reasons: {', '.join(DECLINE_REASONS)})",
            )
        challenge = await self.get(challenge_id)
        if challenge.rematch_of is not None and self.rematches is not None:
            self._rematch_answer(who, challenge, "decline")
            await self.rematches.decline(who, challenge.rematch_of, reason)
            return await self.get(challenge_id)
        if challenge.dest_id is None or challenge.dest_id != who.id:
            raise ServiceError(
                "challenge.not_yours", "only the challenged player can decline this challenge", 403
            )
        challenge = await self._changed(
            challenge.id, ChallengeStatus.DECLINED, decline_reason=reason
        )
        await self.announce(challenge, "challengeDeclined", base_url)
        return challenge

    async def cancel(self, who: Identity, challenge_id: str, base_url: str) -> Challenge:
        challenge = await self.get(challenge_id)
        if challenge.challenger_id != who.id:
            raise ServiceError(
                "challenge.not_yours", "only the challenger can cancel this challenge", 403
            )
        if challenge.rematch_of is not None and self.rematches is not None:
            if challenge.status != ChallengeStatus.CREATED:
                raise self.not_pending(challenge)
            await self.rematches.decline(who, challenge.rematch_of)  # a withdrawal
            return await self.get(challenge_id)
        challenge = await self._changed(challenge.id, ChallengeStatus.CANCELED)
        await self.announce(challenge, "challengeCanceled", base_url)
        return challenge

    async def withdraw(self, who: Identity, challenge_id: str, base_url: str) -> bool:
        """The challenger stopped waiting for the answer (closed its kept-alive request, or
        the built-in opponent did not answer in time): the challenge is canceled if it still
        waits. False if it was answered first (then it stands as answered)."""
        async with self.sessions() as session, session.begin():
            result = await session.execute(
                update(Challenge)
                .where(
                    Challenge.id == challenge_id,
                    Challenge.challenger_id == who.id,
                    Challenge.status == ChallengeStatus.CREATED,
                )
                .values(status=ChallengeStatus.CANCELED, updated_ms=self.games.now())
            )
            if result.rowcount != 1:  # type: ignore[attr-defined]
                return False
        await self.announce(await self.get(challenge_id), "challengeCanceled", base_url)
        return True
