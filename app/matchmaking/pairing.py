"""One pairing round of a pool, as arithmetic: who plays whom among the players waiting.

As lichess's pools do, a pair is allowed when the two ratings are close enough, and "close
enough" widens with the time both have waited: a newcomer is first offered the nearest
opponents, and anyone who waits long enough is paired with whoever is there. A rating range
a player set is a hard limit (both ranges must hold the other's rating). Rated searches
(accounts) pair with rated searches, and casual ones (anonymous players, and accounts that
asked for a casual game) with casual ones, first; a rated search still unpaired once it has
waited ``CASUAL_AFTER_MS`` is paired with a casual search left over, for a casual game (a
rated game needs two accounts), whatever the two ratings (a casual game changes none, and an
anonymous player has none): nobody waits for a player the server would never pair them with
(docs/decisions/quick-pairing.md).

Ratings are one-dimensional, so the best partners of a player are its neighbours in rating
order: a round looks at the few nearest neighbours of each player (O(n log n)) and takes the
allowed pairs best first, instead of a general weighted matching (O(n³)).

Two players of whom one blocks the other are never paired (``apart``: the round reads those
pairs among the players waiting, app/relations/blocks.py).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

START_GAP = 100.0  # the widest rating difference allowed at once
GAP_PER_SECOND = 10.0  # how fast it widens while both wait
MAX_GAP = 500.0  # never wider than this (beyond, anyone waiting long enough is paired)
WAITED_ENOUGH_MS = 60_000  # both waited a minute: any difference is allowed
NEIGHBOURS = 3  # how many next players in rating order each player is compared with
CASUAL_AFTER_MS = 5_000  # a rated search waits this long for a rated opponent, then any


@dataclass(frozen=True, slots=True)
class Seeker:
    """A player waiting in one pool."""

    entry_id: str
    player_id: str
    rating: float
    joined_ms: int
    rated: bool  # an account's rated search; False: casual (anonymous players, or asked)
    rating_range: tuple[int, int] | None = None  # (lowest, highest) opponent rating accepted


def allowed_gap(waited_ms: int) -> float:
    """The widest rating difference allowed for a player who has waited ``waited_ms``."""
    if waited_ms >= WAITED_ENOUGH_MS:
        return float("inf")
    return min(MAX_GAP, START_GAP + GAP_PER_SECOND * max(0, waited_ms) / 1000)


def _accepts(seeker: Seeker, rating: float) -> bool:
    if seeker.rating_range is None:
        return True
    low, high = seeker.rating_range
    return low <= rating <= high


Apart = Collection[frozenset[str]]  # pairs of player ids never to be paired


def score(a: Seeker, b: Seeker, now_ms: int, apart: Apart = ()) -> float | None:
    """How good a pair is (lower is better), or None if it is not allowed now."""
    if a.player_id == b.player_id:
        return None
    if apart and frozenset((a.player_id, b.player_id)) in apart:
        return None  # one blocks the other
    if not (_accepts(a, b.rating) and _accepts(b, a.rating)):
        return None
    if a.rated != b.rated:
        # A casual game for a rated search that waited long enough: the nearest ratings
        # first, but no rating window (the casual side's rating may be a placeholder).
        searcher = a if a.rated else b
        if now_ms - searcher.joined_ms < CASUAL_AFTER_MS:
            return None
        return abs(a.rating - b.rating) - (now_ms - min(a.joined_ms, b.joined_ms)) / 1000
    difference = abs(a.rating - b.rating)
    # The one who waited less decides: a newcomer is not thrown to a far opponent at once.
    waited = min(now_ms - a.joined_ms, now_ms - b.joined_ms)
    if difference > allowed_gap(waited):
        return None
    # Among allowed pairs, the nearest ratings first; long waits go first among equals.
    return difference - (now_ms - min(a.joined_ms, b.joined_ms)) / 1000


def pair(seekers: Iterable[Seeker], now_ms: int, apart: Apart = ()) -> list[tuple[Seeker, Seeker]]:
    """The pairs of one round of one pool; each seeker (and each player) in at most one.
    The longer waiter of a pair comes first; no pair of ``apart``."""
    rated: list[Seeker] = []
    casual: list[Seeker] = []
    for seeker in seekers:
        (rated if seeker.rated else casual).append(seeker)
    pairs = _pair_one_kind(rated, now_ms, apart) + _pair_one_kind(casual, now_ms, apart)
    return pairs + _pair_across(rated, casual, pairs, now_ms, apart)


def _pair_across(
    rated: list[Seeker],
    casual: list[Seeker],
    pairs: list[tuple[Seeker, Seeker]],
    now_ms: int,
    apart: Apart = (),
) -> list[tuple[Seeker, Seeker]]:
    """Rated searches left unpaired past ``CASUAL_AFTER_MS`` with casual ones left unpaired,
    longest waiters first. Few are left over (each kind paired among itself first), so each
    rated one looks through the casual ones left."""
    taken = {s.player_id for ab in pairs for s in ab}
    by_wait = sorted(
        (s for s in rated if s.player_id not in taken and now_ms - s.joined_ms >= CASUAL_AFTER_MS),
        key=lambda s: s.joined_ms,
    )
    if not by_wait:
        return []
    left = sorted((s for s in casual if s.player_id not in taken), key=lambda s: s.joined_ms)
    across: list[tuple[Seeker, Seeker]] = []
    for searcher in by_wait:
        if searcher.player_id in taken:
            continue
        for other in left:
            if other.player_id in taken or score(searcher, other, now_ms, apart) is None:
                continue
            taken.update((searcher.player_id, other.player_id))
            first_in = searcher.joined_ms <= other.joined_ms
            across.append((searcher, other) if first_in else (other, searcher))
            break
    return across


def _pair_one_kind(
    seekers: list[Seeker], now_ms: int, apart: Apart = ()
) -> list[tuple[Seeker, Seeker]]:
    by_rating: Sequence[Seeker] = sorted(seekers, key=lambda s: (s.rating, s.joined_ms))
    candidates: list[tuple[float, int, int]] = []
    for i, a in enumerate(by_rating):
        for j in range(i + 1, min(i + 1 + NEIGHBOURS, len(by_rating))):
            found = score(a, by_rating[j], now_ms, apart)
            if found is not None:
                candidates.append((found, i, j))
    candidates.sort()
    taken_entries: set[int] = set()
    taken_players: set[str] = set()
    pairs: list[tuple[Seeker, Seeker]] = []
    for _, i, j in candidates:
        if i in taken_entries or j in taken_entries:
            continue
        a, b = by_rating[i], by_rating[j]
        if a.player_id in taken_players or b.player_id in taken_players:
            continue
        taken_entries.update((i, j))
        taken_players.update((a.player_id, b.player_id))
        pairs.append((a, b) if a.joined_ms <= b.joined_ms else (b, a))
    return pairs
