"""Judging a review from its positions' values (app/review/judge.py): each game's curve from
its evaluation's units to winning chances, the marks at lichess's thresholds with the better
move, exact values marked only when the outcome changed, and lichess's accuracy."""

from __future__ import annotations

import pytest

from app.review.judge import ADVANTAGE_75, judge, move_accuracy, win_percent


def searched(cp: int, turn: str, best: str = "best") -> dict[str, object]:
    return {"cp": cp, "turn": turn, "source": "search", "best": best, "line": [best, "reply"]}


@pytest.mark.parametrize("variant", sorted(ADVANTAGE_75))
def test_each_games_curve_puts_75_percent_at_its_advantage(variant):
    advantage = ADVANTAGE_75[variant]
    assert win_percent(variant, {"cp": advantage}) == pytest.approx(75)
    assert win_percent(variant, {"cp": -advantage}) == pytest.approx(25)
    assert win_percent(variant, {"cp": 0}) == 50
    assert win_percent(variant, {"mate": 2, "plies": 3}) == 100
    assert win_percent(variant, {"end": "second"}) == 0


def test_a_chick_weighs_more_in_dobutsu_than_a_stone_in_wali():
    assert win_percent("dobutsu", {"cp": 100}) > win_percent("wali", {"cp": 100})


@pytest.mark.parametrize(
    ("drop_cp", "mark"), [(20, None), (90, "inaccuracy"), (150, "mistake"), (300, "blunder")]
)
def test_marks_at_lichess_thresholds_of_win_percentage(drop_cp, mark):
    # Gorogoro's curve is chess's: first moves from level into a loss of drop_cp.
    values = [searched(0, "first", "c1c2"), searched(-drop_cp, "second")]
    ply = judge("gorogoro", ["a1a2"], values)["plies"][0]
    assert ply.get("mark") == mark
    if mark:
        assert (ply["best"], ply["line"]) == ("c1c2", ["c1c2", "reply"])


def test_the_best_move_is_never_marked():
    values = [searched(0, "first", "a1a2"), searched(-400, "second")]
    assert "mark" not in judge("gorogoro", ["a1a2"], values)["plies"][0]


def test_exact_values_mark_only_a_changed_outcome():
    table = {"turn": "first", "source": "table", "best": "x", "line": ["x"]}
    win5 = {**table, "mate": 3, "plies": 5}
    win9 = {**table, "turn": "second", "mate": 5, "plies": 9}
    draw = {**table, "turn": "second", "cp": 0}
    plies = judge("dobutsu", ["a", "b"], [win5, win9, draw])["plies"]
    assert "mark" not in plies[0]  # a longer win is still the win
    assert plies[0]["exact"] == {"before": "win", "after": "win"}
    # second let a win go? No: second was lost (first wins), and now draws: its gain.
    assert "mark" not in plies[1]
    lost = judge("dobutsu", ["a"], [win5, {**draw}])["plies"][0]
    assert (lost["mark"], lost["exact"]) == ("blunder", {"before": "win", "after": "draw"})


def test_accuracy_as_lichess_counts_it():
    assert move_accuracy(0) == 100
    assert move_accuracy(100) == 0
    assert 60 < move_accuracy(10) < 70
    steady = [searched(0, "first" if i % 2 == 0 else "second") for i in range(11)]
    players = judge("yote", ["m"] * 10, steady)["players"]
    assert players["first"]["accuracy"] == players["second"]["accuracy"] == 100
    assert players["first"]["acpl"] == 0
    falling = [searched(0, "first"), searched(-400, "second"), searched(-400, "first")]
    players = judge("yote", ["m", "n"], falling)["players"]
    assert players["first"]["accuracy"] < 50 and players["first"]["blunder"] == 1
    assert players["second"]["accuracy"] == 100 and players["first"]["acpl"] == 400
