"""One pairing round of a quick-pairing pool (app/matchmaking/pairing.py)."""

from __future__ import annotations

import random

from app.matchmaking.pairing import (
    CASUAL_AFTER_MS,
    MAX_GAP,
    START_GAP,
    WAITED_ENOUGH_MS,
    Seeker,
    allowed_gap,
    pair,
)

NOW = 1_000_000


def seeker(n: int, rating: float, waited_s: float = 0, **kw: object) -> Seeker:
    return Seeker(
        entry_id=f"e{n}",
        player_id=kw.pop("player_id", f"p{n}"),  # type: ignore[arg-type]
        rating=rating,
        joined_ms=NOW - int(waited_s * 1000),
        rated=kw.pop("rated", True),  # type: ignore[arg-type]
        rating_range=kw.pop("rating_range", None),  # type: ignore[arg-type]
    )


def ids(pairs: list[tuple[Seeker, Seeker]]) -> set[frozenset[str]]:
    return {frozenset((a.entry_id, b.entry_id)) for a, b in pairs}


def test_the_closest_ratings_are_paired() -> None:
    pairs = pair([seeker(1, 1500), seeker(2, 1900), seeker(3, 1530), seeker(4, 1880)], NOW)
    assert ids(pairs) == {frozenset({"e1", "e3"}), frozenset({"e2", "e4"})}


def test_far_ratings_wait_at_first_then_the_window_widens() -> None:
    a, b = seeker(1, 1500), seeker(2, 1800)
    assert pair([a, b], NOW) == []
    # 300 apart: allowed once both waited (300 - 100) / 10 = 20 s.
    assert pair([a, b], NOW + 19_000) == []
    assert ids(pair([a, b], NOW + 20_000)) == {frozenset({"e1", "e2"})}


def test_the_newcomer_decides_how_far_a_pair_may_be() -> None:
    veteran, newcomer = seeker(1, 1500, waited_s=50), seeker(2, 1800)
    assert pair([veteran, newcomer], NOW) == []


def test_after_a_minute_anyone_is_paired() -> None:
    assert allowed_gap(WAITED_ENOUGH_MS) == float("inf")
    pairs = pair([seeker(1, 800, waited_s=61), seeker(2, 2700, waited_s=60)], NOW)
    assert len(pairs) == 1


def test_the_window_starts_at_100_and_is_capped() -> None:
    assert allowed_gap(0) == START_GAP
    assert allowed_gap(59_999) == MAX_GAP


def test_a_rating_range_is_a_hard_limit() -> None:
    picky = seeker(1, 1500, waited_s=90, rating_range=(1450, 1550))
    assert pair([picky, seeker(2, 1600, waited_s=90)], NOW) == []
    assert len(pair([picky, seeker(3, 1540, waited_s=90)], NOW)) == 1
    # Both ranges must hold: the other player's range excludes the picky one.
    other = seeker(4, 1520, waited_s=90, rating_range=(1600, 1700))
    assert pair([picky, other], NOW) == []


def test_rated_searches_pair_together_and_casual_ones_together_first() -> None:
    pairs = pair(
        [
            seeker(1, 1500, waited_s=90),
            seeker(2, 1500, waited_s=90, rated=False),
            seeker(3, 1500, waited_s=90, rated=False),
            seeker(4, 1500, waited_s=90),
        ],
        NOW,
    )
    assert ids(pairs) == {frozenset({"e1", "e4"}), frozenset({"e2", "e3"})}


def test_a_rated_search_alone_meets_a_casual_one_after_the_wait() -> None:
    account = seeker(1, 2200)  # far from the casual side's 1500: no rating window applies
    guest = seeker(2, 1500, waited_s=60, rated=False)
    assert pair([account, guest], NOW) == []
    assert pair([account, guest], NOW + CASUAL_AFTER_MS - 1) == []
    ((first, second),) = pair([account, guest], NOW + CASUAL_AFTER_MS)
    assert (first.entry_id, second.entry_id) == ("e2", "e1")  # the guest waited longer


def test_a_rated_opponent_in_the_window_comes_before_a_casual_game() -> None:
    later = NOW + CASUAL_AFTER_MS
    account = seeker(1, 1500)
    rival = Seeker("e3", "p3", 1520, later, True)  # arrives just as the wait is over
    guest = seeker(2, 1500, rated=False)
    assert ids(pair([account, guest, rival], later)) == {frozenset({"e1", "e3"})}


def test_the_wait_is_the_rated_searchs_and_ranges_still_hold() -> None:
    fresh = seeker(1, 1500)
    guest = seeker(2, 1500, waited_s=90, rated=False)
    assert pair([fresh, guest], NOW) == []  # the guest's long wait does not count
    picky = seeker(3, 1800, waited_s=90, rating_range=(1700, 1900))
    assert pair([picky, guest], NOW) == []
    assert len(pair([picky, guest, seeker(4, 1750, rated=False)], NOW)) == 1


def test_nobody_plays_themselves_and_no_player_is_paired_twice() -> None:
    twice = [seeker(1, 1500, player_id="same"), seeker(2, 1510, player_id="same")]
    assert pair(twice, NOW) == []
    many = [seeker(n, 1500 + n, player_id=f"p{n % 5}") for n in range(20)]
    players = [p.player_id for a, b in pair(many, NOW) for p in (a, b)]
    assert len(players) == len(set(players))


def test_the_longer_waiter_is_named_first() -> None:
    ((first, second),) = pair([seeker(1, 1500), seeker(2, 1500, waited_s=5)], NOW)
    assert (first.entry_id, second.entry_id) == ("e2", "e1")


def test_a_big_pool_pairs_nearly_everyone_close_in_rating() -> None:
    rng = random.Random(7)
    crowd = [seeker(n, rng.gauss(1500, 250), waited_s=rng.uniform(0, 10)) for n in range(2000)]
    pairs = pair(crowd, NOW)
    entries = [s.entry_id for a, b in pairs for s in (a, b)]
    assert len(entries) == len(set(entries))
    assert len(pairs) >= 900  # a dense pool leaves few alone (the far tails wait)
    assert all(abs(a.rating - b.rating) <= allowed_gap(10_000) for a, b in pairs)


def test_two_of_whom_one_blocks_the_other_are_never_paired() -> None:
    a, b = seeker(1, 1500, waited_s=120), seeker(2, 1500, waited_s=120)
    c = seeker(3, 1900, waited_s=120)  # far, but everyone waited long enough
    apart = {frozenset(("p1", "p2"))}
    assert ids(pair([a, b], NOW, apart)) == set()  # however long both waited
    assert ids(pair([a, b, c], NOW, apart)) == {frozenset({"e1", "e3"})}
    # Across the kinds too: a rated search and a casual one left over.
    casual = seeker(4, 1500, rated=False, player_id="p1")
    assert ids(pair([b, casual], NOW, apart)) == set()
    assert ids(pair([b, casual], NOW)) == {frozenset({"e2", "e4"})}
