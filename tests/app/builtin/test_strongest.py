"""The strongest built-in opponents on the server's side: perfect play always among the
levels run (it declines what no table holds), Fairy-Stockfish only when the engine is found;
the child process told where the tables and the engine are; the seats the lobby reads give
each opponent's ratings from the site's games, and perfect play's rulesets with a table."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest

from app.builtin import service
from app.builtin.seats import SEATS, Seats
from app.builtin.service import FAIRY, LEVELS, PERFECT, BuiltinBots, fairy_command, offered
from app.core.time import ManualClock
from app.db.models import PlayerRating
from bots import builtin
from tests.app.accounts_and_streams import services_of
from tests.app.conftest import make_settings
from tests.bots.test_perfect import build


def executable(folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return path


def test_fairy_stockfish_is_run_when_found_or_configured(
    sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    plain = make_settings(sqlite_url, tmp_path)
    assert fairy_command(plain) is None
    assert offered(plain) == (*LEVELS, PERFECT)
    engine = executable(tmp_path / "bin", "fairy-stockfish")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    assert fairy_command(plain) == str(engine)
    assert offered(plain) == (*LEVELS, PERFECT, FAIRY)
    configured = make_settings(sqlite_url, tmp_path, fairy_stockfish="/opt/fs/fairy -x")
    assert fairy_command(configured) == "/opt/fs/fairy -x"
    off = make_settings(sqlite_url, tmp_path, fairy_stockfish="")
    assert fairy_command(off) is None and FAIRY not in offered(off)
    # The child knows every level the server may run, and the seats cover them.
    for level in offered(plain):
        assert builtin.level_of("kodama-" + level) == level
        assert level in SEATS


def test_the_child_is_told_where_the_tables_and_the_engine_are(tmp_path: Path) -> None:
    assert (service.TABLES_VARIABLE, service.FAIRY_VARIABLE) == (
        builtin.TABLES_VARIABLE,
        builtin.FAIRY_VARIABLE,
    )
    out = tmp_path / "env.json"
    dump = (
        "import json, os, sys; json.dump({k: v for k, v in os.environ.items()"
        " if k.startswith('KODAMA_')}, open(sys.argv[1], 'w'))"
    )
    bots = BuiltinBots(
        None,  # type: ignore[arg-type]  # no accounts: the process alone is started
        "http://unused",
        ManualClock(),
        command=[sys.executable, "-c", dump, str(out)],
        tables=tmp_path / "tables",
        fairy="/usr/games/fairy-stockfish",
    )
    asyncio.run(bots._run_once({"kodama-perfect": "kdm_x"}))
    env = json.loads(out.read_text())
    assert env[service.TABLES_VARIABLE] == str((tmp_path / "tables").resolve())
    assert env[service.FAIRY_VARIABLE] == "/usr/games/fairy-stockfish"
    assert json.loads(env[service.TOKENS_VARIABLE]) == {"kodama-perfect": "kdm_x"}
    assert os.environ.get(service.FAIRY_VARIABLE) != env[service.FAIRY_VARIABLE]


def test_the_seats_give_ratings_and_perfect_plays_rulesets(
    make_client, tmp_path: Path, clock: ManualClock
) -> None:
    tables = tmp_path / "tables"
    tables.mkdir()
    client = make_client(tablebase_path=tables)
    services = services_of(client)
    bots = BuiltinBots(
        services.accounts, "http://unused", clock, levels=["hard", PERFECT], tables=tables
    )
    assert client.portal is not None
    client.portal.call(bots.ensure_accounts)

    def rows() -> dict[str, dict[str, object]]:
        return {r["username"]: r for r in client.get("/api/builtin/seats").json()}

    found = rows()
    assert set(found) == {"kodama-hard", "kodama-perfect"}
    # No table yet: perfect play has no ruleset (the lobby says so, it declines).
    assert found["kodama-perfect"]["rulesets"] == []
    assert "rulesets" not in found["kodama-hard"]
    assert found["kodama-hard"]["perfs"] == {} == found["kodama-perfect"]["perfs"]
    build(tables, "1l1/3/3/1L1 f E")
    assert rows()["kodama-perfect"]["rulesets"] == ["dobutsu"]

    async def rate() -> None:
        seats = Seats(services.games.sessions, services.games, services.presence)
        ids = {bot.name: pid for pid, bot in (await seats.bots()).items()}
        async with services.games.sessions() as session:
            session.add_all(
                [
                    PlayerRating(
                        player_id=ids["kodama-perfect"],
                        variant="dobutsu",
                        rating=2210.4,
                        deviation=60.0,
                        volatility=0.06,
                        games=40,
                        rated_ms=clock.now_ms(),
                    ),
                    PlayerRating(
                        player_id=ids["kodama-hard"],
                        variant="gorogoro",
                        rating=1720.0,
                        deviation=200.0,
                        volatility=0.06,
                        games=3,
                        rated_ms=clock.now_ms(),
                    ),
                ]
            )
            await session.commit()

    client.portal.call(rate)
    found = rows()
    assert found["kodama-perfect"]["perfs"] == {
        "dobutsu": {"rating": 2210, "games": 40, "prov": False}
    }
    assert found["kodama-hard"]["perfs"] == {"gorogoro": {"rating": 1720, "games": 3, "prov": True}}
