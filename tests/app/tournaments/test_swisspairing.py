"""The Swiss pairing (app/tournaments/swisspairing.py) against the system docs/decisions/
swiss.md states: the fold of a score group (top half against bottom half), the bye to the
lowest-ranked player without one, no rematch, colours by preference; and a 7-player, 3-round
event played through the standings (app/tournaments/swissstandings.py)."""

from __future__ import annotations

import time

from app.tournaments.swisspairing import FIRST, SECOND, Entrant, pair_round
from app.tournaments.swissstandings import Joined, Played, entrants, standings


def test_the_first_round_folds_the_field_and_alternates_colours_by_board() -> None:
    field = [Entrant(f"p{i}", 0, 2000 - 10 * i) for i in range(1, 9)]
    made = pair_round(field)
    assert made.bye is None
    # FIDE's first round: 1-5, 6-2, 3-7, 8-4 (the higher-ranked moves first on odd boards)
    assert made.pairs == [("p1", "p5"), ("p6", "p2"), ("p3", "p7"), ("p8", "p4")]


def test_an_odd_field_gives_the_bye_to_the_lowest_ranked_without_one() -> None:
    field = [Entrant(f"p{i}", 0, 2000 - 10 * i) for i in range(1, 8)]
    assert pair_round(field).bye == "p7"
    had = [e if e.player_id != "p7" else Entrant("p7", 1, 1930, had_bye=True) for e in field]
    # p7 now leads on points but had the bye: the lowest ranked without one, p6, gets it
    assert pair_round(had).bye == "p6"


def test_a_rematch_is_avoided_by_the_next_candidate_down_the_bracket() -> None:
    a = Entrant("a", 1, 2000, frozenset({"c"}), (FIRST,))
    b = Entrant("b", 1, 1900, frozenset({"d"}), (SECOND,))
    c = Entrant("c", 1, 1800, frozenset({"a"}), (SECOND,))
    d = Entrant("d", 1, 1700, frozenset({"b"}), (FIRST,))
    made = pair_round([a, b, c, d])
    # the fold would be a-c, b-d: both rematches; a-d and b-c instead
    assert sorted(tuple(sorted(p)) for p in made.pairs) == [("a", "d"), ("b", "c")]
    # colours: a and d both had first (prefer second): a, higher ranked, gets it; b and c
    # both had second: b moves first
    assert made.pairs == [("d", "a"), ("b", "c")]


def test_a_player_who_must_change_colour_is_not_paired_with_another_who_must_too() -> None:
    a = Entrant("a", 2, 2000, frozenset({"x", "y"}), (FIRST, FIRST))
    b = Entrant("b", 2, 1900, frozenset({"z", "w"}), (FIRST, FIRST))
    c = Entrant("c", 2, 1800, frozenset({"u", "v"}), (SECOND, SECOND))
    d = Entrant("d", 2, 1700, frozenset({"s", "t"}), (SECOND, SECOND))
    made = pair_round([a, b, c, d])
    # the fold a-c, b-d works: each pair has one who must take second, one who must first
    assert made.pairs == [("c", "a"), ("d", "b")]


def play(
    names: list[str], results: dict[int, dict[tuple[str, str], str | None]], rounds: int
) -> list[tuple[list[tuple[str, str]], str | None]]:
    """Pair ``rounds`` rounds of ``names`` (rated downwards), each game ending as
    ``results[round][(first, second)]`` says ("first", "second", None: a draw; a pair not
    listed: the first wins)."""
    joined = [Joined(n, n, 2000 - 10 * i, 0, False) for i, n in enumerate(names)]
    played: list[Played] = []
    out = []
    for r in range(1, rounds + 1):
        table = standings(joined, played, r - 1)
        made = pair_round(entrants(table, played))
        out.append((made.pairs, made.bye))
        for board, (first, second) in enumerate(made.pairs, start=1):
            winner = results.get(r, {}).get((first, second), "first")
            played.append(Played(r, board, first, second, "finished", winner))
        if made.bye is not None:
            played.append(Played(r, 0, made.bye, None, "finished", None))
    return out


def test_seven_players_over_three_rounds_as_the_stated_system_pairs_them() -> None:
    names = ["p1", "p2", "p3", "p4", "p5", "p6", "p7"]  # rated 2000, 1990, ... 1940
    rounds = play(names, {}, 3)  # every game won by the player who moves first
    # Round 1: p7 (the lowest) has the bye; the six fold: 1-4, 5-2 (board 2: the lower
    # ranked moves first), 3-6.
    assert rounds[0] == ([("p1", "p4"), ("p5", "p2"), ("p3", "p6")], "p7")
    # Round 2: on 1 point p1, p3, p5, p7; on 0 p2, p4, p6. The bye: p6, the lowest without
    # one. The 1-point group folds: p1-p5, p3-p7; then p2-p4. Colours: p1 and p5 both had
    # first: the higher ranked, p1, gets second; p3 had first, p7 nothing; p2 and p4 both
    # had second: p2, higher, moves first.
    assert rounds[1] == ([("p5", "p1"), ("p7", "p3"), ("p2", "p4")], "p6")
    # Round 3: on 2 p5, p7; on 1 p1, p2, p3, p6; on 0 p4, who has the bye (none yet).
    # p5-p7 (p5 had first twice: must take second); the 1-point group folds p1-p3, p2-p6
    # (p1 and p3 both prefer first after first then second: p1 ranks higher; p2 had second
    # last, p6 second then the bye).
    assert rounds[2] == ([("p7", "p5"), ("p1", "p3"), ("p6", "p2")], "p4")
    met: set[frozenset[str]] = set()
    colours: dict[str, list[str]] = {n: [] for n in names}
    for pairs, bye in rounds:
        # everyone played or had the bye; nobody met anyone twice
        assert sorted([p for pair in pairs for p in pair] + [str(bye)]) == names
        for first, second in pairs:
            assert frozenset((first, second)) not in met
            met.add(frozenset((first, second)))
            colours[first].append(FIRST)
            colours[second].append(SECOND)
    assert len({bye for _, bye in rounds}) == 3
    for seq in colours.values():  # FIDE's absolute colour rules
        assert abs(seq.count(FIRST) - seq.count(SECOND)) <= 2
        assert seq not in ([FIRST] * 3, [SECOND] * 3)


def test_standings_count_byes_and_the_tiebreaks() -> None:
    joined = [Joined(n, n, r, 0, False) for n, r in (("a", 2000), ("b", 1900), ("c", 1800))]
    played = [
        Played(1, 1, "a", "b", "finished", "first"),
        Played(1, 0, "c", None, "finished", None),
        Played(2, 1, "c", "a", "finished", None),
        Played(2, 0, "b", None, "finished", None),
    ]
    table = {s.player_id: s for s in standings(joined, played, 2)}
    assert (table["a"].points, table["b"].points, table["c"].points) == (1.5, 1.0, 1.5)
    # a met b (1) and c (1.5): Buchholz 2.5; beat b, drew c: SB 1 + 0.75
    assert table["a"].buchholz == 2.5 and table["a"].sonneborn_berger == 1.75
    # c met a only (the bye adds nothing): Buchholz 1.5, SB 0.75
    assert table["c"].buchholz == 1.5 and table["c"].sonneborn_berger == 0.75
    assert [s.player_id for s in standings(joined, played, 2)] == ["a", "c", "b"]
    assert table["c"].sheet == {1: (None, None, "U"), 2: ("a", "w", "=")}


def test_a_large_field_is_paired_without_rematches_in_little_time() -> None:
    names = [f"p{i:02d}" for i in range(61)]
    # results by rank (the better rated wins), draws on every third board
    joined = [Joined(n, n, 2000 - i, 0, False) for i, n in enumerate(names)]
    played: list[Played] = []
    started = time.perf_counter()
    for r in range(1, 8):
        made = pair_round(entrants(standings(joined, played, r - 1), played))
        assert len(made.pairs) == 30 and made.bye is not None
        for board, (first, second) in enumerate(made.pairs, start=1):
            winner = None if board % 3 == 0 else ("first" if first < second else "second")
            played.append(Played(r, board, first, second, "finished", winner))
        played.append(Played(r, 0, made.bye, None, "finished", None))
    assert time.perf_counter() - started < 5
    games = [frozenset((p.first_id, p.second_id)) for p in played if p.second_id]
    assert len(games) == len(set(games))
    byes = [p.first_id for p in played if p.second_id is None]
    assert len(byes) == len(set(byes))
