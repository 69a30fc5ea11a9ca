"""The kept chat lines sent to a connecting socket are read once for a crowd, and read again
as soon as a line (or a loss) is told on the game's channel (app/chat/kept.py)."""

from __future__ import annotations

import asyncio

import pytest

from app.chat.kept import KeptLines
from app.db.models import ChatLine
from app.domain.enums import ChatRoom
from app.domain.events import ChatPosted
from app.realtime.hub import RESYNC, LocalHub
from app.realtime.messages import game_channel

pytestmark = pytest.mark.anyio
ROOMS = (ChatRoom.SPECTATOR,)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Database:
    """The reads asked of the database; each waits until ``open`` is set."""

    def __init__(self) -> None:
        self.reads: list[tuple[str, tuple[ChatRoom, ...]]] = []
        self.open = asyncio.Event()
        self.open.set()
        self.began = asyncio.Event()  # set by each read as it begins
        self.fail = False

    async def reading(self, count: int) -> None:
        """Until ``count`` reads have begun."""
        while len(self.reads) < count:
            self.began.clear()
            await self.began.wait()

    async def read(self, game_id: str, rooms: tuple[ChatRoom, ...]) -> list[ChatLine]:
        self.reads.append((game_id, rooms))
        self.began.set()
        number = len(self.reads)  # the line's id says which read it came from
        await self.open.wait()
        if self.fail:
            raise OSError("the database is away")
        return [ChatLine(id=number, game_id=game_id, room=rooms[0], text="hi")]


def line(game_id: str = "g1") -> ChatPosted:
    return ChatPosted(game_id, 3, ChatRoom.SPECTATOR, "p1", "alice", "hello", 7)


async def test_a_crowd_connecting_at_once_is_one_read() -> None:
    db = Database()
    db.open.clear()
    kept = KeptLines(LocalHub(), db.read)
    asking = [asyncio.create_task(kept.recent("g1", ROOMS)) for _ in range(50)]
    await db.reading(1)  # the 50 asked before the read they share began
    db.open.set()
    answers = await asyncio.gather(*asking)
    assert db.reads == [("g1", ROOMS)]
    assert {a[0].id for a in answers} == {1}
    await kept.recent("g1", ROOMS)  # and kept after: nothing was told
    assert len(db.reads) == 1


async def test_a_line_told_makes_the_kept_read_stale_on_every_instance() -> None:
    db, hub = Database(), LocalHub()
    kept = KeptLines(hub, db.read)
    await kept.recent("g1", ROOMS)
    # A line of another game, and the game's other messages, change nothing.
    hub.deliver(game_channel("g2"), line("g2"))
    hub.deliver(game_channel("g1"), object())
    await kept.recent("g1", ROOMS)
    assert len(db.reads) == 1
    # A line of this game (told here, or by another instance through the hub), or lost
    # messages: the next socket gets a new read.
    hub.deliver(game_channel("g1"), line())
    assert (await kept.recent("g1", ROOMS))[0].id == 2
    hub.deliver(game_channel("g1"), RESYNC)
    assert (await kept.recent("g1", ROOMS))[0].id == 3
    # Other rooms are read on their own.
    await kept.recent("g1", (ChatRoom.PLAYER, ChatRoom.SPECTATOR))
    assert len(db.reads) == 4


async def test_a_read_under_way_when_a_line_is_told_is_not_shared_after_it() -> None:
    db, hub = Database(), LocalHub()
    db.open.clear()
    kept = KeptLines(hub, db.read)
    first = asyncio.create_task(kept.recent("g1", ROOMS))
    await db.reading(1)
    hub.deliver(game_channel("g1"), line())  # it may have begun before the line was kept
    second = asyncio.create_task(kept.recent("g1", ROOMS))
    await db.reading(2)
    db.open.set()
    assert [(await first)[0].id, (await second)[0].id] == [1, 2]


async def test_a_failed_read_is_read_again_and_a_caller_leaving_ends_no_ones_read() -> None:
    db = Database()
    db.fail = True
    kept = KeptLines(LocalHub(), db.read)
    with pytest.raises(OSError):
        await kept.recent("g1", ROOMS)
    db.fail = False
    db.open.clear()
    leaving = asyncio.create_task(kept.recent("g1", ROOMS))
    staying = asyncio.create_task(kept.recent("g1", ROOMS))
    await db.reading(2)  # both wait on the read under way
    leaving.cancel()
    db.open.set()
    assert (await staying)[0].id == 2
    assert len(db.reads) == 2
