"""The game row stores (app/db/gamerows/), each backend against the real databases: a game
round-trips, a write from a stale row is refused, and the write in a caller's transaction
(a rematch's accept) goes through the store too."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.engine import make_engine, make_sessionmaker
from app.db.gamerows import CoreRows, GameRows, Row, Stored, rows_for
from app.db.gamerows.base import FIELDS
from app.db.models import Game
from app.db.models import Player as PlayerRow
from tests.app.accounts_and_streams import services_of
from tests.app.conftest import Player, receive, send
from tests.app.rematch.test_rematch import finished_game, state_until

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    made = make_engine(database_url)
    try:
        yield made
    finally:
        await made.dispose()


def _game(game_id: str) -> Game:
    return Game(
        id=game_id,
        variant="dobutsu",
        rules={"ruleset": "dobutsu"},
        public=True,
        status="created",
        creator_id="p1",
        creator_color="random",
        invite_token=f"token-{game_id}",
        moves="",
        ply=0,
        fen="start",
        created_ms=1,
    )


def _with(row: Row, **values: Any) -> Row:
    changed = list(row)
    for name, value in values.items():
        changed[FIELDS.index(name)] = value
    return tuple(changed)


@pytest.mark.parametrize("core", [False, True], ids=["fastest", "core"])
async def test_each_store_round_trips_a_game_and_refuses_a_stale_write(
    engine: AsyncEngine, core: bool
):
    sessions = make_sessionmaker(engine)
    async with sessions() as session, session.begin():
        session.add(PlayerRow(id="p1", name="Anonymous P1", created_ms=1))
        await session.flush()
        session.add(_game("g1"))
    rows: GameRows = CoreRows(engine) if core else rows_for(engine)
    try:
        read = await rows.load("g1")
        assert read is not None
        assert read.row[FIELDS.index("rules")] == {"ruleset": "dobutsu"}
        moved = _with(read.row, moves="b2b3", ply=1, fen="after")
        saved = await rows.save(read, moved)
        assert saved is not None and saved.row == moved
        assert (await rows.load("g1")).row == moved  # type: ignore[union-attr]
        # The same first read again: stale now (the store's version, or its columns, say so).
        assert await rows.save(read, _with(read.row, status="aborted")) is None
        assert (await rows.load("g1")).row == moved  # type: ignore[union-attr]
        # In a caller's transaction: the same compare-and-set.
        latest = await rows.load("g1")
        assert latest is not None
        async with sessions() as session, session.begin():
            assert not await rows.save_in(session, read, _with(read.row, draw_offer="first"))
        async with sessions() as session, session.begin():
            assert await rows.save_in(session, latest, _with(moved, draw_offer="first"))
        assert (await rows.load("g1")).row == _with(moved, draw_offer="first")  # type: ignore[union-attr]
        assert await rows.save(latest, _with(moved, ply=2)) is None  # that write moved it on
        assert [s.row[0] for s in await rows.with_status("created")] == ["g1"]
    finally:
        await rows.close()


def test_a_rematch_accept_is_written_through_the_row_store(client: TestClient):
    alice, bob = Player(client, "alice"), Player(client, "bob")
    game_id = finished_game(alice, bob)
    pipeline = services_of(client).games.pipeline
    real = pipeline.rows.save_in
    written: list[tuple[str, Any]] = []

    async def save_in(session: Any, old: Stored, new: Row) -> bool:
        done: bool = await real(session, old, new)
        written.append((new[FIELDS.index("id")], done))
        return done

    pipeline.rows.save_in = save_in
    with alice.socket(game_id) as a, bob.socket(game_id) as b:
        receive(a, "state")
        receive(b, "state")
        send(a, type="rematch", action="offer")
        state_until(b, lambda g: g["rematchOffer"] == "first")
        send(b, type="rematch", action="accept")
        receive(a, "gameStart")
    assert written == [(game_id, True)]
    assert pipeline.cache.get(game_id) is None  # the accept moved the row on: read it again
    game = client.portal.call(services_of(client).games.reads.get, game_id)  # type: ignore[union-attr]
    assert game.rematch_offer is None and game.rematch_id is not None
