"""berserk's ``relations`` client (the lichess Python client, unmodified, no custom session)
against a real server: follow, the followed streamed back, unfollow, and the refusals as
berserk raises them (docs/api.md, "Client compatibility")."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import berserk
import pytest

from tests.server import account_token, running

# Any token of the account will do: no scope of this server is about relations.
SCOPES = "board:play"


def test_berserk_follows_lists_and_unfollows(tmp_path: Path) -> None:
    with running(tmp_path, "relations-berserk-VXsPmZe9iU7EnSZC0w0xY5J6DpmTN0h2") as server:
        token = account_token(server, "alice", SCOPES)
        for name in ("Bob", "carol"):
            account_token(server, name, SCOPES)
        alice: Any = berserk.Client(session=berserk.TokenSession(token), base_url=server.base)

        assert list(alice.relations.get_users_followed()) == []
        assert alice.relations.follow("bob") is None
        assert alice.relations.follow("carol") is None
        assert alice.relations.follow("Bob") is None  # again: nothing changes
        users = {user["id"]: user for user in alice.relations.get_users_followed()}
        assert sorted(users) == ["bob", "carol"]
        bob = users["bob"]
        # As lichess streams a user; berserk makes createdAt a datetime.
        assert bob["username"] == "Bob" and bob["perfs"] == {}
        assert isinstance(bob["createdAt"], datetime.datetime)

        assert alice.relations.unfollow("BOB") is None
        assert [u["id"] for u in alice.relations.get_users_followed()] == ["carol"]

        # Refusals: berserk's ResponseError with our status and code.
        for name, status, code in (
            ("alice", 400, "follow.self"),
            ("nobody", 404, "user.not_found"),
        ):
            with pytest.raises(berserk.exceptions.ResponseError) as refused:
                alice.relations.follow(name)
            assert refused.value.status_code == status
            assert refused.value.cause["code"] == code
        with pytest.raises(berserk.exceptions.ResponseError) as refused:
            alice.relations.unfollow("nobody")
        assert refused.value.status_code == 404
        assert [u["id"] for u in alice.relations.get_users_followed()] == ["carol"]
