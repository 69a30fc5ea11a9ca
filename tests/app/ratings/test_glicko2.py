"""Glicko-2 (app/ratings/glicko2.py): Glickman's worked example, and the single-game
updates with lichess's parameters that players and bots will compare with."""

from __future__ import annotations

import math

import pytest

from app.ratings.glicko2 import (
    DRAW,
    LOSS,
    WIN,
    Rating,
    game,
    idle,
    update,
)


def test_glickmans_worked_example() -> None:
    # "Example of the Glicko-2 system": τ = 0.5, one period of three games.
    player = Rating(1500, 200, 0.06)
    after = update(
        player,
        [(Rating(1400, 30), WIN), (Rating(1550, 100), LOSS), (Rating(1700, 300), LOSS)],
        tau=0.5,
    )
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_two_new_players_first_game_win_is_plus_242() -> None:
    winner, loser = game(Rating(), Rating(), WIN)
    assert round(winner.rating) == 1742
    assert round(loser.rating) == 1258
    assert winner.deviation == pytest.approx(loser.deviation)
    assert 390 < winner.deviation < 400  # 500 → ~397: one game says a lot, not everything
    assert winner.provisional and loser.provisional


def test_a_draw_between_equals_changes_no_rating_but_narrows_the_deviation() -> None:
    first, second = game(Rating(), Rating(), DRAW)
    assert first.rating == pytest.approx(1500)
    assert second.rating == pytest.approx(1500)
    assert first.deviation < 500


def test_both_players_are_updated_from_the_values_before_the_game() -> None:
    strong, weak = Rating(1900, 60, 0.06), Rating(1500, 60, 0.06)
    new_strong, new_weak = game(strong, weak, LOSS)
    assert new_strong == update(strong, [(weak, LOSS)])
    assert new_weak == update(weak, [(strong, WIN)])
    assert new_strong.rating < strong.rating and new_weak.rating > weak.rating
    # The upset moves both by the same amount when their deviations are equal.
    assert strong.rating - new_strong.rating == pytest.approx(new_weak.rating - weak.rating)


def test_an_expected_win_gains_little() -> None:
    after = update(Rating(2000, 50, 0.06), [(Rating(1400, 50, 0.06), WIN)])
    assert 0 < after.rating - 2000 < 2


def test_the_deviation_never_falls_below_45() -> None:
    # A steady player (low volatility) after many games would go below 45 unclamped.
    rating = Rating(1500, 50, 0.005)
    for _ in range(100):
        unclamped = update(rating, [(Rating(1500, 45, 0.005), DRAW)], clamp=False)
        rating = update(rating, [(Rating(1500, 45, 0.005), DRAW)])
    assert unclamped.deviation < 45
    assert rating.deviation == 45


def test_the_deviation_never_exceeds_500() -> None:
    assert idle(Rating(1500, 480, 0.09), 1000).deviation == 500
    assert update(Rating(), [(Rating(), WIN)]).deviation <= 500


def test_each_idle_day_is_one_empty_rating_period() -> None:
    rating = Rating(1600, 60, 0.06)
    one_by_one = rating
    for _ in range(30):
        one_by_one = idle(one_by_one, 1)
    at_once = idle(rating, 30)
    assert at_once.deviation == pytest.approx(one_by_one.deviation)
    phi = 60 / 173.7178
    assert at_once.deviation == pytest.approx(math.sqrt(phi**2 + 30 * 0.06**2) * 173.7178)
    assert at_once.rating == 1600 and at_once.volatility == 0.06
    assert idle(rating, 0) == rating


def test_provisional_while_the_deviation_is_above_110() -> None:
    assert Rating(1500, 110.01).provisional
    assert not Rating(1500, 110).provisional
    assert Rating(1742.4, 397).shown() == "1742?"
    assert Rating(1742.6, 80).shown() == "1743"
