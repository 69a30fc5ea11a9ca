"""An arena's pairing wave: neighbours in the standings, never the last opponent while
someone else may come free, colours evened out."""

from __future__ import annotations

from app.tournaments.pairing import Waiting, colour_balance, wave


def w(pid: str, last: str | None = None, firsts: int = 0) -> Waiting:
    return Waiting(pid, last, firsts)


def test_neighbours_in_the_standings_are_paired():
    assert wave([w("a"), w("b"), w("c"), w("d")], 4) == [("a", "b"), ("c", "d")]


def test_the_last_opponent_is_skipped_for_the_next_one_down():
    # a just played b: a meets c, and b meets d.
    got = wave([w("a", "b"), w("b", "a"), w("c", "d"), w("d", "c")], 4)
    assert got == [("a", "c"), ("b", "d")]


def test_two_who_just_played_wait_for_someone_else():
    assert wave([w("a", "b"), w("b", "a")], 4) == []
    # ... unless nobody else is in the event.
    assert wave([w("a", "b"), w("b", "a")], 2) == [("a", "b")]


def test_who_moved_first_more_often_moves_second():
    assert wave([w("a", firsts=1), w("b", firsts=0)], 2) == [("b", "a")]
    assert colour_balance([("a", "b"), ("a", "c")]) == {"a": 2, "b": -1, "c": -1}
