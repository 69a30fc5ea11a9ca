"""The people of the moderation tests: accounts signed in in a browser (their cookie, besides
the account's API token), one of them named a moderator as the operator names one."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from app.http.identity import COOKIE, Identities
from app.moderation import storage
from tests.app.accounts_and_streams import Account, services_of
from tests.app.conftest import SECRET, Player

# Chat as any account may: no new accounts' pace in the way (app/chat/safety.py).
CHATTY = {"chat_new_account_hours": 0, "chat_new_account_games": 0}


class Member(Player):
    """A browser signed in to an account, and the account's token (``account``)."""

    def __init__(self, client: TestClient, username: str) -> None:
        super().__init__(client, username)
        self.account = Account(client, username)
        self.id = self.account.id
        self.username = username
        self.cookie = f"{COOKIE}={Identities(SECRET).account_cookie(self.id, username)}"

    def post(self, url: str, body: Any = None) -> Any:
        self.client.cookies.clear()
        return self.client.post(url, json=body, headers=self.headers)

    def get(self, url: str) -> Any:
        self.client.cookies.clear()
        return self.client.get(url, headers=self.headers)


def name_moderator(client: TestClient, member: Member) -> Member:
    """``member`` named a moderator (as ``python -m app moderators add`` does)."""
    services = services_of(client)

    async def add() -> None:
        async with services.games.sessions() as session, session.begin():
            await storage.add_moderator(session, member.id, 0)

    assert client.portal is not None
    client.portal.call(add)
    return member


def report(member: Player, username: str, reason: str = "abuse", **more: Any) -> Any:
    return member.post("/api/report", {"username": username, "reason": reason, **more})


def queue(moderator: Player) -> list[dict[str, Any]]:
    response = moderator.get("/api/mod/reports")
    assert response.status_code == 200, response.text
    reports: list[dict[str, Any]] = response.json()["reports"]
    return reports
