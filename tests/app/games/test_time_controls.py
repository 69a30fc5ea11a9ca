"""Byo-yomi and correspondence time controls (docs/decisions/time-controls.md): the clock
arithmetic, the server's flags on the ManualClock, creation and its refusals in every API,
and what the browser state and the bot API show."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.botapi.eventlines import ChallengeOut, EventGameOut
from app.botapi.models import GameFullEvent, GameStateEvent
from app.core.time import ManualClock
from app.games.clock import Spent, spend
from tests.app.accounts_and_streams import MATE, Account, Lines, assert_error, challenge, check
from tests.app.conftest import Player, started_game

# What this module tests is the same on either database (tests/app/conftest.py).
pytestmark = pytest.mark.sqlite_only

DAY = 86_400_000
SAFE = MATE[:4]  # four dobutsu moves that end nothing (the fifth mates)
BYOYOMI = {"limit": 1, "byoyomi": 2, "periods": 3}  # 1 s, then 3 periods of 2 s


# ---- the arithmetic ----------------------------------------------------------------------
def test_main_time_runs_first_then_the_periods_one_by_one() -> None:
    assert spend(1000, 3, 2000, 400) == Spent(600, 3, None)
    assert spend(1000, 3, 2000, 1000) == Spent(0, 3, 2000)  # main out: a whole period
    assert spend(1000, 3, 2000, 2500) == Spent(0, 3, 500)  # within the first period
    assert spend(1000, 3, 2000, 3000) == Spent(0, 2, 2000)  # run over: used up
    assert spend(0, 2, 2000, 3999) == Spent(0, 1, 1)
    assert spend(0, 2, 2000, 4000) == Spent(0, 0, 0)  # the last one run over: flagged
    assert spend(1000, None, None, 5000) == Spent(0, None, None)  # Fischer: no periods


# ---- helpers -----------------------------------------------------------------------------
def start(white: Account, black: Account, **body: Any) -> str:
    created = challenge(white, black.username, color="white", **body)
    response = black.post(f"/api/challenge/{created['id']}/accept")
    assert response.status_code == 200, response.text
    return str(created["id"])


def move(who: Account, game_id: str, text: str) -> None:
    response = who.post(f"/api/board/game/{game_id}/move/{text}")
    assert response.status_code == 200, response.text


def state(client: TestClient, game_id: str) -> dict[str, Any]:
    client.cookies.clear()
    response = client.get(f"/api/games/{game_id}")
    assert response.status_code == 200, response.text
    game: dict[str, Any] = response.json()["game"]
    return game


def pair(client: TestClient) -> tuple[Account, Account]:
    return Account(client, "alice"), Account(client, "bobby")


# ---- byo-yomi ----------------------------------------------------------------------------
def test_byoyomi_periods_are_used_up_reset_by_a_move_and_the_last_one_flags(
    client: TestClient, clock: ManualClock
) -> None:
    alice, bob = pair(client)
    game_id = start(alice, bob, clock=BYOYOMI)
    move(alice, game_id, SAFE[0])
    move(bob, game_id, SAFE[1])  # both have moved: white's clock runs
    clock.advance(1000)
    times = state(client, game_id)["clock"]
    assert (times["first"], times["firstPeriods"], times["firstPeriod"]) == (0, 3, 2000)
    assert (times["byoyomi"], times["periods"]) == (2000, 3)
    clock.advance(2500)  # over the first period by 500 ms
    times = state(client, game_id)["clock"]
    assert (times["first"], times["firstPeriods"], times["firstPeriod"]) == (0, 2, 1500)
    move(alice, game_id, SAFE[2])  # within the second period: it is not used up
    times = state(client, game_id)["clock"]
    assert (times["firstPeriods"], times["firstPeriod"]) == (2, 2000)
    assert (times["second"], times["secondPeriods"], times["secondPeriod"]) == (1000, 3, None)
    clock.advance(400)
    move(bob, game_id, SAFE[3])
    assert state(client, game_id)["clock"]["second"] == 600
    clock.advance(3999)  # white: 2 periods of 2 s, all but 1 ms
    game = state(client, game_id)
    assert game["status"] == "started" and game["clock"]["firstPeriods"] == 1
    clock.advance(1)
    game = state(client, game_id)
    assert game["result"] == {"winner": "second", "reason": "outoftime", "status": "outoftime"}
    assert (game["clock"]["first"], game["clock"]["firstPeriods"]) == (0, 0)
    assert (game["clock"]["second"], game["clock"]["secondPeriods"]) == (600, 3)


def test_the_bot_api_shows_byoyomi_in_game_full_and_game_state(
    client: TestClient, clock: ManualClock
) -> None:
    alice, bob = pair(client)
    data = check(ChallengeOut, challenge(alice, "bobby", clock={**BYOYOMI, "limit": 300}))
    assert data["timeControl"] == {
        "type": "clock", "limit": 300, "increment": 0, "show": "5+3×2s",
        "byoyomi": 2, "periods": 3,
    }  # fmt: skip
    assert data["speed"] == "blitz"  # 300 s + 40 × 2 s
    game_id = start(alice, bob, clock=BYOYOMI)
    move(alice, game_id, SAFE[0])
    move(bob, game_id, SAFE[1])
    clock.advance(1500)
    move(alice, game_id, SAFE[2])  # 500 ms into the first period: kept
    with bob.stream(f"/api/board/game/stream/{game_id}") as response:
        full = check(GameFullEvent, Lines(response).next("gameFull"))
    assert full["clock"] == {"initial": 1000, "increment": 0, "byoyomi": 2000, "periods": 3}
    line = check(GameStateEvent, full["state"])
    assert (line["wtime"], line["btime"], line["winc"], line["binc"]) == (0, 1000, 0, 0)
    assert (line["byoyomi"], line["wperiods"], line["bperiods"]) == (2000, 3, 3)
    playing = bob.get("/api/account/playing").json()["nowPlaying"][0]
    check(EventGameOut, playing)
    assert playing["isMyTurn"] and playing["secondsLeft"] == 1 + 3 * 2
    assert playing["speed"] == "bullet"


def test_a_fischer_games_bot_state_has_no_byoyomi_fields(client: TestClient) -> None:
    alice, bob = pair(client)
    game_id = start(alice, bob, clock={"limit": 60, "increment": 1})
    with bob.stream(f"/api/board/game/stream/{game_id}") as response:
        full = Lines(response).next("gameFull")
    assert full["clock"] == {"initial": 60_000, "increment": 1000}
    assert not {"byoyomi", "wperiods", "bperiods"} & set(full["state"])


def test_a_browser_game_with_byoyomi(alice: Player, bob: Player, clock: ManualClock) -> None:
    clock_body = {"minutes": 1, "increment": 0, "byoyomi": 30, "periods": 5}
    created = alice.create(clock=clock_body)
    times = created["game"]["clock"]
    assert (times["first"], times["byoyomi"], times["periods"]) == (60_000, 30_000, 5)
    assert (times["firstPeriods"], times["secondPeriods"], times["increment"]) == (5, 5, 0)
    game_id = started_game(alice, bob, clock=clock_body)
    assert alice.get(f"/api/games/{game_id}").json()["game"]["daysPerTurn"] is None


@pytest.mark.parametrize(
    ("clock_body", "code"),
    [
        ({"minutes": 1, "increment": 0, "byoyomi": 30, "periods": 0}, "clock.invalid"),
        ({"minutes": 1, "increment": 0, "byoyomi": 30, "periods": 11}, "clock.invalid"),
        ({"minutes": 1, "increment": 0, "byoyomi": 0, "periods": 3}, "clock.invalid"),
        ({"minutes": 1, "increment": 0, "byoyomi": 181, "periods": 3}, "clock.invalid"),
        ({"minutes": 1, "increment": 2, "byoyomi": 30, "periods": 3}, "clock.invalid"),
    ],
)
def test_bad_byoyomi_is_refused_and_creates_nothing(
    alice: Player, clock_body: dict[str, Any], code: str
) -> None:
    response = alice.post("/api/games", {"variant": "dobutsu", "clock": clock_body})
    assert_error(response, 400, code)
    assert alice.get("/api/lobby").json()["open"] == []


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"clock": {"limit": 60, "byoyomi": 10, "periods": 0}}, "clock.invalid"),
        ({"clock": {"limit": 60, "byoyomi": 10, "periods": 3, "increment": 1}}, "clock.invalid"),
        ({"clock": {"limit": 60, "periods": 3}}, "clock.invalid"),
        ({"clock": {"limit": 60}, "days": 2}, "request.invalid"),
        ({"days": 4}, "request.invalid"),
    ],
)
def test_bad_time_controls_in_a_challenge_are_refused(
    client: TestClient, body: dict[str, Any], code: str
) -> None:
    alice, _bob = pair(client)
    assert_error(alice.post("/api/challenge/bobby", {"variant": "dobutsu", **body}), 400, code)
    assert alice.get("/api/challenge").json()["out"] == []


def test_a_seek_with_byoyomi_pairs_only_with_the_same_clock(make_client: Any) -> None:
    fast = make_client(keepalive_seconds=0.1)
    browser = Player(fast, "browser")
    fischer = browser.create("yote", clock={"minutes": 1, "increment": 0}, color="second")
    byoyomi = {"minutes": 1, "increment": 0, "periods": 2}
    other = browser.create("yote", clock={**byoyomi, "byoyomi": 5}, color="second")
    good = browser.create("yote", clock={**byoyomi, "byoyomi": 10}, color="second")
    alice = Account(fast, "alice")
    seek = {"variant": "yote", "time": 1, "byoyomi": 10, "periods": 2}
    with alice.stream("/api/board/seek", method="POST", json=seek) as response:
        assert Lines(response).rest() == [{"id": good["id"]}]
    for untouched in (fischer, other):
        assert state(fast, untouched["id"])["status"] == "created"
    bad = {**seek, "periods": 0}
    assert_error(alice.post("/api/board/seek", bad), 400, "clock.invalid")


# ---- correspondence ----------------------------------------------------------------------
def pass_time(clock: ManualClock, ms: int) -> None:
    """``ms`` pass, the last second of them run: the server's every-second loops (presence,
    pools, seeks) run once for the hours skipped, as for a server too busy to run them, and
    what fell due in them (a deadline) runs then, late, judged by the time."""
    clock.jump(max(0, ms - 1000))
    clock.advance(min(ms, 1000))


def test_correspondence_days_run_from_the_start_and_a_late_first_move_is_no_start(
    client: TestClient, clock: ManualClock
) -> None:
    alice, bob = pair(client)
    game_id = start(alice, bob, days=1)
    game = state(client, game_id)
    assert game["daysPerTurn"] == 1 and game["clock"] is None
    assert game["deadline"] == game["startedAt"] + DAY
    pass_time(clock, 3_600_000)  # an hour: no first-move deadline of seconds here
    assert state(client, game_id)["status"] == "started"
    pass_time(clock, DAY - 3_600_000)
    game = state(client, game_id)
    assert game["result"] == {"winner": None, "reason": "first_move", "status": "noStart"}


def test_correspondence_a_move_restarts_the_days_and_running_out_loses(
    client: TestClient, clock: ManualClock
) -> None:
    alice, bob = pair(client)
    game_id = start(alice, bob, days=2)
    pass_time(clock, DAY)
    move(alice, game_id, SAFE[0])
    pass_time(clock, DAY)
    move(bob, game_id, SAFE[1])
    moved = clock.now_ms()
    assert state(client, game_id)["deadline"] == moved + 2 * DAY
    with alice.stream(f"/api/board/game/stream/{game_id}") as response:
        full = check(GameFullEvent, Lines(response).next("gameFull"))
    assert full["speed"] == "correspondence" and full["daysPerTurn"] == 2
    assert full["clock"] is None
    assert (full["state"]["wtime"], full["state"]["btime"]) == (2 * DAY, 2 * DAY)
    pass_time(clock, DAY)
    playing = check(EventGameOut, alice.get("/api/account/playing").json()["nowPlaying"][0])
    assert playing["isMyTurn"] and playing["secondsLeft"] == DAY // 1000
    assert playing["speed"] == "correspondence"
    theirs = bob.get("/api/account/playing").json()["nowPlaying"][0]
    assert not theirs["isMyTurn"] and theirs["secondsLeft"] == 2 * DAY // 1000
    with alice.stream(f"/api/board/game/stream/{game_id}") as response:
        full = Lines(response).next("gameFull")
    assert (full["state"]["wtime"], full["state"]["btime"]) == (DAY, 2 * DAY)
    pass_time(clock, DAY - 1)
    assert state(client, game_id)["status"] == "started"
    pass_time(clock, 1)
    game = state(client, game_id)
    assert game["result"] == {"winner": "second", "reason": "outoftime", "status": "outoftime"}


def test_a_browser_correspondence_game_and_its_refusals(
    alice: Player, bob: Player, clock: ManualClock
) -> None:
    game_id = started_game(alice, bob, days=3)
    game = alice.get(f"/api/games/{game_id}").json()["game"]
    assert game["daysPerTurn"] == 3 and game["deadline"] == clock.now_ms() + 3 * DAY
    for body, code in (
        ({"days": 4}, "request.invalid"),
        ({"days": 0}, "request.invalid"),
        ({"days": 2, "clock": {"minutes": 5, "increment": 0}}, "request.invalid"),
    ):
        response = alice.post("/api/games", {"variant": "dobutsu", "public": False, **body})
        assert_error(response, 400, code)
    playing = alice.get("/api/account/playing").json()["nowPlaying"]
    assert [g["id"] for g in playing] == [game_id]


def test_no_claim_and_no_opponent_gone_in_a_correspondence_game(
    client: TestClient, clock: ManualClock
) -> None:
    alice, bob = pair(client)
    game_id = start(alice, bob, days=1)
    move(alice, game_id, SAFE[0])
    move(bob, game_id, SAFE[1])
    pass_time(clock, 600_000)  # bob is gone long past every grace period
    response = alice.post(f"/api/board/game/{game_id}/claim-victory")
    assert_error(response, 409, "claim.correspondence")
    with alice.stream(f"/api/board/game/stream/{game_id}") as response:
        lines = Lines(response)
        lines.next("gameFull")
        move(alice, game_id, SAFE[2])
        assert lines.next("gameState")["ply"] == 3
    assert state(client, game_id)["status"] == "started"
