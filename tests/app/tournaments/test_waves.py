"""Many games of an arena ending at once each ask for a wave (app/tournaments/service.py
``consumed``): those asked while one runs are answered by one next wave, not by a full read
of the arena each (bench/arena.py measures the burst at 500 players)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import event

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


def test_a_wave_with_no_arena_due_only_reads_and_one_due_elsewhere_is_started_at_once(
    make_client: Any, clock: ManualClock
) -> None:
    """The arenas' periodic wave writes nothing while no arena is due to start or running;
    an arena another instance made is started and paired by this one's next wave, as soon as
    it is due."""
    one, two = make_client(), make_client()
    arenas = services_of(two).tournaments
    statements: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if "tournament" in statement:  # not the instance's other work meanwhile
            statements.append(statement.split(None, 1)[0].upper())

    engine = arenas.sessions.kw["bind"].sync_engine
    event.listen(engine, "before_cursor_execute", seen)
    try:
        assert two.portal is not None
        two.portal.call(arenas.tick)  # no arena at all
        owner = Account(one, "organiser")
        made = owner.post("/api/tournament", {"clockTime": 3, "minutes": 20, "waitMinutes": 1})
        tid = made.json()["id"]
        for name in ("anna", "boris"):
            assert Account(one, name).post(f"/api/tournament/{tid}/join").status_code == 200
        statements.clear()
        two.portal.call(arenas.tick)  # one made elsewhere, not due yet
        assert statements == ["SELECT"]
        clock.jump(60_000)  # due: no timer has run, the first wave to come is two's
        two.portal.call(arenas.tick)
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    assert "UPDATE" in statements
    seen_from_one = one.get(f"/api/tournament/{tid}").json()
    assert seen_from_one["status"] == 20 and len(seen_from_one["duels"]) == 1
