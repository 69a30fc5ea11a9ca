"""Blocking players: the blocks table, and the questions asked of it before two people meet
(docs/decisions/blocking-and-chat-safety.md).

Only accounts block, and only accounts are blocked (an anonymous identity is a cookie anyone
can throw away). A block keeps the two apart whichever of them it is: neither challenges
the other, quick pairing never pairs them, neither takes a seat of the other's open game,
seek or invite link. The blocker no longer gets the blocked player's chat lines
(``blocked_by``: what app/chat/delivery.py asks per recipient); the others still do.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Collection
from dataclasses import dataclass

from sqlalchemy import and_, delete, func, insert, literal, or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.errors import ServiceError
from app.db.models import Block, Follow, Player

# Blocks per account; one more is refused (409 block.limit) until one is undone.
MAX_BLOCKS = 1000
PAGE = 200  # blocked players read at a time by the list's stream
# How long this instance trusts its read of whom an account blocks. A change made here is
# seen at once (the read is dropped); one made on another instance within this many seconds.
KEPT_SECONDS = 5.0


@dataclass(frozen=True, slots=True)
class Blocked:
    """An account one blocks, and since when."""

    id: str
    username: str
    title: str | None
    since_ms: int


def apart(code: str) -> ServiceError:
    """The refusal when one of two players blocks the other: ``code`` (``challenge.blocked``,
    ``game.blocked``), 403, never saying which of them blocks."""
    return ServiceError(code, "you cannot play this player", 403)


async def between(session: AsyncSession, a: str, *others: str | None) -> bool:
    """Whether ``a`` blocks one of ``others`` or one of them blocks ``a`` (None: nobody)."""
    them = [o for o in others if o is not None and o != a]
    if not them:
        return False
    stmt = select(Block.blocker_id).where(
        or_(
            and_(Block.blocker_id == a, Block.blocked_id.in_(them)),
            and_(Block.blocker_id.in_(them), Block.blocked_id == a),
        )
    )
    return (await session.execute(stmt.limit(1))).first() is not None


async def among(session: AsyncSession, player_ids: Collection[str]) -> set[frozenset[str]]:
    """The pairs of these players of which one blocks the other (one read)."""
    ids = list(set(player_ids))
    if len(ids) < 2:
        return set()
    rows = await session.execute(
        select(Block.blocker_id, Block.blocked_id).where(
            Block.blocker_id.in_(ids), Block.blocked_id.in_(ids)
        )
    )
    return {frozenset(row) for row in rows}


class Blocks:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        now_ms: Callable[[], int],
        monotonic: Callable[[], float],
        *,
        max_blocks: int = MAX_BLOCKS,
    ) -> None:
        self.sessions = sessions
        self.now_ms = now_ms
        self.monotonic = monotonic
        self.max_blocks = max_blocks
        self._kept: dict[str, tuple[float, frozenset[str]]] = {}

    async def block(self, me: str, blocked: Player) -> None:
        """``me`` blocks ``blocked`` from now (again changes nothing); neither follows the
        other any more, as on lichess."""
        if blocked.id == me:
            raise ServiceError("block.self", "you cannot block yourself")
        async with self.sessions() as session, session.begin():
            await session.execute(select(Player.id).where(Player.id == me).with_for_update())
            mine = select(func.count()).where(Block.blocker_id == me).scalar_subquery()
            already = select(Block.blocked_id).where(
                Block.blocker_id == me, Block.blocked_id == blocked.id
            )
            if (await session.execute(already)).first() is None:
                if (await session.execute(select(mine))).scalar_one() >= self.max_blocks:
                    raise ServiceError(
                        "block.limit",
                        f"you block {self.max_blocks} players, the most there can be: "
                        "unblock one first",
                        409,
                        max=self.max_blocks,
                    )
                await session.execute(
                    insert(Block).from_select(
                        ["blocker_id", "blocked_id", "created_ms"],
                        select(literal(me), literal(blocked.id), literal(self.now_ms())),
                    )
                )
            await session.execute(
                delete(Follow).where(
                    or_(
                        and_(Follow.follower_id == me, Follow.followed_id == blocked.id),
                        and_(Follow.follower_id == blocked.id, Follow.followed_id == me),
                    )
                )
            )
        self._kept.pop(me, None)

    async def unblock(self, me: str, blocked: Player) -> None:
        """``me`` no longer blocks ``blocked`` (not blocking them changes nothing)."""
        async with self.sessions() as session, session.begin():
            await session.execute(
                delete(Block).where(Block.blocker_id == me, Block.blocked_id == blocked.id)
            )
        self._kept.pop(me, None)

    async def blocks(self, me: str, other: str) -> bool:
        """Whether ``me`` blocks ``other`` (read now)."""
        async with self.sessions() as session:
            stmt = select(Block.blocked_id).where(Block.blocker_id == me, Block.blocked_id == other)
            return (await session.execute(stmt)).first() is not None

    async def blocked_by(self, me: str) -> frozenset[str]:
        """The ids ``me`` blocks: a read kept ``KEPT_SECONDS`` on this instance (asked for
        every chat line delivered to ``me``, by each of their sockets and streams)."""
        now = self.monotonic()
        kept = self._kept.get(me)
        if kept is not None and now - kept[0] < KEPT_SECONDS:
            return kept[1]
        async with self.sessions() as session:
            rows = await session.execute(select(Block.blocked_id).where(Block.blocker_id == me))
            found = frozenset(rows.scalars())
        if len(self._kept) > 10_000:  # a bound, not a cache policy: read again when needed
            self._kept.clear()
        self._kept[me] = (now, found)
        return found

    async def listed(self, me: str) -> AsyncIterator[list[Blocked]]:
        """The accounts ``me`` blocks, the latest blocked first, ``PAGE`` at a time (each
        page its own short read)."""
        after: tuple[int, str] | None = None
        while True:
            stmt = (
                select(Player.id, Player.username, Player.title, Block.created_ms)
                .join(Block, Block.blocked_id == Player.id)
                .where(Block.blocker_id == me)
                .order_by(Block.created_ms.desc(), Block.blocked_id)
                .limit(PAGE)
            )
            if after is not None:
                at, last = after
                stmt = stmt.where(
                    or_(
                        Block.created_ms < at,
                        and_(Block.created_ms == at, Block.blocked_id > last),
                    )
                )
            async with self.sessions() as session:
                rows = (await session.execute(stmt)).all()
            if not rows:
                return
            yield [Blocked(pid, name or pid, title, at) for pid, name, title, at in rows]
            if len(rows) < PAGE:
                return
            after = (rows[-1][3], rows[-1][0])
