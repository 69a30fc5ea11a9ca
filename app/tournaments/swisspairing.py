"""The pairing of a Swiss round (pure): a simplified Dutch system, stated in full in
docs/decisions/swiss.md.

1. Rank the players: points, then rating, then id.
2. With an odd number, the bye (a point) goes to the lowest-ranked player who has had none
   and without whom the others can be paired without a rematch.
3. Pair the highest-ranked unpaired player first. Their bracket is the unpaired players with
   their points; their ideal opponent is the one halfway down it (the top half meets the
   bottom half in order: with 1..8 on equal points, 1-5, 2-6, 3-7, 4-8). The candidates are
   tried from there down the bracket, then back up it, then the lower brackets in rank
   order; a player alone on their points (a floater) meets the highest-ranked below.
   Backtracking: the first complete pairing in that order is the round's.
4. Absolute criteria, dropped in this order only when no pairing satisfies them: no two
   players whose colour must be the same (both at two more of one colour, or both with the
   same colour in their last two games); no rematch.
5. Colours: a player's preference is the colour they had less, or else the other colour
   than their last; the stronger preference wins (the larger imbalance), then the higher
   ranked. In the first round the higher-ranked player moves first on odd boards."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

FIRST, SECOND = "first", "second"
# Steps of the search for one criteria level (all its bye candidates together): beyond
# them, that level is given up for the next, weaker one.
BUDGET = 200_000


@dataclass(frozen=True)
class Entrant:
    """A player to pair: points so far, rating (as they joined), the opponents they met,
    their colours in order (``first``/``second``), whether they had a bye."""

    player_id: str
    points: float
    rating: int
    opponents: frozenset[str] = frozenset()
    colours: tuple[str, ...] = ()
    had_bye: bool = False

    @property
    def balance(self) -> int:
        return self.colours.count(FIRST) - self.colours.count(SECOND)

    def must_have(self) -> str | None:
        """The colour this player must get (FIDE's absolute preference), if any."""
        last_two = self.colours[-2:]
        if self.balance >= 2 or last_two == (FIRST, FIRST):
            return SECOND
        if self.balance <= -2 or last_two == (SECOND, SECOND):
            return FIRST
        return None

    def prefers(self) -> str | None:
        if self.balance:
            return SECOND if self.balance > 0 else FIRST
        if self.colours:
            return SECOND if self.colours[-1] == FIRST else FIRST
        return None


@dataclass(frozen=True)
class Round:
    """Pairs as (first, second): first moves first; board order. ``bye``: who has it."""

    pairs: list[tuple[str, str]] = field(default_factory=list)
    bye: str | None = None


def ranked(entrants: Sequence[Entrant]) -> list[Entrant]:
    return sorted(entrants, key=lambda e: (-e.points, -e.rating, e.player_id))


Allowed = Callable[[Entrant, Entrant], bool]


def _strict(a: Entrant, b: Entrant) -> bool:
    if b.player_id in a.opponents:
        return False
    must = a.must_have()
    return must is None or must != b.must_have()


def _no_rematch(a: Entrant, b: Entrant) -> bool:
    return b.player_id not in a.opponents


def _anyone(a: Entrant, b: Entrant) -> bool:
    return True


def _candidates(rest: list[Entrant]) -> list[Entrant]:
    """The opponents of ``rest[0]`` (the highest-ranked unpaired), best first."""
    top, others = rest[0], rest[1:]
    bracket = [e for e in others if e.points == top.points]
    below = [e for e in others if e.points != top.points]
    if not bracket:  # a floater: the highest-ranked below
        return below
    # with ``top`` at 0 in its group of n, the ideal is at n // 2: here, in ``bracket``
    half = (len(bracket) + 1) // 2 - 1
    return bracket[half:] + bracket[:half][::-1] + below


def _search(
    rest: list[Entrant], allowed: Allowed, steps: list[int]
) -> list[tuple[Entrant, Entrant]] | None:
    if not rest:
        return []
    steps[0] += 1
    if steps[0] > BUDGET:
        return None
    top = rest[0]
    for other in _candidates(rest):
        if not allowed(top, other):
            continue
        remaining = [e for e in rest[1:] if e is not other]
        found = _search(remaining, allowed, steps)
        if found is not None:
            return [(top, other), *found]
        if steps[0] > BUDGET:
            return None
    return None


def _colours(board: int, high: Entrant, low: Entrant) -> tuple[str, str]:
    """(first, second) of a pair, ``high`` the higher ranked."""
    hp, lp = high.must_have() or high.prefers(), low.must_have() or low.prefers()
    if hp is None and lp is None:
        return (high.player_id, low.player_id) if board % 2 else (low.player_id, high.player_id)
    if hp != lp:
        if hp == FIRST or lp == SECOND:
            return high.player_id, low.player_id
        return low.player_id, high.player_id

    # both want the same colour: the stronger preference gets it, else the higher ranked
    def strength(e: Entrant) -> tuple[bool, int]:
        return e.must_have() is not None, abs(e.balance)

    winner = low if strength(low) > strength(high) else high
    loser = high if winner is low else low
    if hp == FIRST:
        return winner.player_id, loser.player_id
    return loser.player_id, winner.player_id


def pair_round(entrants: Sequence[Entrant]) -> Round:
    """The round's pairs and bye (see the module's docstring)."""
    players = ranked(entrants)
    for allowed in (_strict, _no_rematch, _anyone):
        steps = [0]  # one budget a level, shared by the bye's candidates
        if len(players) % 2 == 0:
            found = _search(players, allowed, steps)
            bye = None
        else:
            found, bye = None, None
            never = [e for e in reversed(players) if not e.had_bye]
            again = [e for e in reversed(players) if e.had_bye]
            for candidate in never + again:
                found = _search([e for e in players if e is not candidate], allowed, steps)
                if found is not None:
                    bye = candidate.player_id
                    break
        if found is not None:
            pairs = [_colours(board, a, b) for board, (a, b) in enumerate(found, start=1)]
            return Round(pairs, bye)
    return Round([], players[0].player_id if len(players) == 1 else None)
