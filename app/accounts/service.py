"""Registered accounts: username + password (argon2), personal API tokens, the BOT title.

An account is a row of ``players`` like an anonymous visitor's, with a username, a password
hash and maybe the title "BOT": its games, seats and names work exactly as anyone's.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Exists, exists, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.accounts.claim import claim_guest
from app.accounts.passwords import check_password
from app.accounts.sessions import SessionGens
from app.core.errors import ServiceError
from app.core.time import Clock
from app.db.models import ApiToken, Game, Player
from app.limits.api import too_many
from app.limits.ratelimit import RateLimiter

USERNAME = re.compile(r"[A-Za-z0-9_-]{2,20}")
# An account's player id is its lower-cased username (lichess: the user id); an anonymous
# player's is 16 random hex digits. A username that could be such an id is refused, so
# that the two kinds of ids can never meet.
ANONYMOUS_ID = re.compile(r"[0-9a-f]{16}")
# Only the server makes accounts with these names (the built-in opponents): nobody can
# squat "kodama-hard" before the server creates it.
RESERVED_PREFIX = "kodama"
MAX_DESCRIPTION = 100
SCOPES = ("bot:play", "board:play", "challenge:read", "challenge:write")
TOKEN_PREFIX = "kdm_"
# Tokens in use per account: far more than one person's programs need, and a bound on what
# the account's list of tokens shows.
MAX_TOKENS = 100
# Creating tokens, per account (whichever way: password or logged-in browser): 20 at once,
# then 2 a minute.
TOKEN_RATE_PER_S = 1 / 30
TOKEN_BURST = 20
BOT = "BOT"
# A token's last use is written at most this often: not one write per bot move.
LAST_USED_EVERY_MS = 60_000
# At most this many argon2 computations at once (each takes 64 MiB by default, and a core's
# time).
HASHING_AT_ONCE = 2


def token_hash(token: str) -> str:
    # A token carries 256 random bits: nothing to brute-force, so a fast hash is enough
    # (a slow password hash would only cost every API request its time).
    return hashlib.sha256(token.encode()).hexdigest()


def username_key(username: str) -> str:
    """The unique, lower-cased username: also the account's player id."""
    return username.lower()


def check_username(username: str) -> None:
    if not USERNAME.fullmatch(username):
        raise ServiceError(
            "account.username_invalid",
            "a username has 2 to 20 characters: letters, digits, _ and -",
        )
    if ANONYMOUS_ID.fullmatch(username_key(username)):
        raise ServiceError(
            "account.username_invalid",
            "a username cannot be 16 hexadecimal digits (the shape of an anonymous player's id)",
        )


def parse_scopes(values: Iterable[str]) -> frozenset[str]:
    """Scopes as a list, or as lichess-style "a,b" / "a b" strings, all checked."""
    scopes = frozenset(s for v in values for s in re.split(r"[\s,]+", v) if s)
    unknown = sorted(scopes - set(SCOPES))
    if unknown:
        raise ServiceError(
            "token.scopes_invalid",
            f"unknown scope(s) {', '.join(unknown)}; the scopes are {', '.join(SCOPES)}",
        )
    return scopes


@dataclass(frozen=True)
class TokenOwner:
    """Who a valid token belongs to, and what it may do."""

    token_id: str
    scopes: frozenset[str]
    player: Player


@dataclass(frozen=True)
class Limits:
    """Per-IP limits of the password endpoints (brute force, mass sign-up)."""

    # Login and token creation both check a password: one budget for both.
    password: RateLimiter
    register: RateLimiter

    @staticmethod
    def default(clock: Callable[[], float]) -> Limits:
        """``clock``: the app's monotonic seconds (``Clock.monotonic``)."""
        return Limits(
            # 10 at once, then 10 a minute; 5 at once, then 1 a minute
            password=RateLimiter(rate_per_s=1 / 6, burst=10, clock=clock),
            register=RateLimiter(rate_per_s=1 / 60, burst=5, clock=clock),
        )


class AccountService:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        clock: Clock,
        *,
        hasher: PasswordHasher | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.sessions = sessions
        # argon2-cffi's defaults: RFC 9106's low-memory profile (argon2id, 64 MiB, t=3), as
        # the settings' (KODAMA_ARGON2_*, which create_app passes).
        self.hasher = hasher or PasswordHasher()
        self.now = clock.now_ms
        self.limits = limits or Limits.default(clock.monotonic)
        self._hashing = asyncio.Semaphore(HASHING_AT_ONCE)
        self._dummy_hash: str | None = None
        self.token_creations = RateLimiter(TOKEN_RATE_PER_S, TOKEN_BURST, clock.monotonic)
        # Each account's browser session generation, as the cookies are checked against it.
        self.session_gens = SessionGens(sessions, clock.monotonic)

    # ---- passwords -----------------------------------------------------------------------
    async def hash_password(self, password: str) -> str:
        async with self._hashing:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def verify_password(self, stored: str, password: str) -> bool:
        async with self._hashing:
            try:
                return await asyncio.to_thread(self.hasher.verify, stored, password)
            except (VerificationError, InvalidHashError):
                return False

    # ---- accounts ------------------------------------------------------------------------
    async def register(self, username: str, password: str) -> Player:
        """A new account with its own player row, whose id is the lower-cased username."""
        return (await self.register_claiming(username, password, None))[0]

    async def register_claiming(
        self, username: str, password: str, guest_id: str | None
    ) -> tuple[Player, list[str]]:
        """``register``; ``guest_id``, the anonymous player registering (a browser's cookie),
        has its games and other rows become the account's in the same transaction
        (app/accounts/claim.py). The account, and the ids of the games that moved."""
        check_username(username)
        check_password(username, password)
        if await self.by_username(username) is not None:
            raise self._taken(username)
        player = Player(
            id=username_key(username),
            name=username,
            created_ms=self.now(),
            username=username,
            username_key=username_key(username),
            password_hash=await self.hash_password(password),
        )
        moved: list[str] = []
        try:
            async with self.sessions() as session, session.begin():
                session.add(player)
                if guest_id is not None:
                    await session.flush()  # the account's row, before rows name it
                    moved = await claim_guest(session, guest_id, player.id)
        except IntegrityError:
            raise self._taken(username) from None  # registered meanwhile by another request
        return player, moved

    @staticmethod
    def _taken(username: str) -> ServiceError:
        return ServiceError("account.username_taken", f"the username {username!r} is taken", 409)

    async def by_username(self, name: str) -> Player | None:
        async with self.sessions() as session:
            stmt = select(Player).where(Player.username_key == username_key(name))
            return (await session.execute(stmt)).scalar_one_or_none()

    async def by_id(self, player_id: str) -> Player | None:
        async with self.sessions() as session:
            return await session.get(Player, player_id)

    async def authenticate(self, username: str, password: str) -> Player:
        """The account if the password is right; the same error whatever was wrong."""
        player = await self.by_username(username) if len(username) <= 20 else None
        if player is None or player.password_hash is None:
            # Spend the time a real check takes: the answer's delay must not tell whether
            # the username exists.
            if self._dummy_hash is None:
                self._dummy_hash = await self.hash_password(secrets.token_urlsafe(16))
            await self.verify_password(self._dummy_hash, password)
            raise self._bad_credentials()
        if not await self.verify_password(player.password_hash, password):
            raise self._bad_credentials()
        if player.closed_ms is not None:
            # Only to whoever knows the password: that the username exists is public.
            raise ServiceError("account.closed", "this account is closed", 403)
        if self.hasher.check_needs_rehash(player.password_hash):
            # The hashing parameters were raised since: store the stronger hash now.
            new_hash = await self.hash_password(password)
            async with self.sessions() as session, session.begin():
                await session.execute(
                    update(Player).where(Player.id == player.id).values(password_hash=new_hash)
                )
        return player

    @staticmethod
    def _bad_credentials() -> ServiceError:
        return ServiceError("auth.bad_credentials", "wrong username or password", 401)

    @staticmethod
    def _played(player_id: str) -> Exists:
        return exists().where(
            or_(Game.first_id == player_id, Game.second_id == player_id),
            Game.started_ms.is_not(None),
        )

    async def upgrade_to_bot(self, player_id: str) -> Player:
        """Give the account the title BOT: irreversible, and only before its first game."""
        async with self.sessions() as session, session.begin():
            player = await session.get(Player, player_id)
            if player is None or player.username is None:
                raise ServiceError(
                    "account.required", "only a registered account can become a bot", 401
                )
            if player.title == BOT:
                raise ServiceError("bot.already_bot", "this account is already a bot", 409)
            # One conditional UPDATE: a game starting meanwhile cannot slip in between a
            # check and the write.
            result = await session.execute(
                update(Player)
                .where(Player.id == player_id, Player.title.is_(None), ~self._played(player_id))
                .values(title=BOT)
                .execution_options(synchronize_session=False)
            )
            if result.rowcount != 1:  # type: ignore[attr-defined]
                raise ServiceError(
                    "bot.already_played",
                    "an account that has played a game cannot become a bot",
                    409,
                )
        player.title = BOT
        return player

    # ---- tokens --------------------------------------------------------------------------
    async def create_token(self, player_id: str, description: str, scopes: Iterable[str]) -> str:
        """A new token for this account; the plain token is returned once, never stored."""
        token, _entry = await self.new_token(player_id, description, scopes)
        return token

    async def new_token(
        self, player_id: str, description: str, scopes: Iterable[str]
    ) -> tuple[str, ApiToken]:
        """The plain token and its stored entry (which holds only its hash)."""
        chosen = parse_scopes(scopes)
        description = description.strip()
        if len(description) > MAX_DESCRIPTION:
            raise ServiceError(
                "token.description_invalid",
                f"a description has at most {MAX_DESCRIPTION} characters",
            )
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        async with self.sessions() as session, session.begin():
            # (locked on PostgreSQL: two creations at once cannot both take the last place)
            player = await session.get(Player, player_id, with_for_update=True)
            if player is None or player.username is None:
                raise ServiceError(
                    "account.required", "only a registered account can have API tokens", 401
                )
            await self._room_for_a_token(session, player_id)
            entry = ApiToken(
                id=secrets.token_hex(8),
                player_id=player_id,
                token_hash=token_hash(token),
                description=description,
                scopes=" ".join(s for s in SCOPES if s in chosen),
                created_ms=self.now(),
            )
            session.add(entry)
        return token, entry

    async def _room_for_a_token(self, session: AsyncSession, player_id: str) -> None:
        """409 ``token.too_many`` at MAX_TOKENS tokens in use; 429 ``ratelimit`` (key
        ``token``) past the account's budget of creations."""
        live = await session.scalar(
            select(func.count())
            .select_from(ApiToken)
            .where(ApiToken.player_id == player_id, ApiToken.revoked_ms.is_(None))
        )
        if (live or 0) >= MAX_TOKENS:
            raise ServiceError(
                "token.too_many",
                f"an account has at most {MAX_TOKENS} tokens in use: revoke one first",
                409,
                max=MAX_TOKENS,
            )
        try:
            self.token_creations.hit(player_id)
        except ServiceError as exc:
            # (the same refusal, keyed by the kind of request, never by the account)
            info = exc.extra.get("ratelimit")
            seconds = info.get("seconds", 1) if isinstance(info, dict) else 1
            raise too_many("token", "too many tokens created for this account", seconds) from None

    async def check_token(self, token: str) -> TokenOwner | None:
        """The token's account and scopes; None if unknown, revoked or malformed."""
        if not token.startswith(TOKEN_PREFIX) or len(token) > 100:
            return None
        now = self.now()
        async with self.sessions() as session:
            stmt = (
                select(ApiToken, Player)
                .join(Player, Player.id == ApiToken.player_id)
                .where(
                    ApiToken.token_hash == token_hash(token),
                    ApiToken.revoked_ms.is_(None),
                    Player.closed_ms.is_(None),
                )
            )
            row = (await session.execute(stmt)).one_or_none()
            if row is None:
                return None
            found, player = row
            if found.last_used_ms is None or now - found.last_used_ms >= LAST_USED_EVERY_MS:
                await session.execute(
                    update(ApiToken).where(ApiToken.id == found.id).values(last_used_ms=now)
                )
                await session.commit()
        return TokenOwner(found.id, frozenset(found.scopes.split()), player)

    async def tokens(self, player_id: str) -> list[ApiToken]:
        """The account's tokens not revoked, newest first."""
        async with self.sessions() as session:
            stmt = (
                select(ApiToken)
                .where(ApiToken.player_id == player_id, ApiToken.revoked_ms.is_(None))
                .order_by(ApiToken.created_ms.desc(), ApiToken.id)
            )
            return list((await session.execute(stmt)).scalars())

    async def revoke_token(self, player_id: str, token_id: str) -> None:
        """Revoke one of the account's tokens (404 for another's or an unknown one)."""
        async with self.sessions() as session, session.begin():
            result = await session.execute(
                update(ApiToken)
                .where(
                    ApiToken.id == token_id,
                    ApiToken.player_id == player_id,
                    ApiToken.revoked_ms.is_(None),
                )
                .values(revoked_ms=self.now())
            )
            if result.rowcount != 1:  # type: ignore[attr-defined]
                raise ServiceError("token.not_found", f"no token {token_id!r}", 404)

    async def test_tokens(self, tokens: Sequence[str]) -> dict[str, TokenOwner | None]:
        """Each token's account and scopes, or None (unknown, revoked, malformed): one read
        for them all, and no token counts as used by being tested."""
        hashes = {token_hash(t): t for t in tokens if t.startswith(TOKEN_PREFIX) and len(t) <= 100}
        found: dict[str, TokenOwner | None] = dict.fromkeys(tokens)
        if not hashes:
            return found
        async with self.sessions() as session:
            stmt = (
                select(ApiToken, Player)
                .join(Player, Player.id == ApiToken.player_id)
                .where(
                    ApiToken.token_hash.in_(hashes),
                    ApiToken.revoked_ms.is_(None),
                    Player.closed_ms.is_(None),
                )
            )
            for entry, player in (await session.execute(stmt)).all():
                found[hashes[entry.token_hash]] = TokenOwner(
                    entry.id, frozenset(entry.scopes.split()), player
                )
        return found
