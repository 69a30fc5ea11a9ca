"""Following players: the follows table, and what the followed are doing now.

Only accounts follow, and only accounts are followed (an anonymous player is nobody to find
again). A player is **online** while a socket of theirs (a page, a bot's event stream) is
open on a live instance (app/realtime/attendance.py: what keeps seeks alive too), and
**playing** while a game of theirs is started; the game shown is the latest started
(docs/decisions/relations.md).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Collection, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, delete, exists, func, insert, literal, or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

import engine
from app.accounts.service import username_key
from app.core.errors import ServiceError
from app.core.time import Clock
from app.db.models import Follow, Game, Player, PlayerRating, PlayerSocket, ServerInstance
from app.domain.enums import GameStatus
from app.ratings.reading import perf_json, progress
from app.ratings.service import as_of
from app.relations.blocks import Blocks, between

# lichess's cap. A follow past it is refused (409 follow.limit) until one is undone.
MAX_FOLLOWS = 5000
PAGE = 200  # followed players read at a time by the lichess stream
# At most this many followed players are listed as online or playing (the lobby's list).
MAX_LIVE = 200


@dataclass(frozen=True, slots=True)
class Now:
    """What a player is doing now."""

    id: str
    username: str
    title: str | None
    online: bool
    playing: str | None  # the id of the game being played (the latest started)


def not_found(username: str) -> ServiceError:
    return ServiceError("user.not_found", f"no user {username!r}", 404)


class Relations:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        clock: Clock,
        *,
        dead_ms: int,
        max_follows: int = MAX_FOLLOWS,
    ) -> None:
        self.sessions = sessions
        self.clock = clock
        self.dead_ms = dead_ms  # an instance silent this long counts as gone with its sockets
        self.max_follows = max_follows
        self.blocks = Blocks(sessions, clock.now_ms, clock.monotonic)

    # ---- following -----------------------------------------------------------------------
    async def account(self, session: AsyncSession, username: str) -> Player:
        """The account called ``username`` (any case); 404 ``user.not_found``."""
        found = None
        if len(username) <= 20:
            stmt = select(Player).where(Player.username_key == username_key(username))
            found = (await session.execute(stmt)).scalar_one_or_none()
        if found is None or found.username is None:
            raise not_found(username)
        return found

    async def find(self, username: str) -> Player:
        """The account called ``username`` (any case); 404 ``user.not_found``."""
        async with self.sessions() as session:
            return await self.account(session, username)

    async def follow(self, me: str, username: str) -> None:
        """``me`` follows ``username`` from now (following again changes nothing)."""
        if username_key(username) == me:
            raise ServiceError("follow.self", "you cannot follow yourself")
        async with self.sessions() as session, session.begin():
            followed = await self.account(session, username)
            if await between(session, me, followed.id):
                raise ServiceError("follow.blocked", "you cannot follow this player", 403)
            # Two follows at once by one account: the second waits for the first's count
            # (PostgreSQL; SQLite runs one write at a time, and the insert below is one
            # statement).
            await session.execute(select(Player.id).where(Player.id == me).with_for_update())
            mine = select(func.count()).where(Follow.follower_id == me).scalar_subquery()
            already = exists().where(Follow.follower_id == me, Follow.followed_id == followed.id)
            added = await session.execute(
                insert(Follow).from_select(
                    ["follower_id", "followed_id", "created_ms"],
                    select(literal(me), literal(followed.id), literal(self.clock.now_ms())).where(
                        mine < self.max_follows, ~already
                    ),
                )
            )
            inserted: int = added.rowcount  # type: ignore[attr-defined]
            if inserted == 0 and not await self._follows(session, me, followed.id):
                raise ServiceError(
                    "follow.limit",
                    f"you follow {self.max_follows} players, the most there can be: "
                    "unfollow one first",
                    409,
                    max=self.max_follows,
                )

    async def unfollow(self, me: str, username: str) -> None:
        """``me`` no longer follows ``username`` (not following them changes nothing)."""
        async with self.sessions() as session, session.begin():
            followed = await self.account(session, username)
            await session.execute(
                delete(Follow).where(Follow.follower_id == me, Follow.followed_id == followed.id)
            )

    @staticmethod
    async def _follows(session: AsyncSession, me: str, other: str) -> bool:
        stmt = select(Follow.followed_id).where(
            Follow.follower_id == me, Follow.followed_id == other
        )
        return (await session.execute(stmt)).first() is not None

    async def followed(self, me: str) -> AsyncIterator[list[Player]]:
        """The accounts ``me`` follows, the latest followed first, ``PAGE`` at a time (each
        page its own short read: a slow reader holds no connection)."""
        after: tuple[int, str] | None = None
        while True:
            stmt = (
                select(Player, Follow.created_ms)
                .join(Follow, Follow.followed_id == Player.id)
                .where(Follow.follower_id == me)
                .order_by(Follow.created_ms.desc(), Follow.followed_id)
                .limit(PAGE)
            )
            if after is not None:
                at, last = after
                stmt = stmt.where(
                    or_(
                        Follow.created_ms < at,
                        and_(Follow.created_ms == at, Follow.followed_id > last),
                    )
                )
            async with self.sessions() as session:
                rows = (await session.execute(stmt)).all()
            if not rows:
                return
            yield [player for player, _ in rows]
            if len(rows) < PAGE:
                return
            last_player, at = rows[-1]
            after = (at, last_player.id)

    async def perfs(self, player_ids: Collection[str]) -> dict[str, dict[str, Any]]:
        """lichess's ``perfs`` of each player (as ``GET /api/user/{username}``), as of now."""
        if not player_ids:
            return {}
        async with self.sessions() as session:
            rows = (
                await session.execute(
                    select(PlayerRating).where(
                        PlayerRating.player_id.in_(list(player_ids)), PlayerRating.games > 0
                    )
                )
            ).scalars()
            by_player: dict[str, dict[str, PlayerRating]] = {}
            for row in rows:
                by_player.setdefault(row.player_id, {})[row.variant] = row
        progs = await progress(self.sessions, list(by_player), None)
        now = self.clock.now_ms()
        return {
            player_id: {
                game: perf_json(as_of(rated[game], now), progs.get((player_id, game), 0))
                for game in engine.game_ids()
                if game in rated
            }
            for player_id, rated in by_player.items()
        }

    # ---- who is there --------------------------------------------------------------------
    def _online(self, player_id: Any) -> Any:
        """Whether ``player_id`` (a column) has a socket open on a live instance."""
        alive_since = self.clock.now_ms() - self.dead_ms
        return exists().where(
            PlayerSocket.player_id == player_id,
            ServerInstance.id == PlayerSocket.instance,
            ServerInstance.beat_ms > alive_since,
        )

    @staticmethod
    async def _playing(session: AsyncSession, players: Any) -> dict[str, str]:
        """player id -> the game each of ``players`` (ids, or a query of them) plays: the
        latest started."""
        rows = await session.execute(
            select(Game.id, Game.first_id, Game.second_id)
            .where(
                Game.status == GameStatus.STARTED,
                or_(Game.first_id.in_(players), Game.second_id.in_(players)),
            )
            .order_by(Game.started_ms.desc(), Game.id)
        )
        found: dict[str, str] = {}
        for game_id, first, second in rows:
            for seated in (first, second):
                if seated is not None:
                    found.setdefault(seated, game_id)
        return found

    async def live(self, me: str) -> tuple[int, list[Now]]:
        """How many players ``me`` follows, and those of them online or playing (at most
        ``MAX_LIVE``), by name."""
        mine = select(Follow.followed_id).where(Follow.follower_id == me)
        async with self.sessions() as session:
            count = (
                await session.execute(select(func.count()).where(Follow.follower_id == me))
            ).scalar_one()
            if not count:
                return 0, []
            online = set(
                (
                    await session.execute(
                        select(Follow.followed_id).where(
                            Follow.follower_id == me, self._online(Follow.followed_id)
                        )
                    )
                ).scalars()
            )
            playing = await self._playing(session, mine)
            ids = online | set(playing)
            players = (
                await session.execute(
                    select(Player.id, Player.username, Player.title)
                    .where(Player.id.in_(ids))
                    .order_by(Player.username_key)
                    .limit(MAX_LIVE)
                )
            ).all()
        return count, [
            Now(pid, name, title, pid in online, playing.get(pid))
            for pid, name, title in players
            if name is not None  # always: only accounts are followed
        ]

    async def now(self, viewer: str | None, username: str) -> tuple[Now, bool | None]:
        """What ``username`` is doing now, and whether ``viewer`` (an account; None: a guest)
        follows them (None for a guest and for the player themself)."""
        async with self.sessions() as session:
            player = await self.account(session, username)
            online = (await session.execute(select(self._online(literal(player.id))))).scalar()
            playing = await self._playing(session, [player.id])
            following = None
            if viewer is not None and viewer != player.id:
                following = await self._follows(session, viewer, player.id)
        assert player.username is not None
        # A player reading their own profile is online, whatever the last beat wrote: the
        # socket of the page they just left may be gone before this page's one is counted.
        online = online or viewer == player.id
        now = Now(player.id, player.username, player.title, bool(online), playing.get(player.id))
        return now, following


def user_json(player: Player, perfs: Mapping[str, Mapping[str, dict[str, Any]]]) -> dict[str, Any]:
    """A followed account as lichess's ``GET /api/rel/following`` streams it."""
    data: dict[str, Any] = {
        "id": player.id,
        "username": player.username,
        "createdAt": player.created_ms,
        "perfs": perfs.get(player.id, {}),
    }
    if player.title:
        data["title"] = player.title
    return data
