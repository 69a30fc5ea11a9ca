"""Blocking players (docs/api.md, "Relations"): lichess's block and unblock routes and the
owner's list, by token and by a logged-in browser, every refusal with its code; and what a
block keeps apart: challenges, open challenges, seats of open games, seeks and invite links
(``challenge.blocked``, ``game.blocked``), rematches, quick pairing, follows."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select

from app.core.time import ManualClock
from app.db.models import Block, Game
from tests.app.accounts_and_streams import Account, assert_error, services_of
from tests.app.conftest import Player, invite_token, receive, send
from tests.app.relations.test_relations import Member, follows_in_database, status
from tests.app.rematch.test_rematch import finished_game, state_until

POOL = "dobutsu-3+2"


def blocking(account: Account | Member) -> list[dict[str, Any]]:
    owner = account.account if isinstance(account, Member) else account
    with owner.stream("/api/rel/blocking") as response:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("application/x-ndjson")
        return [json.loads(line) for line in response.iter_lines() if line]


def blocks_in_database(client: TestClient) -> list[tuple[str, str]]:
    async def read() -> list[tuple[str, str]]:
        async with services_of(client).games.sessions() as session:
            rows = await session.execute(
                select(Block.blocker_id, Block.blocked_id).order_by(
                    Block.blocker_id, Block.blocked_id
                )
            )
            return [(a, b) for a, b in rows]

    assert client.portal is not None
    return client.portal.call(read)


# ---- the routes ----------------------------------------------------------------------------
def test_an_account_blocks_lists_and_unblocks_by_token_and_by_its_browser(
    client: TestClient, clock: ManualClock
):
    alice = Account(client, "alice")
    Account(client, "Bob")
    Account(client, "carol")
    assert blocking(alice) == []
    assert alice.post("/api/rel/block/bob").json() == {"ok": True}  # any case
    clock.advance(1_000)
    assert alice.post("/api/rel/block/CAROL").json() == {"ok": True}
    assert alice.post("/api/rel/block/Bob").json() == {"ok": True}  # again: nothing changes
    listed = blocking(alice)
    assert [u["id"] for u in listed] == ["carol", "bob"]  # the latest blocked first
    assert listed[1] == {"id": "bob", "username": "Bob", "blockedAt": listed[1]["blockedAt"]}
    assert listed[0]["blockedAt"] - listed[1]["blockedAt"] == 1_000
    assert blocks_in_database(client) == [("alice", "bob"), ("alice", "carol")]

    assert alice.post("/api/rel/unblock/BOB").json() == {"ok": True}
    assert alice.post("/api/rel/unblock/bob").json() == {"ok": True}  # again: nothing changes
    assert [u["id"] for u in blocking(alice)] == ["carol"]

    # The site's pages: the browser's cookie; the profile's status says it.
    dave = Member(client, "dave")
    assert status(dave, "alice")["blocking"] is False
    assert dave.post("/api/rel/block/alice").json() == {"ok": True}
    assert status(dave, "alice")["blocking"] is True
    assert "blocking" not in status(Player(client, "guest"), "alice")  # a guest blocks nobody
    assert "blocking" not in status(dave, "dave")  # nor does one block oneself
    assert [u["id"] for u in blocking(dave)] == ["alice"]
    # Nobody else learns it: alice's list has her own blocks only.
    assert [u["id"] for u in blocking(alice)] == ["carol"]
    assert dave.post("/api/rel/unblock/alice").json() == {"ok": True}
    assert status(dave, "alice")["blocking"] is False


def test_block_refusals(client: TestClient):
    alice = Account(client, "Alice")
    Account(client, "bob")
    for name in ("Alice", "alice"):
        assert_error(alice.post(f"/api/rel/block/{name}"), 400, "block.self")
    guest = Player(client, "guest")
    guest.create()  # a player row, without an account: nobody to block
    for name in ("nobody", guest.who.id, "x" * 21):
        assert_error(alice.post(f"/api/rel/block/{name}"), 404, "user.not_found")
        assert_error(alice.post(f"/api/rel/unblock/{name}"), 404, "user.not_found")
    for refused in (
        guest.post("/api/rel/block/bob"),
        guest.post("/api/rel/unblock/bob"),
        guest.get("/api/rel/blocking"),
    ):
        assert_error(refused, 401, "account.required")
    client.cookies.clear()
    bad = {"authorization": "Bearer kdm_unknown"}
    assert_error(client.post("/api/rel/block/bob", headers=bad), 401, "token.invalid")
    assert blocks_in_database(client) == []


def test_the_blocks_of_one_account_are_capped(client: TestClient):
    alice = Account(client, "alice")
    for name in ("bob", "carol", "dave"):
        Account(client, name)
    services_of(client).relations.blocks.max_blocks = 2
    assert alice.post("/api/rel/block/bob").json() == {"ok": True}
    assert alice.post("/api/rel/block/carol").json() == {"ok": True}
    body = assert_error(alice.post("/api/rel/block/dave"), 409, "block.limit")
    assert body["max"] == 2
    assert alice.post("/api/rel/block/bob").json() == {"ok": True}  # one already blocked
    alice.post("/api/rel/unblock/bob")
    assert alice.post("/api/rel/block/dave").json() == {"ok": True}
    assert blocks_in_database(client) == [("alice", "carol"), ("alice", "dave")]


def test_a_block_ends_the_follows_both_ways_and_refuses_new_ones(client: TestClient):
    alice, bob = Account(client, "alice"), Account(client, "bob")
    assert alice.post("/api/rel/follow/bob").json() == {"ok": True}
    assert bob.post("/api/rel/follow/alice").json() == {"ok": True}
    assert alice.post("/api/rel/block/bob").json() == {"ok": True}
    assert follows_in_database(client) == []
    assert_error(bob.post("/api/rel/follow/alice"), 403, "follow.blocked")
    assert_error(alice.post("/api/rel/follow/bob"), 403, "follow.blocked")
    alice.post("/api/rel/unblock/bob")
    assert bob.post("/api/rel/follow/alice").json() == {"ok": True}


# ---- what a block keeps apart ----------------------------------------------------------------
def test_neither_challenges_the_other(client: TestClient):
    alice, bob, carol = (Account(client, n) for n in ("alice", "bob", "carol"))
    waiting = bob.post("/api/challenge/alice", {"variant": "dobutsu"}).json()  # before the block
    assert alice.post("/api/rel/block/bob").json() == {"ok": True}
    assert_error(bob.post("/api/challenge/alice", {"variant": "dobutsu"}), 403, "challenge.blocked")
    assert_error(alice.post("/api/challenge/bob", {"variant": "dobutsu"}), 403, "challenge.blocked")
    # The challenge sent before the block cannot be accepted any more.
    assert_error(alice.post(f"/api/challenge/{waiting['id']}/accept"), 403, "challenge.blocked")
    # Others are not affected.
    made = carol.post("/api/challenge/alice", {"variant": "dobutsu"})
    assert made.status_code == 200, made.text
    alice.post("/api/rel/unblock/bob")
    again = bob.post("/api/challenge/alice", {"variant": "dobutsu"})
    assert again.status_code == 200, again.text


def test_the_blocked_take_no_seat_of_an_open_challenge(client: TestClient):
    alice, bob, carol = Member(client, "alice"), Member(client, "bob"), Member(client, "carol")
    assert alice.post("/api/rel/block/bob").json() == {"ok": True}
    cid = alice.post("/api/challenge/open", {"variant": "jungle"}).json()["id"]
    assert_error(bob.post(f"/api/challenge/{cid}/accept"), 403, "challenge.blocked")
    # carol opens a link first: bob may not sit with alice's challenge either way.
    assert carol.post(f"/api/challenge/{cid}/accept?color=white").status_code == 200
    assert_error(bob.post(f"/api/challenge/{cid}/accept?color=black"), 403, "challenge.blocked")


def test_the_blocked_join_no_open_game_seek_or_invite_of_the_blocker(client: TestClient):
    alice, bob, carol = Member(client, "alice"), Member(client, "bob"), Member(client, "carol")
    assert bob.post("/api/rel/block/alice").json() == {"ok": True}  # bob blocks alice
    public = bob.create()
    assert_error(alice.post(f"/api/games/{public['id']}/join"), 403, "game.blocked")
    private = bob.create(public=False)
    assert_error(alice.post(f"/api/invite/{invite_token(private)}"), 403, "game.blocked")
    # The other way round too: bob takes no seat of alice's games.
    hers = alice.create()
    assert_error(bob.post(f"/api/games/{hers['id']}/join"), 403, "game.blocked")
    # A board seek pairs alice with someone else's open game, never bob's.
    joined = carol.post(f"/api/games/{public['id']}/join")
    assert joined.status_code == 200, joined.text
    assert bob.get(f"/api/games/{private['id']}").json()["game"]["status"] == "created"


def test_a_board_seek_skips_the_open_game_of_someone_blocked(client: TestClient):
    alice, bob = Member(client, "alice"), Member(client, "bob")
    carol = Member(client, "carol")
    assert alice.post("/api/rel/block/bob").json() == {"ok": True}
    clock = {"minutes": 3, "increment": 0}
    blocked = bob.create("dobutsu", clock=clock, color="second")  # the oldest open game
    good = carol.create("dobutsu", clock=clock, color="second")
    body = {"variant": "dobutsu", "time": 3, "increment": 0}
    with alice.account.stream("/api/board/seek", method="POST", json=body) as response:
        assert response.status_code == 200, response.read()
        lines = [json.loads(line) for line in response.iter_lines() if line]
    assert lines == [{"id": good["id"]}]
    assert alice.get(f"/api/games/{blocked['id']}").json()["game"]["status"] == "created"


def games_now(client: TestClient) -> list[Game]:
    async def read() -> list[Game]:
        async with services_of(client).games.sessions() as session:
            return list((await session.execute(select(Game))).scalars())

    assert client.portal is not None
    found: list[Game] = client.portal.call(read)
    return found


def test_quick_pairing_never_pairs_two_of_whom_one_blocks_the_other(
    client: TestClient, clock: ManualClock
):
    alice, bob, carol = Member(client, "alice"), Member(client, "bob"), Member(client, "carol")
    assert bob.post("/api/rel/block/alice").json() == {"ok": True}
    lobby = "/ws/lobby"
    with (
        client.websocket_connect(lobby, headers=alice.headers) as a,
        client.websocket_connect(lobby, headers=bob.headers) as b,
    ):
        for ws in (a, b):
            send(ws, type="pool", pool=POOL)
            receive(ws, "pooling")
        clock.advance(61_000)  # past every rating window: anyone would be paired by now
        clock.advance(1_000)
        assert games_now(client) == []
        with client.websocket_connect(lobby, headers=carol.headers) as c:
            send(c, type="pool", pool=POOL)
            receive(c, "pooling")
            clock.advance(1_000)
            paired = receive(c, "paired")
        (game,) = games_now(client)
        assert game.id == paired["game"] and "carol" in (game.first_id, game.second_id)


def test_no_rematch_across_a_block(client: TestClient):
    alice, bob = Member(client, "alice"), Member(client, "bob")
    first, second = finished_game(alice, bob), finished_game(alice, bob)
    with alice.socket(first) as a, bob.socket(first) as b:
        receive(a, "state")
        receive(b, "state")
        send(a, type="rematch", action="offer")
        state_until(b, lambda g: g["rematchOffer"] == "first")
        assert bob.post("/api/rel/block/alice").json() == {"ok": True}
        send(b, type="rematch", action="accept")  # the offer stood before the block
        assert receive(b, "error")["code"] == "challenge.blocked"
    with alice.socket(second) as a:
        receive(a, "state")
        send(a, type="rematch", action="offer")
        assert receive(a, "error")["code"] == "challenge.blocked"
    assert sorted(g.id for g in games_now(client)) == sorted((first, second))  # no new game
