"""Quick pairing on two real server processes sharing one PostgreSQL: 200 players arrive at
five pools through both instances (alternately, a few at a time), each with its own lobby
socket; every one is told ``paired``, every game has two distinct players, nobody is in two
games, and the games table agrees with what the sockets were told."""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import asyncpg
from websockets.asyncio.client import connect

from app.http.identity import COOKIE, Identities
from app.realtime.hub import asyncpg_dsn
from tests.server import running

SECRET = "pools-instances-test-Vb7Qw2Lp9Xk4Zr1T"
PLAYERS = 200
POOLS = ("dobutsu-1+1", "dobutsu-3+2", "gorogoro-5+5", "yote-2+1", "wali-10+5")
SETTINGS = {
    "KODAMA_MAX_SOCKETS_PER_IP": "1000",
    "KODAMA_RATELIMIT_SOCKET_BURST": "1000",
    "KODAMA_RATELIMIT_IP_FACTOR": "1000",
}
# A bounded wait for the real event (the player's pairing), not a pause. Generous: a CI
# machine busy with the rest of the suite once took more than 60 s to pair all 200.
WAIT_S = 180.0


async def one_player(base: str, pool: str, who_cookie: str) -> dict[str, Any]:
    """What the player's lobby socket was told of its pairing; ``{"type": "waited"}`` if
    nothing after WAIT_S (counted in the test's failure, beside those who were paired)."""
    url = base.replace("http://", "ws://") + "/ws/lobby"
    async with connect(url, additional_headers={"Cookie": who_cookie}) as ws:
        await ws.send(f'{{"type":"pool","pool":"{pool}"}}')
        try:
            async with asyncio.timeout(WAIT_S):
                async for raw in ws:
                    message: dict[str, Any] = json.loads(raw)
                    if message.get("type") in ("paired", "unpooled", "error"):
                        return message
        except TimeoutError:
            return {"type": "waited", "pool": pool}
    raise AssertionError("the socket closed before the player was paired")


async def arrive(bases: list[str]) -> tuple[list[str], list[dict[str, Any]]]:
    rng = random.Random(12)
    identities = Identities(SECRET)
    # 40 players per pool, so that everyone can be paired; shuffled arrival order.
    pools = [POOLS[n % len(POOLS)] for n in range(PLAYERS)]
    rng.shuffle(pools)
    ids, tasks = [], []
    for n, pool in enumerate(pools):
        who = Identities.new()
        ids.append(who.id)
        cookie = f"{COOKIE}={identities.cookie(who)}"
        tasks.append(asyncio.create_task(one_player(bases[n % 2], pool, cookie)))
        if n % 10 == 9:
            await asyncio.sleep(0)  # let the sockets open, a few at a time
    return ids, list(await asyncio.gather(*tasks))


async def stored_games(url: str) -> list[Any]:
    conn = await asyncpg.connect(asyncpg_dsn(url))
    try:
        return list(await conn.fetch("SELECT id, variant, first_id, second_id, status FROM games"))
    finally:
        await conn.close()


def test_200_players_through_two_instances_are_each_paired_exactly_once(
    postgres_url: str, tmp_path: Path
):
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    with (
        running(tmp_path / "one", SECRET, postgres_url, **SETTINGS) as one,
        running(tmp_path / "two", SECRET, postgres_url, **SETTINGS) as two,
    ):
        ids, told = asyncio.run(arrive([one.base, two.base]))
        games = asyncio.run(stored_games(postgres_url))
    assert Counter(m["type"] for m in told) == {"paired": PLAYERS}, [
        m for m in told if m["type"] != "paired"
    ]
    by_game = Counter(m["game"] for m in told)
    assert set(by_game.values()) == {2}  # two players told of each game
    assert len(games) == PLAYERS // 2 == len(by_game)
    assert {g["id"] for g in games} == set(by_game)
    seated = [p for g in games for p in (g["first_id"], g["second_id"])]
    assert all(g["first_id"] != g["second_id"] for g in games)
    assert sorted(seated) == sorted(ids)  # everyone paired, nobody in two games
    assert {g["status"] for g in games} == {"started"}
    # each player's game is the one their socket was told
    game_of = {p: g["id"] for g in games for p in (g["first_id"], g["second_id"])}
    assert [game_of[p] for p in ids] == [m["game"] for m in told]
