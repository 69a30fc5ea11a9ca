"""Following players (docs/api.md, "Relations"): lichess's follow, unfollow and following
routes by token and by a logged-in browser, every refusal with its code, the cap, and who
of the followed is online (a socket open) or playing (a game on), on the injected clock."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.time import ManualClock
from app.db.models import Follow, PlayerRating
from app.http.identity import COOKIE, Identities
from app.relations import service
from tests.app.accounts_and_streams import Account, assert_error, services_of
from tests.app.conftest import SECRET, Player, invite_token


class Member(Player):
    """A browser logged in to an account (its cookie), besides the account's token."""

    def __init__(self, client: TestClient, username: str) -> None:
        super().__init__(client, username)
        self.account = Account(client, username)
        self.id = self.account.id
        self.cookie = f"{COOKIE}={Identities(SECRET).account_cookie(self.id, username)}"


def following(account: Account) -> list[dict[str, Any]]:
    with account.stream("/api/rel/following") as response:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("application/x-ndjson")
        return [json.loads(line) for line in response.iter_lines() if line]


def follows_in_database(client: TestClient) -> list[tuple[str, str]]:
    services = services_of(client)

    async def read() -> list[tuple[str, str]]:
        async with services.games.sessions() as session:
            rows = await session.execute(
                Follow.__table__.select().order_by(Follow.follower_id, Follow.followed_id)
            )
            return [(r.follower_id, r.followed_id) for r in rows]

    assert client.portal is not None
    return client.portal.call(read)


def rate(client: TestClient, player_id: str, variant: str, rating: float, at_ms: int) -> None:
    services = services_of(client)

    async def write() -> None:
        async with services.games.sessions() as session, session.begin():
            session.add(
                PlayerRating(
                    player_id=player_id,
                    variant=variant,
                    rating=rating,
                    deviation=80.0,
                    volatility=0.06,
                    games=12,
                    rated_ms=at_ms,
                )
            )

    assert client.portal is not None
    client.portal.call(write)


def live(player: Player) -> dict[str, Any]:
    response = player.get("/api/rel/following/live")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def status(player: Player, username: str) -> dict[str, Any]:
    response = player.get(f"/api/rel/status/{username}")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def test_an_account_follows_lists_and_unfollows_by_token_and_by_its_browser(
    client: TestClient, clock: ManualClock
):
    alice = Account(client, "alice")
    bob = Account(client, "Bob")
    Account(client, "carol")
    rate(client, bob.id, "jungle", 1712.4, clock.now_ms())
    assert following(alice) == []
    assert alice.post("/api/rel/follow/bob").json() == {"ok": True}  # any case
    clock.advance(1_000)
    assert alice.post("/api/rel/follow/carol").json() == {"ok": True}
    assert alice.post("/api/rel/follow/BOB").json() == {"ok": True}  # again: nothing changes
    users = following(alice)
    # The latest followed first, each as lichess streams a user.
    assert [u["id"] for u in users] == ["carol", "bob"]
    assert users[1] == {
        "id": "bob",
        "username": "Bob",
        "createdAt": users[1]["createdAt"],
        "perfs": {"jungle": {"games": 12, "rating": 1712, "rd": 80, "prog": 0}},
    }
    assert isinstance(users[1]["createdAt"], int)
    assert users[0]["perfs"] == {}
    assert follows_in_database(client) == [("alice", "bob"), ("alice", "carol")]

    assert alice.post("/api/rel/unfollow/Bob").json() == {"ok": True}
    assert alice.post("/api/rel/unfollow/bob").json() == {"ok": True}  # again: nothing changes
    assert [u["id"] for u in following(alice)] == ["carol"]

    # The site's pages: the browser's cookie, no token.
    dave = Member(client, "dave")
    assert dave.post("/api/rel/follow/alice").json() == {"ok": True}
    assert live(dave) == {"count": 1, "users": []}
    assert dave.post("/api/rel/unfollow/alice").json() == {"ok": True}
    assert follows_in_database(client) == [("alice", "carol")]


def test_following_yourself_is_refused(client: TestClient):
    alice = Account(client, "Alice")
    for name in ("Alice", "alice", "ALICE"):
        assert_error(alice.post(f"/api/rel/follow/{name}"), 400, "follow.self")
    assert follows_in_database(client) == []


def test_an_unknown_user_or_an_anonymous_player_is_not_found(client: TestClient):
    alice = Account(client, "alice")
    guest = Player(client, "guest")
    guest.create()  # a player row, without an account
    for name in ("nobody", guest.who.id, "x" * 21):
        assert_error(alice.post(f"/api/rel/follow/{name}"), 404, "user.not_found")
        assert_error(alice.post(f"/api/rel/unfollow/{name}"), 404, "user.not_found")
        assert_error(alice.get(f"/api/rel/status/{name}"), 404, "user.not_found")
    assert follows_in_database(client) == []


def test_guests_cannot_follow_nor_list(client: TestClient):
    Account(client, "bob")
    guest = Player(client, "guest")
    for refused in (
        guest.post("/api/rel/follow/bob"),
        guest.post("/api/rel/unfollow/bob"),
        guest.get("/api/rel/following"),
        guest.get("/api/rel/following/live"),
    ):
        assert_error(refused, 401, "account.required")
    client.cookies.clear()
    bad = {"authorization": "Bearer kdm_unknown"}
    assert_error(client.post("/api/rel/follow/bob", headers=bad), 401, "token.invalid")
    assert_error(client.get("/api/rel/following", headers=bad), 401, "token.invalid")
    assert follows_in_database(client) == []


def test_the_follows_of_one_account_are_capped(client: TestClient):
    alice = Account(client, "alice")
    others = [Account(client, name) for name in ("bob", "carol", "dave")]
    services_of(client).relations.max_follows = 2
    for other in others[:2]:
        assert alice.post(f"/api/rel/follow/{other.username}").json() == {"ok": True}
    body = assert_error(alice.post("/api/rel/follow/dave"), 409, "follow.limit")
    assert body["max"] == 2
    assert alice.post("/api/rel/follow/bob").json() == {"ok": True}  # one already followed
    assert sorted(u["id"] for u in following(alice)) == ["bob", "carol"]
    alice.post("/api/rel/unfollow/bob")
    assert alice.post("/api/rel/follow/dave").json() == {"ok": True}
    assert follows_in_database(client) == [("alice", "carol"), ("alice", "dave")]


def test_the_followed_online_or_playing_are_listed_with_their_game(
    client: TestClient, clock: ManualClock
):
    alice, bob, carol = Member(client, "alice"), Member(client, "bob"), Member(client, "carol")
    Member(client, "dave")
    opponent = Player(client, "opponent")
    for name in ("bob", "carol", "dave"):
        alice.post(f"/api/rel/follow/{name}")
    assert live(alice) == {"count": 3, "users": []}

    with client.websocket_connect("/ws/site", headers=bob.headers) as page:
        page.receive_json()
        clock.advance(1_000)  # the instance writes its sockets every second
        assert live(alice) == {
            "count": 3,
            "users": [{"id": "bob", "username": "bob", "online": True, "playing": False}],
        }
        created = carol.create("dobutsu")
        assert opponent.post(f"/api/invite/{invite_token(created)}").status_code == 200
        game_id = created["id"]
        assert live(alice)["users"] == [
            {"id": "bob", "username": "bob", "online": True, "playing": False},
            # A game on, no page open: playing, not online.
            {
                "id": "carol",
                "username": "carol",
                "online": False,
                "playing": True,
                "playingId": game_id,
            },
        ]
    clock.advance(1_000)  # the next write: bob's page is closed
    assert live(alice)["users"] == [
        {"id": "carol", "username": "carol", "online": False, "playing": True, "playingId": game_id}
    ]
    assert carol.post(f"/api/board/game/{game_id}/resign").status_code == 200
    assert live(alice) == {"count": 3, "users": []}


def test_a_killed_instance_takes_its_players_offline(client: TestClient, clock: ManualClock):
    alice, bob = Member(client, "alice"), Member(client, "bob")
    alice.post("/api/rel/follow/bob")
    attendance = services_of(client).attendance
    with attendance.hold(bob.id):
        assert client.portal is not None
        client.portal.call(attendance.write)
        assert [u["id"] for u in live(alice)["users"]] == ["bob"]
        runner = attendance._runner
        assert runner is not None
        runner.cancel()  # the instance stops beating (killed): its rows stay
        clock.advance(5_000)  # instance_dead_seconds
        assert live(alice)["users"] == []


def test_a_players_status_says_online_playing_and_whether_you_follow_them(
    client: TestClient, clock: ManualClock
):
    alice, bob = Member(client, "alice"), Member(client, "Bob")
    guest = Player(client, "guest")
    offline = {"id": "bob", "username": "Bob", "online": False, "playing": False}
    assert status(guest, "bob") == offline  # no "following" for a guest
    # Nor for the player themself, who is online on their own profile (reading it) even
    # before the page's socket is counted.
    assert status(bob, "BOB") == {**offline, "online": True}
    assert status(alice, "bob") == {**offline, "following": False, "blocking": False}
    alice.post("/api/rel/follow/bob")
    assert status(alice, "bob") == {**offline, "following": True, "blocking": False}
    with client.websocket_connect("/ws/lobby", headers=bob.headers) as lobby:
        lobby.receive_json()
        clock.advance(1_000)
        game_id = bob.create("jungle")["id"]
        assert guest.post(f"/api/games/{game_id}/join").status_code == 200
        assert status(guest, "bob") == {
            **offline,
            "online": True,
            "playing": True,
            "playingId": game_id,
        }


def test_the_following_stream_reads_a_page_at_a_time_and_loses_no_one(
    client: TestClient, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(service, "PAGE", 2)
    alice = Account(client, "alice")
    names = ["bob", "carol", "dave", "erin", "fred"]
    for name in names:
        Account(client, name)
    for name in names[:3]:  # three at one time: a page ends inside them
        alice.post(f"/api/rel/follow/{name}")
    for name in names[3:]:
        clock.advance(1)
        alice.post(f"/api/rel/follow/{name}")
    # The latest followed first; followed at the same time, by id.
    assert [u["id"] for u in following(alice)] == ["fred", "erin", "bob", "carol", "dave"]


def test_reading_the_followed_counts_as_opening_a_stream(make_client: Any):
    quick = make_client(ratelimit_stream_burst=1, ratelimit_stream_per_s=0.001)
    alice = Account(quick, "alice")
    assert following(alice) == []
    body = assert_error(alice.get("/api/rel/following"), 429, "ratelimit")
    assert body["ratelimit"]["key"] == "stream"
