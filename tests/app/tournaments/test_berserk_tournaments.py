"""berserk's ``tournaments`` client (the lichess Python client, unmodified) against a real
server: an arena created, listed, joined by two BOT accounts and two people's programs, whose
games start through their event streams as any game does; a berserk (``board.go_berserk``);
the standings, the results (NDJSON) and the games; a withdrawal and the end by its creator
(docs/api.md, "Tournaments")."""

from __future__ import annotations

import queue
import threading
import time
from typing import Any

import berserk
import pytest

from tests.app.outbox.test_outbox_crash import TRY_GAME
from tests.server import Server, account_token, running


class Player:
    """An account played through berserk (a BOT, or a person's program), its event stream
    read by a thread into a queue (berserk's streams block)."""

    def __init__(self, server: Server, username: str, *, bot: bool, events: bool = True) -> None:
        token = account_token(server, username, "bot:play" if bot else "board:play")
        self.client: Any = berserk.Client(session=berserk.TokenSession(token), base_url=server.base)
        if bot:
            self.client.account.upgrade_to_bot()  # type: ignore[no-untyped-call]
        self.api: Any = self.client.bots if bot else self.client.board
        self._events: queue.Queue[dict[str, Any]] = queue.Queue()
        if events:
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for event in self.api.stream_incoming_events():
                self._events.put(event)
        except berserk.exceptions.BerserkError:
            pass  # the server stopped

    def event(self, kind: str, game_id: str | None = None) -> dict[str, Any]:
        while True:
            event = self._events.get(timeout=30)
            if event["type"] == kind and game_id in (None, event["game"]["id"]):
                return event


def wait_for(check: Any, seconds: float = 30.0) -> Any:
    """Until ``check()`` answers something (a real server's waves run on its own time)."""
    deadline = time.monotonic() + seconds
    while (found := check()) is None:
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.05)
    return found


@pytest.fixture(params=["sqlite", "postgres"])
def server(request: pytest.FixtureRequest, tmp_path: Any) -> Any:
    url = None if request.param == "sqlite" else request.getfixturevalue("postgres_url")
    with running(tmp_path, "arena-berserk-Wq7Ld2Xk9Pz4Mv6Cb1Ny8Ht3", url) as srv:
        yield srv


def test_berserk_creates_joins_and_reads_an_arena(server: Server) -> None:
    org = Player(server, "organiser", bot=False, events=False)
    alpha, bravo = Player(server, "alphabot", bot=True), Player(server, "bravobot", bot=True)
    carol, dave = Player(server, "carolp", bot=False), Player(server, "davep", bot=False)
    made = org.client.tournaments.create_arena(
        clockTime=3,
        clockIncrement=0,
        minutes=60,
        name="Bots welcome",
        wait_minutes=0,
        variant="dobutsu",
        rated=True,
        berserkable=True,
    )
    tid = made["id"]
    assert made["fullName"] == "Bots welcome" and made["clock"] == {"limit": 180, "increment": 0}
    assert made["startsAt"].year >= 2024  # berserk read lichess's milliseconds as a datetime
    current = org.client.tournaments.get()
    assert tid in [t["id"] for t in current["started"]]

    for player in (alpha, bravo, carol, dave):
        assert player.client.tournaments.join_arena(tid) is None
    # Each pair's game starts as any game does: gameStart on both event streams.
    ab = alpha.event("gameStart")["game"]["id"]
    assert bravo.event("gameStart", ab)
    cd = carol.event("gameStart")["game"]["id"]
    assert dave.event("gameStart", cd)

    carol.client.board.go_berserk(cd)  # a win in 5 plies: too short for the berserk point
    for ply, move in enumerate(TRY_GAME):
        (alpha if ply % 2 == 0 else bravo).api.make_move(ab, move)
        (carol if ply % 2 == 0 else dave).api.make_move(cd, move)

    def settled() -> Any:
        found = org.client.tournaments.get_tournament(tid)
        scores = [p["score"] for p in found["standing"]["players"]]
        return found if scores == [2, 2, 0, 0] else None

    info = wait_for(settled)
    assert [p["name"] for p in info["standing"]["players"]] == [
        "alphabot",
        "carolp",
        "bravobot",
        "davep",
    ]
    results = list(org.client.tournaments.stream_results(tid, sheet=True))
    assert [(r["rank"], r["username"], r["score"], r["performance"], r["sheet"]["scores"])
            for r in results] == [
        (1, "alphabot", 2, 2000, "2"),
        (2, "carolp", 2, 2000, "2"),
        (3, "bravobot", 0, 1000, "0"),
        (4, "davep", 0, 1000, "0"),
    ]  # fmt: skip
    (first,) = org.client.tournaments.stream_results(tid, limit=1)
    assert first["username"] == "alphabot"
    games = {g["id"]: g for g in org.client.tournaments.export_arena_games(tid)}
    assert {ab, cd} <= set(games)
    assert games[ab]["players"]["white"]["user"]["name"] == "alphabot"

    assert bravo.client.tournaments.withdraw_arena(tid) is None
    assert org.client.tournaments.terminate_arena(tid) is None
    over = org.client.tournaments.get_tournament(tid)
    assert over["isFinished"] and [p["name"] for p in over["podium"]][:2] == [
        "alphabot",
        "carolp",
    ]
    try:
        bravo.client.tournaments.terminate_arena(tid)
        raise AssertionError("terminated by another player")
    except berserk.exceptions.ResponseError as refused:
        assert refused.status_code == 403
