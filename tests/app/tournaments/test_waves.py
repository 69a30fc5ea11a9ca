"""Many games of an arena ending at once each ask for a wave (app/tournaments/service.py
``consumed``): those asked while one runs are answered by one next wave, not by a full read
of the arena each (bench/arena.py measures the burst at 500 players)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi.testclient import TestClient

from app.core.time import ManualClock
from tests.app.accounts_and_streams import Account, services_of


def test_waves_asked_at_once_are_answered_by_one_next_wave(
    client: TestClient, clock: ManualClock
) -> None:
    owner = Account(client, "organiser")
    made = owner.post("/api/tournament", {"clockTime": 3, "minutes": 20, "waitMinutes": 1})
    tid = made.json()["id"]
    players = [Account(client, name) for name in ("anna", "boris", "cleo", "dmitri", "eva")]
    for player in players:
        assert player.post(f"/api/tournament/{tid}/join").status_code == 200
    clock.advance(60_000)  # started: two games, eva waits
    arenas = services_of(client).tournaments
    waves = []
    real_wave = arenas._wave

    async def counted(tournament_id: str) -> Any:
        waves.append(tournament_id)
        return await real_wave(tournament_id)

    arenas._wave = counted

    async def burst() -> list[Any]:
        return list(await asyncio.gather(*(arenas.pair(tid) for _ in range(10))))

    assert client.portal is not None
    answers = client.portal.call(burst)
    # The first runs at once; the nine asked meanwhile are answered by one more.
    assert len(waves) == 2 and answers == [[]] * 10
    # Asked again later, a wave runs again.
    client.portal.call(arenas.pair, tid)
    assert len(waves) == 3
