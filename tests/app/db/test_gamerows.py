"""The game row stores (app/db/gamerows/), each backend against the real databases: a game
round-trips, a write from a stale row is refused, and the write in a caller's transaction
(a rematch's accept) goes through the store too. The ``GameRow`` protocol lists every column
of the games table, with the types each store's records hold, and no game row is ``cast``."""

from __future__ import annotations

import ast
import types
import typing
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.engine import make_engine, make_sessionmaker
from app.db.gamerows import CoreRows, GameRecord, GameRows, Row, Stored, rows_for, to_game
from app.db.gamerows.base import FIELDS
from app.db.models import Game, GameRow
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


# Checked by mypy where they are passed: both kinds of game are a GameRow.
def _orm_game_is_a_row(game: Game) -> GameRow:
    return game


def _record_is_a_row(record: GameRecord) -> GameRow:
    return record


def _row_hints() -> dict[str, Any]:
    return typing.get_type_hints(GameRow)


def test_the_protocol_lists_every_column_of_the_games_table_with_its_type():
    mapped = {
        name: typing.get_args(hint)[0]
        for name, hint in typing.get_type_hints(Game).items()
        if typing.get_origin(hint) is not None and name in FIELDS
    }
    assert set(mapped) == set(FIELDS)  # every column is a Mapped[...] attribute
    assert _row_hints() == mapped
    assert typing.get_type_hints(GameRecord) == mapped


def _holds(hint: Any, value: Any) -> bool:
    """Whether ``value`` is of the annotated type (a bool is no int here: a column read as
    0/1 where the protocol says bool would be a lie)."""
    allowed = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    kinds = tuple(typing.get_origin(a) or a for a in allowed)
    if isinstance(value, bool):
        return bool in kinds
    return isinstance(value, kinds)


@pytest.mark.parametrize("core", [False, True], ids=["fastest", "core"])
async def test_each_store_makes_records_with_every_protocol_attribute_typed(
    engine: AsyncEngine, core: bool
):
    sessions = make_sessionmaker(engine)
    filled = _game("g2")
    values: dict[str, Any] = {
        "first_id": "p1", "initial_fen": "start", "clock_initial_ms": 60_000,
        "clock_increment_ms": 0, "first_ms": 60_000, "second_ms": 60_000,
        "turn_started_ms": 5, "clock_byoyomi_ms": 10_000, "clock_periods": 3,
        "first_periods": 3, "second_periods": 2, "days": 3, "draw_offer": "first",
        "takeback_offer": "first", "rated": True, "first_rating": 1500,
        "first_provisional": True, "second_rating": 1400, "second_provisional": False,
        "winner": "first", "reason": "resign", "started_ms": 2, "finished_ms": 3,
        "seek_away_ms": 4, "rating_min": 1000, "rating_max": 2000,
        "rematch_offer": "second", "rematch_id": "r2",
    }  # fmt: skip
    for name, value in values.items():
        setattr(filled, name, value)
    async with sessions() as session, session.begin():
        session.add(PlayerRow(id="p1", name="Anonymous P1", created_ms=1))
        await session.flush()
        session.add_all([_game("g1"), filled])
    rows: GameRows = CoreRows(engine) if core else rows_for(engine)
    hints = _row_hints()
    try:
        for game_id in ("g1", "g2"):
            stored = await rows.load(game_id)
            assert stored is not None
            record = to_game(stored.row)
            assert isinstance(record, GameRecord)
            wrong = {
                name: getattr(record, name, "<missing>")
                for name, hint in hints.items()
                if not _holds(hint, getattr(record, name, object()))
            }
            assert wrong == {}, f"{game_id}: not of the protocol's types"
    finally:
        await rows.close()


def _casts_of_a_game(tree: ast.AST) -> list[int]:
    game_types = {"Game", "GameRow", "GameRecord"}
    lines = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name != "cast":
            continue
        target = node.args[0]
        if isinstance(target, ast.Constant) and isinstance(target.value, str):
            target = ast.parse(target.value, mode="eval").body
        names = {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
        names |= {n.attr for n in ast.walk(target) if isinstance(n, ast.Attribute)}
        if names & game_types:
            lines.append(node.lineno)
    return lines


def test_no_game_row_is_cast():
    """A record is a GameRow, not a mapped Game: a cast to either would hide a lie again."""
    assert _casts_of_a_game(ast.parse("x = typing.cast('list[Game]', y)")) == [1]
    assert _casts_of_a_game(ast.parse("t = cast(Table, Game.__table__)")) == []
    app = Path(__file__).resolve().parents[3] / "app"
    found = {
        f"{path.relative_to(app.parent)}:{line}"
        for path in sorted(app.rglob("*.py"))
        for line in _casts_of_a_game(ast.parse(path.read_text(), str(path)))
    }
    assert found == set()
