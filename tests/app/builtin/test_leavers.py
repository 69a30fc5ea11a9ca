"""The built-in opponents and the players who leave them: on the server's clock, a visitor
who closes the page is claimed against (or the game aborted before both have moved) once the
grace period has passed; meanwhile, and after, the game holds none of the level's seats; the
seats the lobby shows. The test plays the bots' part with their tokens (no bot process: the
server ends the games, not the bots)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.builtin.seats import SEATS, SWEEP_S, Seats, seats_of
from app.builtin.service import BuiltinBots
from app.core.time import ManualClock
from tests.app.accounts_and_streams import MATE, services_of
from tests.app.conftest import Player, move_at, receive, send

GONE_MS = 30_000  # the default gone_seconds: the grace once the leaver has moved
UNMOVED_MS = 15_000  # the default gone_unmoved_seconds: before the leaver's first move
SWEEP_MS = int(SWEEP_S * 1000)


class NoProcess(BuiltinBots):
    """The bots' instance without the child process: the accounts, tokens minted once (the
    test plays with them) and the sweep of abandoned games, on the test's clock."""

    tokens: dict[str, str] | None = None

    async def ensure_accounts(self) -> dict[str, str]:
        if self.tokens is None:
            self.tokens = await super().ensure_accounts()
        return self.tokens

    async def _run_once(self, tokens: dict[str, str]) -> None:
        await asyncio.Event().wait()  # "running" until stopped


def start_bots(client: TestClient, clock: ManualClock) -> NoProcess:
    services = services_of(client)
    seats = Seats(services.games.sessions, services.games, services.presence)
    bots = NoProcess(services.accounts, "http://unused", clock, levels=["hard"], seats=seats)
    portal = client.portal
    assert portal is not None
    portal.call(bots.ensure_accounts)
    portal.call(bots.start)

    async def sweeping() -> None:
        while not bots.holding:  # the lease taken (at once: one instance), the sweep begun
            await asyncio.sleep(0)
        for _ in range(10):
            await asyncio.sleep(0)

    portal.call(sweeping)
    return bots


class Bot:
    """kodama-hard, played by the test with its token."""

    def __init__(self, client: TestClient, bots: NoProcess) -> None:
        assert bots.tokens is not None
        self.client = client
        self.headers = {"authorization": f"Bearer {bots.tokens['kodama-hard']}"}

    def post(self, url: str) -> Any:
        self.client.cookies.clear()
        answer = self.client.post(url, headers=self.headers)
        assert answer.status_code == 200, answer.text
        return answer.json()

    def accept(self, challenge_id: str) -> None:
        self.post(f"/api/challenge/{challenge_id}/accept")

    def move(self, game_id: str, move: str) -> None:
        self.post(f"/api/bot/game/{game_id}/move/{move}")

    def playing(self, game_id: str) -> Any:
        """The bot's stream of the game, open as a bot's is while it plays (the game's
        presence is remembered while someone is connected: docs/decisions/absent-players.md)."""
        self.client.cookies.clear()
        return self.client.stream("GET", f"/api/bot/game/stream/{game_id}", headers=self.headers)


def bots_stop(client: TestClient, bots: NoProcess) -> None:
    assert client.portal is not None
    client.portal.call(bots.stop)


def challenge(visitor: Player, **body: Any) -> str:
    answer = visitor.post("/api/challenge/kodama-hard", {"variant": "dobutsu", **body})
    assert answer.status_code == 200, answer.text
    assert answer.json()["status"] == "created"
    game_id: str = answer.json()["id"]
    return game_id


def status(client: TestClient, game_id: str) -> str:
    found: str = client.get(f"/api/games/{game_id}").json()["game"]["status"]
    return found


def live(client: TestClient) -> list[str]:
    return [game["id"] for game in client.get("/api/lobby").json()["live"]]


def hard_seats(client: TestClient) -> dict[str, Any]:
    rows = client.get("/api/builtin/seats").json()
    found: dict[str, Any] = next(r for r in rows if r["username"] == "kodama-hard")
    return found


def plays_two_moves_and_leaves(visitor: Player, bot: Bot, game_id: str) -> None:
    """The visitor (first) and the bot move twice each, then the visitor closes the page."""
    with visitor.socket(game_id) as ws:
        receive(ws, "state")
        for ply in range(4):
            if ply % 2 == 0:
                send(ws, type="move", move=MATE[ply], ply=ply)
            else:
                bot.move(game_id, MATE[ply])
            move_at(ws, ply + 1)


def claimed_after_the_grace(
    client: TestClient, clock: ManualClock, game_id: str, grace_ms: int, ended: str
) -> None:
    """Not ended before ``grace_ms`` of absence; ended (``ended``) within a sweep after."""
    clock.advance(grace_ms - SWEEP_MS)
    assert status(client, game_id) == "started"
    assert game_id in live(client)
    clock.advance(2 * SWEEP_MS)
    assert status(client, game_id) == ended
    assert game_id not in live(client)


def test_a_leaver_of_a_no_clock_game_is_claimed_against_and_the_next_visitor_plays(
    make_client, clock: ManualClock
) -> None:
    client = make_client()
    bots = start_bots(client, clock)
    bot = Bot(client, bots)
    leaver, next_one = Player(client, "leaver"), Player(client, "next")
    game_id = challenge(leaver, color="white")  # no clock: unlimited
    bot.accept(game_id)
    with bot.playing(game_id):
        with leaver.socket(game_id) as ws:
            receive(ws, "state")
            shown = hard_seats(client)
            assert shown["taken"] == 1 and shown["free"] == shown["seats"] - 1
        plays_two_moves_and_leaves(leaver, bot, game_id)
        # Gone: the game holds no seat, though it goes on until the grace period has passed.
        assert hard_seats(client)["taken"] == 0
        claimed_after_the_grace(client, clock, game_id, GONE_MS, "timeout")
    result = client.get(f"/api/games/{game_id}").json()["game"]["result"]
    assert result == {"winner": "second", "reason": "opponent_gone", "status": "timeout"}
    # The next visitor is taken on.
    second = challenge(next_one, color="white")
    bot.accept(second)
    with next_one.socket(second) as ws:
        receive(ws, "state")
        assert hard_seats(client)["taken"] == 1
    bots_stop(client, bots)


def test_a_leaver_of_a_clocked_game_is_claimed_against_before_the_flag(
    make_client, clock: ManualClock
) -> None:
    client = make_client()
    bots = start_bots(client, clock)
    bot = Bot(client, bots)
    leaver = Player(client, "leaver")
    game_id = challenge(leaver, color="white", clock={"limit": 600, "increment": 0})
    bot.accept(game_id)
    with bot.playing(game_id):
        plays_two_moves_and_leaves(leaver, bot, game_id)
        claimed_after_the_grace(client, clock, game_id, GONE_MS, "timeout")
    bots_stop(client, bots)


def test_a_game_left_before_both_have_moved_is_aborted(make_client, clock: ManualClock) -> None:
    client = make_client()
    bots = start_bots(client, clock)
    bot = Bot(client, bots)
    leaver = Player(client, "leaver")
    game_id = challenge(leaver, color="black")
    bot.accept(game_id)
    with bot.playing(game_id):
        with leaver.socket(game_id) as ws:
            receive(ws, "state")
            bot.move(game_id, MATE[0])
            move_at(ws, 1)
        # Unmoved: the shorter grace, and an abort (nobody wins a game that never began).
        claimed_after_the_grace(client, clock, game_id, UNMOVED_MS, "aborted")
    bots_stop(client, bots)


def test_a_player_who_comes_back_in_time_keeps_the_game(make_client, clock: ManualClock) -> None:
    client = make_client()
    bots = start_bots(client, clock)
    bot = Bot(client, bots)
    player = Player(client, "player")
    game_id = challenge(player, color="white")
    bot.accept(game_id)
    with bot.playing(game_id):
        plays_two_moves_and_leaves(player, bot, game_id)
        clock.advance(GONE_MS - SWEEP_MS)
        with player.socket(game_id) as ws:
            receive(ws, "state")
            clock.advance(2 * GONE_MS)  # connected: never claimed against, past the grace
            assert status(client, game_id) == "started"
            assert hard_seats(client)["taken"] == 1
    bots_stop(client, bots)


def test_the_seats_list_the_builtin_accounts_that_exist(
    make_client,
) -> None:
    client = make_client()
    assert client.get("/api/builtin/seats").json() == []  # no built-in accounts here
    bots = NoProcess(services_of(client).accounts, "http://unused", ManualClock())
    assert client.portal is not None
    client.portal.call(bots.ensure_accounts)
    rows = client.get("/api/builtin/seats").json()
    assert [(r["username"], r["taken"], r["free"] == r["seats"]) for r in rows] == [
        ("kodama-random", 0, True),
        ("kodama-easy", 0, True),
        ("kodama-medium", 0, True),
        ("kodama-hard", 0, True),
    ]


def test_a_level_is_busy_while_its_seats_hold_connected_opponents(
    make_client, clock: ManualClock
) -> None:
    client = make_client(builtin_seats={"hard": 2})
    bots = start_bots(client, clock)
    bot = Bot(client, bots)
    one, two = Player(client, "one"), Player(client, "two")
    first, second = challenge(one, color="white"), challenge(two, color="white")
    bot.accept(first)
    bot.accept(second)
    with one.socket(first) as a:
        receive(a, "state")
        with two.socket(second) as b:
            receive(b, "state")
            assert hard_seats(client) == {
                "username": "kodama-hard",
                "seats": 2,
                "taken": 2,
                "free": 0,
                "perfs": {},  # not rated yet
            }
        # One tab closed: a seat is free at once, the game still on for its grace period.
        assert hard_seats(client)["free"] == 1
        assert status(client, second) == "started"
    assert hard_seats(client)["free"] == 2
    bots_stop(client, bots)


def test_the_seats_of_a_level_may_be_set_and_must_be_one_at_least() -> None:
    assert seats_of({"hard": 5}) == {**SEATS, "hard": 5}
    for wrong in ({"hard": 0}, {"impossible": 3}):
        with pytest.raises(ValueError, match="built-in seats"):
            seats_of(wrong)
