"""One pairing round over every pool (app/matchmaking/rounds.py), driven directly on
SQLite and PostgreSQL: the games of several pools and several pairs made in one
transaction, and a pair whose entry left meanwhile not made (its other half waits again)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import delete, insert, select

from app.core.time import ManualClock
from app.db.models import Game, Player, PoolEntry
from app.matchmaking.rounds import Made
from app.matchmaking.service import PoolService
from tests.app.accounts_and_streams import services_of


def run(client: TestClient, work: Any) -> Any:
    assert client.portal is not None
    return client.portal.call(work)


def waiting(client: TestClient, clock: ManualClock, crowd: dict[str, str], rated: bool) -> None:
    """Players ``p<n>`` (accounts if ``rated``) waiting in their pools, 10 points apart."""
    now = clock.now_ms()

    async def write() -> None:
        async with services_of(client).games.sessions() as session, session.begin():
            await session.execute(
                insert(Player),
                [
                    {"id": player, "name": player, "created_ms": now}
                    | ({"username": player, "username_key": player} if rated else {})
                    for player in crowd
                ],
            )
            await session.execute(
                insert(PoolEntry),
                [
                    {"id": f"e-{player}", "pool": pool, "player_id": player, "rated": rated,
                     "rating": 1500.0 + 10 * n, "range_low": None, "range_high": None,
                     "joined_ms": now, "seen_ms": now, "instance": "test", "game_id": None}
                    for n, (player, pool) in enumerate(crowd.items())
                ],
            )  # fmt: skip

    run(client, write)


def table(client: TestClient) -> tuple[list[PoolEntry], list[Game]]:
    async def read() -> tuple[list[PoolEntry], list[Game]]:
        async with services_of(client).games.sessions() as session:
            entries = list((await session.execute(select(PoolEntry))).scalars())
            return entries, list((await session.execute(select(Game))).scalars())

    result: tuple[list[PoolEntry], list[Game]] = run(client, read)
    return result


def test_one_round_pairs_every_pool_and_every_pair_in_one_go(
    client: TestClient, clock: ManualClock
):
    crowd = {f"p{n}": "jungle-3+2" for n in range(4)} | {f"p{n}": "yote-2+1" for n in (4, 5)}
    waiting(client, clock, crowd, rated=True)
    made = run(client, services_of(client).pools.round)
    assert len(made) == 3
    entries, games = table(client)
    assert sorted(g.id for g in games) == sorted(made)
    by_game: dict[str | None, set[str]] = {}
    for entry in entries:
        by_game.setdefault(entry.game_id, set()).add(entry.player_id)
    for game in games:
        # Each game's seats are the two entries marked with it, of one pool, both rated.
        assert {game.first_id, game.second_id} == by_game[game.id]
        (pool,) = {crowd[p] for p in by_game[game.id]}
        assert game.clock_initial_ms is not None and game.clock_increment_ms is not None
        minutes, increment = game.clock_initial_ms // 60_000, game.clock_increment_ms // 1000
        assert pool == f"{game.variant}-{minutes}+{increment}"
        assert game.rated and game.status == "started"
        assert game.first_rating == game.second_rating == 1500  # a new account's rating
    assert None not in by_game  # everyone paired
    assert run(client, services_of(client).pools.round) == []  # nobody twice


def test_a_pair_whose_entry_left_meanwhile_is_not_made_and_the_other_waits(
    client: TestClient, clock: ManualClock
):
    crowd = {f"p{n}": "dobutsu-3+2" for n in range(4)}
    waiting(client, clock, crowd, rated=False)
    pools: PoolService = services_of(client).pools
    games_of = pools.pairing._games

    async def games_then_p0_leaves(*args: Any) -> list[Made]:
        made = await games_of(*args)
        session = args[0]  # the round's: the entry is gone before the marks
        await session.execute(delete(PoolEntry).where(PoolEntry.player_id == "p0"))
        return made

    pools.pairing._games = games_then_p0_leaves  # type: ignore[method-assign, assignment]
    made = run(client, pools.round)
    assert len(made) == 1
    entries, games = table(client)
    assert [g.id for g in games] == made
    left = {e.player_id for e in entries if e.game_id is None}
    paired = {e.player_id for e in entries if e.game_id is not None}
    assert "p0" not in left | paired
    assert len(left) == 1 and len(paired) == 2
    assert {games[0].first_id, games[0].second_id} == paired
