"""Presence over several instances (app/realtime/presencefeed.py): what the others report
counts until
it expires; spectators' comings and goings are told coalesced; two app instances on one
PostgreSQL see each other's players and spectators, and claims count both."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.time import ManualClock
from app.main import create_app
from app.realtime.hub import LocalHub
from app.realtime.messages import PRESENCE_CHANNEL, HubCodec, game_channel
from app.realtime.presence import GamePresence, Presence, PresenceChanged, PresenceReport
from app.realtime.presencefeed import CROWD_SENDS_PER_S, MISSED_BEATS, PresenceFeed
from tests.app.conftest import Player, make_settings, receive, send, started_game

KEEP_MS = 30_000


def _entry(game_id: str = "g", **fields: Any) -> GamePresence:
    values: dict[str, Any] = {
        "first": False, "second": False, "spectators": 0,
        "first_left": None, "second_left": None, "seen": 1_800_000_000_000,
    }  # fmt: skip
    values.update(fields)
    return GamePresence(game_id, **values)


def test_another_instances_players_and_spectators_count_until_its_report_expires():
    clock = ManualClock()
    presence = Presence(clock.now_ms, keep_idle_ms=KEEP_MS)
    presence.join("g", "first")
    presence.join("g", None)
    presence.receive("other", (_entry(second=True, spectators=2),), keep_ms=15_000)
    assert presence.online("g", "second") and not presence.online_here("g", "second")
    assert presence.spectators("g") == 3
    assert presence.gone_for_ms("g", "second") is None
    assert presence.message("g") == PresenceChanged("g", None, True, True, 3)
    clock.jump(14 * 1000)
    assert presence.expire() == set()  # renewed in time: still there
    clock.jump(1 * 1000)
    assert presence.expire() == {"g"}  # the instance stopped beating (killed, say)
    assert not presence.online("g", "second")
    assert presence.spectators("g") == 1
    clock.jump(5 * 1000)
    assert presence.gone_for_ms("g", "second") == 5_000  # gone since the report expired


def test_a_seat_counts_as_gone_since_its_latest_departure_anywhere():
    clock = ManualClock()
    presence = Presence(clock.now_ms, keep_idle_ms=KEEP_MS)
    presence.join("g", "first")
    presence.join("g", "second")
    presence.leave("g", "second")  # left here at t0
    clock.jump(10 * 1000)
    left_there = clock.now_ms() - 4_000  # and from the other instance 6 s later
    presence.receive("other", (_entry(second_left=left_there),), keep_ms=15_000)
    assert presence.gone_for_ms("g", "second") == 4_000


def test_a_seat_never_seen_counts_from_when_the_first_instance_saw_the_game():
    clock = ManualClock()
    presence = Presence(clock.now_ms, keep_idle_ms=KEEP_MS)
    presence.receive("other", (_entry(first=True, seen=clock.now_ms() - 8_000),), keep_ms=15_000)
    presence.join("g", "first")  # here too, later
    assert presence.gone_for_ms("g", "second") == 8_000


def test_reports_cross_instances_as_json_and_back():
    report = PresenceReport("abc", (_entry(first=True, spectators=4, second_left=12),), True)
    assert HubCodec.decode(HubCodec.encode(report)) == report
    assert HubCodec.decode(HubCodec.encode(PresenceReport("abc", ()))) == PresenceReport("abc", ())


async def _turns() -> None:
    for _ in range(3):
        await asyncio.sleep(0)


def test_a_crowd_forming_is_told_once_per_flush_not_once_per_spectator():
    clock = ManualClock()

    async def scenario() -> tuple[int, int, PresenceChanged]:
        hub = LocalHub()
        presence = Presence(clock.now_ms, keep_idle_ms=KEEP_MS)
        presence.ply["g"] = 0
        feed = PresenceFeed(presence, hub, clock, flush_ms=3_600_000)  # an hour: no timer fires
        async with hub.subscribe(game_channel("g")) as watcher:
            feed.join("g", "first")  # a player: told at once
            await _turns()  # (the loop runs the flush it scheduled)
            told_first = watcher.queue.qsize()
            for _ in range(500):
                feed.join("g", None)
            await _turns()
            told_crowd = watcher.queue.qsize() - told_first
            feed.flush()  # what the timer does once the interval has passed
            last = None
            while not watcher.queue.empty():
                last = watcher.queue.get_nowait()
            assert isinstance(last, PresenceChanged)
            await feed.stop()
            return told_first, told_crowd, last

    told_first, told_crowd, last = asyncio.run(scenario())
    assert told_first == 1
    assert told_crowd == 0  # 500 arrivals, nothing yet
    # The second seat was never taken here: gone since the game was first seen (now).
    assert last == PresenceChanged("g", 0, True, False, 500, None, clock.now_ms())


def test_reports_expire_after_missed_beats():
    async def scenario() -> None:
        clock = ManualClock()
        presence = Presence(clock.now_ms, keep_idle_ms=KEEP_MS)
        feed = PresenceFeed(presence, LocalHub(), clock, flush_ms=0, beat_ms=5_000, instance="me")
        feed.received(PresenceReport("me", (_entry(first=True),)))  # its own: ignored
        assert not presence.online("g", "first")
        feed.received(PresenceReport("other", (_entry(first=True),)))
        assert presence.online("g", "first")
        clock.jump(5 * MISSED_BEATS * 1000)
        assert presence.expire() == set()
        clock.jump(5 * 1000)
        assert presence.expire() == {"g"}
        await feed.stop()

    asyncio.run(scenario())


class _SharedHub(LocalHub):
    """The in-process hub, as if other instances listened: the feed beats and reports."""

    shared = True


def test_the_heartbeat_runs_on_the_injected_clock():
    async def scenario() -> None:
        clock = ManualClock()
        presence = Presence(clock.now_ms, keep_idle_ms=KEEP_MS)
        hub = _SharedHub()
        feed = PresenceFeed(presence, hub, clock, flush_ms=0, beat_ms=5_000, instance="me")
        async with hub.subscribe(PRESENCE_CHANNEL) as other:
            await feed.start()
            presence.join("g", "first")
            feed.received(PresenceReport("other", (_entry(second=True),)))
            await _turns()
            while not other.queue.empty():
                other.queue.get_nowait()  # the hello, and what the report changed
            await clock.advance_async(5_000)  # one beat: everything here is reported
            beats = [m for m in _drain(other) if isinstance(m, PresenceReport)]
            assert [(b.instance, [g.game_id for g in b.games]) for b in beats] == [("me", ["g"])]
            assert presence.online("g", "second")
            await clock.advance_async(5_000 * MISSED_BEATS)  # the other's report expired
            assert not presence.online("g", "second")
            await feed.stop()

    asyncio.run(scenario())


def _drain(sub: Any) -> list[object]:
    out = []
    while not sub.queue.empty():
        out.append(sub.queue.get_nowait())
    return out


# ---- two real app instances on one PostgreSQL ------------------------------------------------
@pytest.fixture
def two_instances(postgres_url: str, tmp_path: Path) -> Iterator[tuple[TestClient, TestClient]]:
    settings = {"presence_flush_seconds": 0, "gone_seconds": 0, "gone_unmoved_seconds": 0}
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    one = TestClient(create_app(make_settings(postgres_url, tmp_path / "one", **settings)))
    two = TestClient(create_app(make_settings(postgres_url, tmp_path / "two", **settings)))
    with one, two:
        yield one, two


def _presence_until(ws: Any, **expected: Any) -> dict[str, Any]:
    for _ in range(30):
        message = receive(ws, "presence")
        if all(message[key] == value for key, value in expected.items()):
            return message
    raise AssertionError(f"presence never became {expected}")


def _on(client: TestClient, player: Player) -> Player:
    """The same person (their cookie) talking to another instance."""
    there = Player(client, player.label)
    there.who, there.cookie = player.who, player.cookie
    return there


def test_players_and_spectators_on_two_instances_see_each_other_and_claims_count_both(
    two_instances,
):
    one, two = two_instances
    alice, bob, carol = Player(one, "alice"), Player(one, "bob"), Player(two, "carol")
    game_id = started_game(alice, bob)
    bob_two = _on(two, bob)
    with alice.socket(game_id) as a:
        receive(a, "state")
        with bob_two.socket(game_id) as b, carol.socket(game_id) as c:
            receive(b, "state")
            receive(c, "state")
            both = {"first": True, "second": True}
            _presence_until(a, online=both, spectators=1)
            _presence_until(b, online=both, spectators=1)
            _presence_until(c, online=both, spectators=1)
            # bob is connected, to the other instance: no claim against him
            send(a, type="claim", result="victory")
            assert receive(a, "error")["code"] == "claim.opponent_present"
            send(a, type="move", move="b2b3", ply=0)
            assert receive(b, "move")["ply"] == 1
            assert receive(c, "move")["ply"] == 1
        _presence_until(a, online={"first": True, "second": False}, spectators=0)
        send(a, type="claim", result="victory")  # gone (no grace in this test): claimed
        ended = receive(a, "state")["game"]
    assert ended["result"] == {"winner": "first", "reason": "opponent_gone", "status": "timeout"}


def test_a_large_crowd_is_told_less_often():
    async def scenario() -> float:
        clock = ManualClock()
        presence = Presence(clock.now_ms, keep_idle_ms=KEEP_MS)
        feed = PresenceFeed(presence, LocalHub(), clock, flush_ms=1000)
        for _ in range(2000):
            feed.join("g", None)
        await _turns()  # the first change was told at once; the rest wait
        feed.join("g", None)
        assert feed._flush is not None
        interval = feed._flush_at - feed._last_flush
        await feed.stop()
        return interval

    assert asyncio.run(scenario()) == pytest.approx(2001 / CROWD_SENDS_PER_S)
