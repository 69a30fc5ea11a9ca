"""Presence in memory: what is kept for a game after everyone left, and for how long."""

from __future__ import annotations

from app.core.time import ManualClock
from app.realtime.presence import Presence

KEEP_MS = 30_000


def test_memory_stays_bounded_after_a_thousand_games_watched_and_left():
    clock = ManualClock()
    presence = Presence(clock.now_ms, keep_idle_ms=KEEP_MS)
    for number in range(1000):
        game_id = f"game{number}"
        presence.ply[game_id] = 0
        presence.join(game_id, "first")
        presence.join(game_id, "second")
        presence.join(game_id, None)
        presence.leave(game_id, None)
        presence.leave(game_id, "second")
        presence.leave(game_id, "first")
        presence.forget_if_idle(game_id)
        clock.advance(10)
    clock.advance(KEEP_MS)
    presence.join("still-watched", "first")
    tables = {name: len(kept) for name, kept in vars(presence).items() if isinstance(kept, dict)}
    # What is left: the game still watched (its seat, and when it was first seen).
    assert sum(tables.values()) == 2, tables


def test_a_game_is_forgotten_only_after_being_idle_for_the_whole_period():
    clock = ManualClock()
    presence = Presence(clock.now_ms, keep_idle_ms=KEEP_MS)
    presence.join("g", "first")
    presence.join("g", "second")
    presence.leave("g", "second")  # second gone from here on
    clock.advance(5_000)
    presence.leave("g", "first")  # nobody left: the game is idle from now
    clock.advance(KEEP_MS - 1)
    assert presence.gone_for_ms("g", "second") == 5_000 + KEEP_MS - 1
    presence.join("g", "first")  # back just in time: second's count goes on
    clock.advance(1_000)
    assert presence.gone_for_ms("g", "second") == 6_000 + KEEP_MS - 1
    presence.leave("g", "first")
    clock.advance(KEEP_MS)
    # Idle for the whole period: forgotten, even with nothing else happening meanwhile.
    assert presence.gone_for_ms("g", "second") == 0
    presence.join("g", "first")
    clock.advance(2_000)
    assert presence.gone_for_ms("g", "second") == 2_000  # counted from the return


def test_a_spectator_keeps_a_game_remembered():
    clock = ManualClock()
    presence = Presence(clock.now_ms, keep_idle_ms=KEEP_MS)
    presence.join("g", None)
    presence.join("g", "first")
    presence.leave("g", "first")
    clock.advance(10 * KEEP_MS)
    presence.join("other", None)  # activity elsewhere forgets idle games, not this one
    assert presence.gone_for_ms("g", "first") == 10 * KEEP_MS
    assert presence.spectators("g") == 1
