"""An arena's pairing wave, a pure function: the players waiting now (none of them in a game),
in the order of the standings, each paired with the nearest waiting player below them who
was not their last opponent. The last opponent is taken again only when the two are the
only players still in the event (nobody else will ever come free). Colours even out: the
one who has played first more often plays second."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Waiting:
    player_id: str
    last_opponent: str | None
    firsts: int  # games played moving first, minus games played moving second


def wave(waiting: Sequence[Waiting], active: int) -> list[tuple[str, str]]:
    """``waiting``: best ranked first. ``active``: the players in the event, waiting,
    playing or about to (not withdrawn). The pairs, each (first, second)."""
    free = deque(waiting)  # taken from the front: linear in the players, not quadratic
    pairs: list[tuple[str, str]] = []
    while len(free) >= 2:
        top = free.popleft()
        chosen = next(
            (
                i
                for i, other in enumerate(free)
                if other.player_id != top.last_opponent and top.player_id != other.last_opponent
            ),
            None,
        )
        if chosen is None:
            if active > 2:
                continue  # top waits for someone else to come free
            chosen = 0
        other = free[chosen]  # the scan stops near the front: at most top's last opponents
        del free[chosen]
        pairs.append(_coloured(top, other))
    return pairs


def _coloured(a: Waiting, b: Waiting) -> tuple[str, str]:
    if b.firsts < a.firsts:
        return b.player_id, a.player_id
    return a.player_id, b.player_id


def colour_balance(games: Sequence[tuple[str, str]]) -> Mapping[str, int]:
    """Each player's firsts minus seconds over these (first, second) games."""
    balance: dict[str, int] = {}
    for first, second in games:
        balance[first] = balance.get(first, 0) + 1
        balance[second] = balance.get(second, 0) - 1
    return balance
