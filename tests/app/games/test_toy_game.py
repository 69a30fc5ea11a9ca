"""A sixth game added the way docs/adding-a-game.md says (tests/toygame: its engine module
and its table entry, nothing else) is created, listed, paired and played like the five."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

import engine
from app.core.time import ManualClock
from tests.app.conftest import Player, receive, send, settle, started_game
from tests.toygame import POOL, TOY, registered

# Col's whole game when each side takes the first square it may: first wins (second has
# no stone left to place).
MOVES = ["*a1", "*a2", "*a3", "*b1", "*b2", "*b3", "*c1", "*c2", "*c3"]


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    with registered():
        yield


def test_the_toy_game_is_described_with_its_table_entry(client: TestClient):
    variants = client.get("/api/variants").json()
    assert [v["id"] for v in variants] == [*engine.variants.BUILT_IN, "col"]
    col = variants[-1]
    assert col["start"] == "3/3/3 f 5 5" and col["board"] == {"files": 3, "ranks": 3}
    assert col["names"] == TOY.names and col["notation"] == "squares"
    assert col["stones"] == {"steps": [], "jumps": [], "move_while_placing": True}


def test_a_toy_game_is_created_listed_and_played_to_its_end(
    client: TestClient, alice: Player, bob: Player, carol: Player
):
    public = alice.create("col", public=True, clock={"minutes": 1, "increment": 0})
    assert public["game"]["variant"] == "col" and public["game"]["status"] == "created"
    listed = client.get("/api/lobby").json()["open"]
    assert any(e["id"] == public["id"] and e["variant"] == "col" for e in listed)
    game_id = started_game(alice, bob, "col")
    with alice.socket(game_id) as a, bob.socket(game_id) as b, carol.socket(game_id) as c:
        state = receive(c, "state")["game"]
        assert state["fen"].startswith("3/3/3 f 5 5") and len(state["legalMoves"]) == 9
        receive(a, "state")
        receive(b, "state")
        for ply, move in enumerate(MOVES):
            send(a if ply % 2 == 0 else b, type="move", move=move, ply=ply)
            last = receive(c, "move")
        assert last["result"] == {"winner": "first", "reason": "no_moves", "status": "variantEnd"}
    game = carol.get(f"/api/games/{game_id}").json()["game"]
    assert game["moves"] == MOVES and game["status"] == "variantEnd"


def lobby(player: Player) -> Any:
    return player.client.websocket_connect("/ws/lobby", headers=player.headers)


def test_the_toy_game_has_its_pool_and_pairs_two_players(
    client: TestClient, clock: ManualClock, alice: Player, bob: Player
):
    pools = {p["id"]: p for p in client.get("/api/pools").json()}
    assert pools[POOL]["variant"] == "col" and (
        pools[POOL]["minutes"],
        pools[POOL]["increment"],
    ) == (1, 0)
    with lobby(alice) as a, lobby(bob) as b:
        send(a, type="pool", pool=POOL)
        receive(a, "pooling")
        send(b, type="pool", pool=POOL)
        receive(b, "pooling")
        clock.advance(1000)
        paired = receive(a, "paired")
        assert receive(b, "paired") == paired and paired["pool"] == POOL
    game = alice.get(f"/api/games/{paired['game']}").json()["game"]
    assert game["variant"] == "col" and game["status"] == "started"
    settle(client)
