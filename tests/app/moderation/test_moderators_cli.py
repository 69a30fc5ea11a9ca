"""``python -m app moderators add|remove|list`` against a database: the operator names the
moderators, and the API then lets them in."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from fastapi.testclient import TestClient

from app.main import create_app
from app.moderation import cli
from tests.app.accounts_and_streams import assert_error
from tests.app.conftest import make_settings
from tests.app.moderation.members import Member

ROOT = Path(__file__).resolve().parents[3]


def run(action: str, username: str | None, url: str) -> tuple[int, str]:
    out = io.StringIO()
    status = cli.run(action, username, url, out)
    return status, out.getvalue()


def test_the_operator_adds_lists_and_removes_moderators(database_url, tmp_path):
    with TestClient(create_app(make_settings(database_url, tmp_path))) as web:
        alice, bob = Member(web, "Alice"), Member(web, "bob")
        assert_error(alice.get("/api/mod/reports"), 403, "mod.required")
        assert run("add", "alice", database_url) == (0, "Alice is now a moderator\n")
        assert run("add", "ALICE", database_url) == (0, "Alice was already a moderator\n")
        assert run("add", "bob", database_url)[0] == 0
        assert run("list", None, database_url) == (0, "Alice\nbob\n")
        assert alice.get("/api/mod/reports").status_code == 200
        assert run("remove", "bob", database_url) == (0, "bob is no longer a moderator\n")
        assert run("remove", "bob", database_url) == (0, "bob was not a moderator\n")
        assert_error(bob.get("/api/mod/reports"), 403, "mod.required")
        assert run("list", None, database_url) == (0, "Alice\n")
    assert run("add", "nobody", database_url) == (1, "no account 'nobody'\n")
    assert run("add", None, database_url) == (1, "moderators add: give a username\n")


def test_the_command_line_entry_point(sqlite_url, tmp_path):
    with TestClient(create_app(make_settings(sqlite_url, tmp_path))) as web:
        Member(web, "carol")
    env = {**os.environ, "DATABASE_URL": sqlite_url, "KODAMA_DATA_DIR": str(tmp_path)}
    command = [sys.executable, "-m", "app", "moderators"]
    added = subprocess.run(
        [*command, "add", "carol"], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    assert (added.returncode, added.stdout) == (0, "carol is now a moderator\n"), added.stderr
    listed = subprocess.run(
        [*command, "list"], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )
    assert (listed.returncode, listed.stdout) == (0, "carol\n"), listed.stderr
    missing = subprocess.run(
        [*command, "remove", "nobody"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert missing.returncode == 1 and "no account 'nobody'" in missing.stdout
