"""Blocking against a real server, as a lichess client calls it: berserk has no block method,
so its own session (``berserk.TokenSession``, a ``requests`` session with the token) makes
lichess's calls, ``POST /api/rel/block/{username}`` and ``/unblock/{username}``, answered
``{"ok": true}`` as lichess answers them (docs/api.md, "Relations"); the block then refuses a
challenge as berserk's client raises it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import berserk
import pytest

from tests.server import account_token, running

SCOPES = "board:play,challenge:write"


def test_block_and_unblock_with_berserks_session(tmp_path: Path) -> None:
    with running(tmp_path, "blocks-berserk-Qm2LZr8wVb1kXs6YpN4tGd0aHc9JeUo7") as server:
        token = account_token(server, "alice", SCOPES)
        bob_token = account_token(server, "Bob", SCOPES)
        session = berserk.TokenSession(token)
        url = f"{server.base}/api/rel"

        answer = session.post(f"{url}/block/bob")
        assert answer.status_code == 200 and answer.json() == {"ok": True}
        assert session.post(f"{url}/block/BOB").json() == {"ok": True}  # again: the same
        listed = session.get(f"{url}/blocking")
        assert listed.headers["content-type"].startswith("application/x-ndjson")
        assert [json.loads(x)["username"] for x in listed.text.splitlines()] == ["Bob"]

        # The blocked player's berserk client: its challenge is refused.
        bob: Any = berserk.Client(session=berserk.TokenSession(bob_token), base_url=server.base)
        with pytest.raises(berserk.exceptions.ResponseError) as refused:
            bob.challenges.create("alice", rated=False, variant="dobutsu")
        assert refused.value.status_code == 403
        assert refused.value.cause["code"] == "challenge.blocked"

        answer = session.post(f"{url}/unblock/bob")
        assert answer.status_code == 200 and answer.json() == {"ok": True}
        assert session.get(f"{url}/blocking").text == ""
        made = bob.challenges.create("alice", rated=False, variant="dobutsu")
        assert made["status"] == "created" and made["destUser"]["id"] == "alice"

        for path, status, code in (
            ("block/alice", 400, "block.self"),
            ("block/nobody", 404, "user.not_found"),
            ("unblock/nobody", 404, "user.not_found"),
        ):
            answer = session.post(f"{url}/{path}")
            assert answer.status_code == status and answer.json()["code"] == code
