"""``python -m app puzzles generate`` without a table says how to build one;
``python -m app puzzles import`` loads the committed set into a database once."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest

from app import __main__ as cli
from app.puzzles import cli as puzzles_cli
from app.puzzles.data import DEFAULT_FILE, read
from tests.app.accounts_and_streams import MATE
from tests.app.conftest import started_game


def test_generating_without_a_table_says_how_to_build_one(tmp_path: Path, capsys):
    with pytest.raises(SystemExit) as ended:
        cli.main(["puzzles", "generate", "--table", str(tmp_path), "--out", str(tmp_path / "x")])
    assert ended.value.code == 1
    assert "python -m app tablebase build" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_import_adds_the_set_once(sqlite_url: str):
    out = io.StringIO()
    assert puzzles_cli.import_command(sqlite_url, None, out) == 0
    count = sum(1 for _ in read(DEFAULT_FILE))
    assert out.getvalue() == f"{count} puzzles added from {DEFAULT_FILE}\n"
    out = io.StringIO()
    assert puzzles_cli.import_command(sqlite_url, None, out) == 0
    assert out.getvalue().startswith("0 puzzles added")


@pytest.fixture
def database_url(sqlite_url: str) -> str:
    """The command reads a database file: SQLite only (overrides conftest's pair)."""
    return sqlite_url


def test_the_finished_dobutsu_games_of_a_database_are_read(client, alice, bob, sqlite_url):
    game_id = started_game(alice, bob)
    other = started_game(alice, bob)  # still being played: not read
    for ply, move in enumerate(MATE):
        player = alice if ply % 2 == 0 else bob
        assert player.post(f"/api/board/game/{game_id}/move/{move}").status_code == 200
    found = asyncio.run(puzzles_cli.finished_games(sqlite_url))
    assert found == [(game_id, list(MATE))]
    assert other not in [g for g, _ in found]
