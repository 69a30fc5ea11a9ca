"""A request is handled on the event loop: FastAPI runs a plain ``def`` dependency or
endpoint in a worker thread, a thread hop on every request that uses it (app/http/deps.py).
The requests of a whole game, an account and a bot, with every worker-thread call recorded:
none."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import dependencies, routing
from fastapi.testclient import TestClient
from starlette.concurrency import run_in_threadpool

from tests.app.accounts_and_streams import MATE, Account
from tests.app.conftest import Player, invite_token


@pytest.fixture
def threaded(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What FastAPI ran in a worker thread (by name), recorded, then run as it would be."""
    calls: list[str] = []
    real = run_in_threadpool

    async def recording(function: Any, *args: Any, **kwargs: Any) -> Any:
        target = kwargs.get("function", function)  # an endpoint comes wrapped
        calls.append(getattr(target, "__qualname__", repr(target)))
        return await real(function, *args, **kwargs)

    monkeypatch.setattr(dependencies.utils, "run_in_threadpool", recording)
    monkeypatch.setattr(routing, "run_in_threadpool", recording)
    return calls


def test_no_request_of_a_game_an_account_or_a_bot_runs_in_a_worker_thread(
    client: TestClient, alice: Player, bob: Player, threaded: list[str]
) -> None:
    created = alice.create()
    game_id = created["id"]
    assert bob.post(f"/api/invite/{invite_token(created)}").status_code == 200
    with alice.socket(game_id) as ws:
        ws.receive_json()
    for ply, move in enumerate(MATE):
        player = alice if ply % 2 == 0 else bob
        assert player.post(f"/api/board/game/{game_id}/move/{move}").status_code == 200
    for url in ("/api/me", f"/api/games/{game_id}", f"/game/{game_id}", "/api/lobby"):
        assert alice.get(url).status_code == 200, url
    assert client.get(f"/game/export/{game_id}").status_code == 200

    account = Account(client, "threads", bot=True)
    for url in ("/api/account", "/api/user/threads", "/api/account/playing"):
        assert account.get(url).status_code == 200, url
    assert account.post("/api/challenge/open", {"variant": "dobutsu"}).status_code == 200
    assert account.get("/api/nothere").status_code == 404  # a refusal, too
    assert threaded == []
