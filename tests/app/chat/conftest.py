"""The chat's people: only accounts write in a chat (app/chat/safety.py), so alice and bob
are browsers signed in to accounts here; carol stays an anonymous visitor (she reads)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.domain.players import Identity
from app.http.identity import Identities
from tests.app.accounts_and_streams import PASSWORD, cheap_hashing, services_of
from tests.app.conftest import SECRET, Player


def account(client: TestClient, username: str) -> Player:
    """A browser signed in to a new account (its cookie holds the account)."""
    cheap_hashing(client)
    assert client.portal is not None
    player = client.portal.call(services_of(client).accounts.register, username, PASSWORD)
    person = Player(client, username)
    person.who = Identity(player.id, username)
    person.cookie = f"kodama_player={Identities(SECRET).account_cookie(player.id, username)}"
    return person


@pytest.fixture
def alice(client: TestClient) -> Player:
    return account(client, "alice")


@pytest.fixture
def bob(client: TestClient) -> Player:
    return account(client, "bob")
