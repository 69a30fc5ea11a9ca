"""One seat each, kept by the database itself (migration 0004's CHECK constraints) whatever
the code does: the same player in both seats of a game or of an open challenge is refused,
answered 409 (never a 500), and rows the old code could leave are mended by the migration."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from sqlalchemy.exc import IntegrityError

from app.__main__ import MIGRATIONS
from app.core.config import Settings
from app.core.errors import ServiceError
from app.core.time import ManualClock
from app.db.engine import make_engine, make_sessionmaker
from app.db.models import Challenge, Game, Player
from app.games import GameService, Identity
from app.games.terms import GameTerms
from app.realtime.hub import LocalHub
from tests.app.conftest import SECRET
from tests.app.conftest import Player as Browser

pytestmark = pytest.mark.anyio

ALICE = Identity("a" * 16, "Anonymous AAAA")
BOB = Identity("b" * 16, "Anonymous BBBB")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def alembic(url: str, action: str, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url)
    getattr(command, action)(config, revision)


@pytest.fixture(params=["sqlite", "postgres"])
def url_at_0003(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database migrated only up to 0003: before the constraints."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'kodama.sqlite3'}"
    else:
        url = request.getfixturevalue("empty_postgres_url")
    alembic(url, "upgrade", "0003")
    return url


def game_row(game_id: str, first: str | None, second: str | None, **values: Any) -> Game:
    return Game(
        id=game_id,
        variant="dobutsu",
        rules={"ruleset": "dobutsu"},
        public=True,
        status=values.pop("status", "started"),
        creator_id=first or ALICE.id,
        creator_color="first",
        first_id=first,
        second_id=second,
        invite_token=f"token-{game_id}",
        moves="",
        ply=0,
        fen="gle/1c1/1C1/ELG f -",
        created_ms=1,
        **values,
    )


def challenge_row(challenge_id: str, white: str | None, black: str | None, status: str) -> Any:
    return Challenge(
        id=challenge_id,
        challenger_id=ALICE.id,
        dest_id=None,
        variant="dobutsu",
        rules={"ruleset": "dobutsu"},
        clock_limit=None,
        clock_increment=None,
        days=None,
        color="random",
        final_color=None,
        rated=False,
        status=status,
        decline_reason=None,
        open_white_id=white,
        open_black_id=black,
        created_ms=1,
        updated_ms=1,
    )


async def test_migration_0004_mends_rows_with_one_player_in_both_seats_then_refuses_them(
    url_at_0003: str,
) -> None:
    engine = make_engine(url_at_0003)
    sessions = make_sessionmaker(engine)
    try:
        async with sessions() as session, session.begin():
            # Rows as the tables were at 0003: the models have columns added since.
            conn = await session.connection()
            columns = await conn.run_sync(
                lambda c: {
                    t: {col["name"] for col in sa.inspect(c).get_columns(t)}
                    for t in ("players", "games", "challenges")
                }
            )

            async def add(row: Any) -> None:
                table = type(row).__table__
                values = {
                    col.name: getattr(row, col.key)
                    for col in table.columns
                    if col.name in columns[table.name] and getattr(row, col.key) is not None
                }
                # A bare table of these columns: the model's would add its newer defaults.
                bare = sa.table(
                    table.name, *(sa.column(name, table.c[name].type) for name in values)
                )
                await session.execute(sa.insert(bare).values(values))

            for who in (ALICE, BOB):
                await add(Player(id=who.id, name=who.name, created_ms=1))
            await add(game_row("same-on", ALICE.id, ALICE.id, draw_offer="first"))
            await add(game_row("same-done", ALICE.id, ALICE.id, status="resign", winner="second"))
            await add(game_row("fine", ALICE.id, BOB.id))
            # Chat lines refer to the games: SQLite's table rebuild must keep them.
            for game_id in ("same-on", "fine"):
                await session.execute(
                    sa.text(
                        "INSERT INTO chat_lines (game_id, room, player_id, username, text,"
                        " created_ms) VALUES (:g, 'player', :p, 'alice', 'hi', 1)"
                    ),
                    {"g": game_id, "p": ALICE.id},
                )
            await add(challenge_row("c-wait", ALICE.id, ALICE.id, "created"))
            await add(challenge_row("c-done", ALICE.id, ALICE.id, "accepted"))
            await add(challenge_row("c-fine", ALICE.id, BOB.id, "accepted"))
        await engine.dispose()

        await asyncio.to_thread(alembic, url_at_0003, "upgrade", "head")

        async with engine.connect() as conn:
            checks = await conn.run_sync(
                lambda c: {
                    table: {k["name"] for k in sa.inspect(c).get_check_constraints(table)}
                    for table in ("games", "challenges")
                }
            )
        assert checks == {  # as the models declare them
            "games": {"ck_games_one_seat_each"},
            "challenges": {"ck_challenges_one_seat_each"},
        }
        async with sessions() as session:
            same_on = await session.get(Game, "same-on")
            same_done = await session.get(Game, "same-done")
            fine = await session.get(Game, "fine")
            assert same_on is not None and same_done is not None and fine is not None
            assert (same_on.status, same_on.reason, same_on.winner, same_on.draw_offer) == (
                "aborted",
                "same_player",
                None,
                None,
            )
            assert same_on.finished_ms is not None
            assert (same_on.first_id, same_on.second_id) == (ALICE.id, None)
            assert (same_done.status, same_done.winner, same_done.second_id) == (
                "resign",
                "second",
                None,
            )
            assert (fine.status, fine.first_id, fine.second_id) == ("started", ALICE.id, BOB.id)
            lines = await session.execute(sa.text("SELECT count(*) FROM chat_lines"))
            assert lines.scalar() == 2
            seats = {
                c.id: (c.status, c.open_white_id, c.open_black_id)
                for c in (await session.execute(sa.select(Challenge))).scalars()
            }
            assert seats == {
                "c-wait": ("canceled", ALICE.id, None),
                "c-done": ("accepted", ALICE.id, None),
                "c-fine": ("accepted", ALICE.id, BOB.id),
            }

        with pytest.raises(IntegrityError):
            async with sessions() as session, session.begin():
                session.add(game_row("again", BOB.id, BOB.id))
        with pytest.raises(IntegrityError):
            async with sessions() as session, session.begin():
                await session.execute(
                    sa.update(Challenge)
                    .where(Challenge.id == "c-wait")
                    .values(open_black_id=ALICE.id)
                )
        async with sessions() as session, session.begin():  # a free seat is fine
            session.add(game_row("waiting", BOB.id, None, status="created"))
        await engine.dispose()

        # The way back works too (alembic runs its own event loop: in a thread).
        await asyncio.to_thread(alembic, url_at_0003, "downgrade", "0003")
        await asyncio.to_thread(alembic, url_at_0003, "upgrade", "head")
    finally:
        await engine.dispose()


async def test_the_database_refuses_a_game_with_one_player_in_both_seats(
    database_url: str, tmp_path: Path
) -> None:
    engine = make_engine(database_url)
    sessions = make_sessionmaker(engine)
    settings = Settings(database_url=database_url, data_dir=tmp_path, secret_key=SECRET)
    service = GameService(
        sessions,
        LocalHub(),
        settings,
        ManualClock(),
        is_postgres=database_url.startswith("postgresql"),
    )
    try:
        await service.setup.ensure_player(ALICE)
        # Inserted directly, past every check of the code: the constraint refuses it.
        with pytest.raises(IntegrityError):
            async with sessions() as session, session.begin():
                session.add(game_row("direct", ALICE.id, ALICE.id))
        # Through the service (a bug seating one player twice): a clean 409, no game.
        with pytest.raises(ServiceError) as refused:
            await service.setup.create_started(
                "twice",
                ALICE,
                ALICE,
                ALICE,
                GameTerms("dobutsu"),
            )
        assert (refused.value.code, refused.value.status) == ("game.same_player", 409)
        async with sessions() as session:
            assert await session.get(Game, "twice") is None
    finally:
        await service.close()
        await engine.dispose()


def test_a_constraint_a_request_runs_into_is_a_409_not_a_500(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever check-then-insert is left anywhere: the database's refusal is answered."""
    games = client.app.state.services.games  # type: ignore[attr-defined]
    someone = Browser(client, "someone")

    async def inserts_twice(who: Identity) -> None:
        for _ in range(2):
            async with games.sessions() as session, session.begin():
                session.add(Player(id=who.id, name=who.name, created_ms=1))

    monkeypatch.setattr(games.setup, "ensure_player", inserts_twice)
    response = someone.post("/api/games", {"variant": "dobutsu"})
    assert response.status_code == 409, response.text
    assert response.json()["code"] == "request.conflict"
