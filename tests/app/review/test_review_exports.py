"""A review in the game's exports, as lichess gives one: ``GET /game/export/{id}`` JSON with
``analysis`` per ply (``eval`` or ``mate``, and on a marked ply ``best``, ``variation`` and
``judgment {name, comment}``) and ``players.*.analysis``; the text record with ``[%eval …]``
comments (and the Dōbutsu table's exact values), which the record's reader still replays;
``evals=false`` leaves them out; and berserk's ``games.export(id, evals=True)`` reads both
from a real server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import berserk
import pytest
from fastapi.testclient import TestClient

from app.core.time import ManualClock
from app.games import record
from app.main import create_app
from tests.app.analysis.test_evaluate import REDUCED
from tests.app.conftest import Player, make_settings
from tests.app.review.games import finished_game, settle
from tests.app.review.test_planted import TABLE_GAME
from tests.app.tablebase.test_table import reduced_table
from tests.server import migrated_sqlite, running
from tests.templates import SQLITE_FILE

JSON = {"Accept": "application/json"}


def reviewed_game(client: TestClient) -> str:
    alice, bob = Player(client, "alice"), Player(client, "bob")
    game_id = finished_game(client, alice, bob, "dobutsu", REDUCED, TABLE_GAME)
    assert alice.post(f"/api/game/{game_id}/analysis").status_code == 202
    settle(client)
    return game_id


@pytest.fixture
def tables(tmp_path: Path) -> Path:
    reduced_table(tmp_path / "tables", "dobutsu", REDUCED)
    return tmp_path / "tables"


def check_json(data: dict[str, Any]) -> None:
    analysis = data["analysis"]
    assert len(analysis) == len(TABLE_GAME)
    assert analysis[0] == {
        "eval": 0,
        "best": "b1b2",
        "variation": analysis[0]["variation"],
        "judgment": {
            "name": "Blunder",
            "comment": "Blunder. The win was thrown away: b1b2 kept it.",
        },
    }
    assert analysis[0]["variation"].startswith("b1b2 ")
    assert analysis[1] == {"eval": 0} and analysis[2] == {"eval": 0}
    assert analysis[3]["mate"] == 3 and analysis[3]["judgment"]["name"] == "Blunder"
    for color in ("white", "black"):
        found = data["players"][color]["analysis"]
        assert set(found) == {"inaccuracy", "mistake", "blunder", "acpl", "accuracy"}
        assert found["blunder"] == 1


def check_record(text: str) -> None:
    assert "1. C*a1 { [%eval 0.00] Table: a draw. Blunder." in text
    assert "1... b4b3 { [%eval 0.00] Table: a draw. }" in text
    assert "2... b3b4 { [%eval #3] Table: first wins in 5 plies. Blunder." in text
    assert record.parse(text).moves == list(TABLE_GAME)


def test_the_exports_carry_the_review(make_client: Any, tables: Path):
    client = make_client(tablebase_path=tables)
    game_id = reviewed_game(client)
    check_json(client.get(f"/game/export/{game_id}", headers=JSON).json())
    check_record(client.get(f"/game/export/{game_id}").text)
    bare = client.get(f"/game/export/{game_id}", params={"evals": "false"}, headers=JSON).json()
    assert "analysis" not in bare and "analysis" not in bare["players"]["white"]
    assert "[%eval" not in client.get(f"/game/export/{game_id}?evals=false").text
    with_pgn = client.get(f"/game/export/{game_id}?pgnInJson=true", headers=JSON).json()
    check_record(with_pgn["pgn"])


def test_a_game_without_a_review_exports_as_before(client: TestClient, alice, bob):
    game_id = finished_game(client, alice, bob)
    data = client.get(f"/game/export/{game_id}", headers=JSON).json()
    assert "analysis" not in data
    assert "{" not in client.get(f"/game/export/{game_id}").text.split("\n\n")[1]


def test_berserk_exports_the_review(tmp_path: Path, tables: Path):
    data = tmp_path / "data"
    data.mkdir()
    migrated_sqlite().copy_to(data)
    url = f"sqlite+aiosqlite:///{data / SQLITE_FILE}"
    settings = make_settings(url, data, tablebase_path=tables)
    with TestClient(create_app(settings, ManualClock())) as client:
        game_id = reviewed_game(client)
    with running(data, "review-berserk-Qm3Vx8Lp1Zt6Rk9Wc4Yb7Nd2") as server:
        lichess = berserk.Client(base_url=server.base)
        exported = lichess.games.export(game_id, evals=True)
        assert isinstance(exported, dict)
        check_json(exported)
        text = lichess.games.export(game_id, as_pgn=True, evals=True)
        assert isinstance(text, str)
        check_record(text)
