"""Account ids are lower-cased usernames: new accounts, every API answer, login cookies
issued before migration 0005, and that migration on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from itsdangerous import URLSafeSerializer
from sqlalchemy import text

from app.__main__ import MIGRATIONS
from app.accounts.service import token_hash
from app.core.config import Settings
from app.db.engine import make_engine
from app.http.identity import Identities
from app.main import create_app
from tests.app.accounts.test_accounts import FAST, PASSWORD, Browser, call, generous, register
from tests.app.accounts_and_streams import Account, Lines, assert_error, challenge
from tests.app.conftest import SECRET, make_settings


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url)
    return config


@pytest.fixture(params=["sqlite", "postgres"])
def blank_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database (not migrated)."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'kodama.sqlite3'}"
    return str(request.getfixturevalue("empty_postgres_url"))


def run_sql(url: str, *statements: str, **params: Any) -> list[list[tuple[Any, ...]]]:
    """Run statements on the database; the rows each returned (empty for writes)."""

    async def run() -> list[list[tuple[Any, ...]]]:
        engine = make_engine(url)
        out: list[list[tuple[Any, ...]]] = []
        try:
            async with engine.begin() as conn:
                for statement in statements:
                    result = await conn.execute(text(statement), params)
                    out.append([tuple(r) for r in result.all()] if result.returns_rows else [])
        finally:
            await engine.dispose()
        return out

    return asyncio.run(run())


# ---- new accounts ------------------------------------------------------------------------
@pytest.fixture
def web(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as c:
        c.app.state.services.accounts.hasher = FAST  # type: ignore[attr-defined]
        c.app.state.services.accounts.limits = generous()  # type: ignore[attr-defined]
        yield c


def test_a_new_account_id_is_its_lowercased_username(web: TestClient):
    created = register(web, "Alice")
    assert (created["id"], created["username"]) == ("alice", "Alice")
    browser = Browser(web)
    assert browser.login("ALICE")["id"] == "alice"
    assert browser.me() == {"id": "alice", "name": "Alice", "username": "Alice"}
    assert browser.get("/api/account").json()["id"] == "alice"


def test_the_bot_api_shows_account_ids_as_lowercased_usernames(client: TestClient):
    alice = Account(client, "Alice")
    robot = Account(client, "RoboT", bot=True)
    assert (alice.id, robot.id) == ("alice", "robot")
    assert alice.get("/api/account").json()["id"] == "alice"
    created = challenge(alice, "RoboT")
    assert created["challenger"]["id"] == "alice"
    assert created["destUser"]["id"] == "robot"
    assert created["destUser"]["name"] == "RoboT"
    accepted = robot.post(f"/api/challenge/{created['id']}/accept")
    assert accepted.status_code == 200, accepted.text
    with robot.stream(f"/api/bot/game/stream/{created['id']}") as response:
        full = Lines(response).next("gameFull")
    assert (full["white"]["id"], full["black"]["id"]) in {("alice", "robot"), ("robot", "alice")}
    with alice.stream("/api/stream/event") as response:
        start = Lines(response).next("gameStart")
    assert start["game"]["opponent"] == {
        "id": "robot",
        "username": "RoboT",
        "title": "BOT",
        "rating": 1500,  # an account's rating in this game as of the start
    }


@pytest.mark.parametrize("username", ["0123456789abcdef", "ABCDEF0123456789"])
def test_a_username_shaped_like_an_anonymous_id_is_refused(web: TestClient, username: str):
    response = call(
        web, "POST", "/api/account/register", json={"username": username, "password": PASSWORD}
    )
    assert_error(response, 400, "account.username_invalid")
    # Other 16-character names, and hexadecimal names of other lengths, are fine.
    assert register(web, "0123456789abcdeg")["id"] == "0123456789abcdeg"
    assert register(web, "0123456789abcde")["id"] == "0123456789abcde"


# ---- login cookies -------------------------------------------------------------------------
def signed(value: object) -> str:
    return str(URLSafeSerializer(SECRET, salt="kodama.player").dumps(value))


def test_a_login_cookie_from_before_the_migration_still_means_the_account(web: TestClient):
    register(web, "Alice")
    browser = Browser(web)
    browser.cookie = signed(["33cffb2d48428626", "Alice"])  # its random id of before 0005
    assert browser.me() == {"id": "alice", "name": "Alice", "username": "Alice"}
    account = browser.get("/api/account")
    assert account.status_code == 200, account.text
    assert account.json()["id"] == "alice"


@pytest.mark.parametrize(
    "value",
    [
        ["someone-else", "Alice"],  # neither its id nor a random id of before
        ["33cffb2d48428626", "not a username!"],
        ["33cffb2d48428626", ""],
    ],
)
def test_a_login_cookie_that_cannot_be_an_account_is_no_identity(value: list[str]):
    assert Identities(SECRET).read(signed(value)) is None


def test_the_cookie_of_a_new_login_holds_the_account_id():
    identities = Identities(SECRET)
    who = identities.read(identities.account_cookie("alice", "Alice"))
    assert who is not None
    assert (who.id, who.name) == ("alice", "Alice")


# ---- migration 0005 --------------------------------------------------------------------------
OLD_ALICE, OLD_BOB, ANON = "a1a1a1a1a1a1a1a1", "b2b2b2b2b2b2b2b2", "c3c3c3c3c3c3c3c3"


def seed_0003(url: str, token: str) -> None:
    """Two accounts (random ids, as before 0005), an anonymous player, a game between alice
    and the anonymous player, a challenge alice -> Bob, an open challenge, a token, chat."""
    players = (
        "INSERT INTO players (id, name, created_ms, username, username_key, password_hash,"
        " title) VALUES (:id, :name, 1, :username, :key, :hash, :title)"
    )
    game = (
        "INSERT INTO games (id, variant, rules, public, status, creator_id, creator_color,"
        " first_id, second_id, invite_token, moves, ply, fen, created_ms, started_ms)"
        " VALUES ('g1', 'dobutsu', '{}', true, 'started', :creator, 'first', :first,"
        " :second, 'invite-g1', '', 0, 'fen', 1, 1)"
    )
    challenge = (
        "INSERT INTO challenges (id, challenger_id, dest_id, variant, rules, color, rated,"
        " status, open_white_id, open_black_id, created_ms, updated_ms) VALUES"
        " (:id, :challenger, :dest, 'dobutsu', '{}', 'random', false, 'created', :white,"
        " :black, 1, 1)"
    )

    async def run() -> None:
        engine = make_engine(url)
        try:
            async with engine.begin() as conn:
                for pid, name, key, title in (
                    (OLD_ALICE, "Alice", "alice", None),
                    (OLD_BOB, "Bob", "bob", "BOT"),
                ):
                    await conn.execute(
                        text(players),
                        {"id": pid, "name": name, "username": name, "key": key,
                         "hash": "x", "title": title},
                    )  # fmt: skip
                await conn.execute(
                    text("INSERT INTO players (id, name, created_ms) VALUES (:id, 'Anon', 1)"),
                    {"id": ANON},
                )
                await conn.execute(
                    text(game), {"creator": OLD_ALICE, "first": OLD_ALICE, "second": ANON}
                )
                await conn.execute(
                    text(challenge),
                    {"id": "c1", "challenger": OLD_ALICE, "dest": OLD_BOB,
                     "white": None, "black": None},
                )  # fmt: skip
                await conn.execute(
                    text(challenge),
                    {"id": "c2", "challenger": OLD_BOB, "dest": None,
                     "white": OLD_BOB, "black": ANON},
                )  # fmt: skip
                await conn.execute(
                    text(
                        "INSERT INTO api_tokens (id, player_id, token_hash, description, scopes,"
                        " created_ms) VALUES ('t1', :bob, :hash, 'bot', 'bot:play', 1)"
                    ),
                    {"bob": OLD_BOB, "hash": token_hash(token)},
                )
                await conn.execute(
                    text(
                        "INSERT INTO chat_lines (game_id, room, player_id, username, text,"
                        " created_ms) VALUES ('g1', 'player', :alice, 'Alice', 'hi', 1)"
                    ),
                    {"alice": OLD_ALICE},
                )
        finally:
            await engine.dispose()

    asyncio.run(run())


def test_migration_0005_moves_accounts_and_every_reference_to_the_new_ids(
    blank_url: str, tmp_path: Path
):
    config = alembic_config(blank_url)
    command.upgrade(config, "0003")
    token = "kdm_" + "b" * 43
    seed_0003(blank_url, token)

    command.upgrade(config, "0005")

    (players, games, challenges, tokens, chat) = run_sql(
        blank_url,
        "SELECT id, name, username, username_key, title FROM players ORDER BY id",
        "SELECT creator_id, first_id, second_id, rated, takeback_offer FROM games",
        "SELECT id, challenger_id, dest_id, open_white_id, open_black_id FROM challenges"
        " ORDER BY id",
        "SELECT player_id FROM api_tokens",
        "SELECT player_id FROM chat_lines",
    )
    assert players == [
        ("alice", "Alice", "Alice", "alice", None),
        ("bob", "Bob", "Bob", "bob", "BOT"),
        (ANON, "Anon", None, None, None),  # an anonymous player keeps its id
    ]
    assert [(*g[:3], bool(g[3]), g[4]) for g in games] == [("alice", "alice", ANON, False, None)]
    assert challenges == [("c1", "alice", "bob", None, None), ("c2", "bob", None, "bob", ANON)]
    assert tokens == [("bob",)]
    assert chat == [("alice",)]

    # The token still works (with the app's schema, the newest), and names the account by
    # its new id.
    command.upgrade(config, "head")
    with TestClient(create_app(make_settings(blank_url, tmp_path))) as client:
        account = client.get("/api/account", headers={"Authorization": f"Bearer {token}"})
        assert account.status_code == 200, account.text
        assert account.json()["id"] == "bob"
        assert account.json()["title"] == "BOT"

    command.downgrade(config, "0003")
    (columns,) = run_sql(blank_url, "SELECT * FROM games")
    assert len(columns[0]) == 24  # rated and takeback_offer are gone
    (players_after,) = run_sql(blank_url, "SELECT id FROM players ORDER BY id")
    assert players_after == [("alice",), ("bob",), (ANON,)]  # the new ids stay
    command.upgrade(config, "head")


def test_migration_0005_refuses_an_account_whose_new_id_is_taken(blank_url: str):
    config = alembic_config(blank_url)
    command.upgrade(config, "0003")
    run_sql(
        blank_url,
        "INSERT INTO players (id, name, created_ms) VALUES ('0123456789abcdef', 'Anon', 1)",
        "INSERT INTO players (id, name, created_ms, username, username_key) VALUES"
        " ('d4d4d4d4d4d4d4d4', '0123456789ABCDEF', 1, '0123456789ABCDEF', '0123456789abcdef')",
    )
    with pytest.raises(RuntimeError, match="0123456789abcdef"):
        command.upgrade(config, "0005")
    # Nothing changed: the failed migration left the database at 0003.
    (rows,) = run_sql(blank_url, "SELECT id FROM players ORDER BY id")
    assert rows == [("0123456789abcdef",), ("d4d4d4d4d4d4d4d4",)]
    # Once the account is renamed, as the error says, the migration goes through.
    run_sql(
        blank_url,
        "UPDATE players SET username = 'renamed', username_key = 'renamed'"
        " WHERE id = 'd4d4d4d4d4d4d4d4'",
    )
    command.upgrade(config, "head")
    (rows,) = run_sql(blank_url, "SELECT id FROM players ORDER BY id")
    assert rows == [("0123456789abcdef",), ("renamed",)]
