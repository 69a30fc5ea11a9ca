"""The tuned evaluations (bots/linear.py, tuned.py, tunedstones.py), their tuning
(bots/tune.py), the self-play games it reads (bots/selfplay.py), and the quiescence search
that does not stand pat on a threat."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

import engine
from bots import selfplay, tune
from bots.evaluation import EVALUATORS, TUNED, evaluator
from bots.linear import WEIGHTS, LinearEvaluator, load_weights
from bots.players import MATE, MATE_BOUND, AlphaBetaPlayer
from bots.tuned import GorogoroEvaluator

from .test_search_speedups import random_positions

TUNED_GAMES = ("gorogoro", "yote", "wali")


@pytest.mark.parametrize("game_id", TUNED_GAMES)
def test_the_fast_evaluation_is_the_weighted_sum_of_the_features_tuning_sees(
    game_id: str,
) -> None:
    ev = evaluator(engine.get_game(game_id))
    assert isinstance(ev, LinearEvaluator)
    for pos in random_positions(game_id, 6):
        # Yoté's fading is floored to a whole number in the search's evaluation.
        assert abs(ev.evaluate(pos) - ev.weighted(pos)) < 1


@pytest.mark.parametrize("game_id", TUNED_GAMES)
def test_the_start_the_same_for_both_sides_scores_the_tempo_alone(game_id: str) -> None:
    game = engine.get_game(game_id)
    ev = evaluator(game)
    assert isinstance(ev, LinearEvaluator)
    start = game.start()
    assert set(ev.features(start)) == {
        name for name in ev.features(start) if name.endswith("tempo")
    }
    assert ev.evaluate(start) == ev.weights["tempo" if game_id != "wali" else "place tempo"]


@pytest.mark.parametrize("game_id", TUNED_GAMES)
def test_each_tuned_game_has_weights_for_its_features_and_the_hand_set_one_stays(
    game_id: str,
) -> None:
    game = engine.get_game(game_id)
    tuned = evaluator(game)
    hand_set = evaluator(game, tuned=False)
    assert isinstance(tuned, LinearEvaluator)
    assert not isinstance(hand_set, LinearEvaluator)
    assert type(hand_set) is EVALUATORS[game_id]
    weights = load_weights(game_id)
    assert set(weights) == set(tuned.names)
    assert weights != tuned.initial()  # tuned: not the starting weights
    assert json.loads((WEIGHTS / f"{game_id}.json").read_text())["game"] == game_id


@pytest.mark.parametrize("game_id", ["dobutsu", "jungle"])
def test_dobutsu_and_jungle_keep_their_hand_set_evaluations(game_id: str) -> None:
    # Dōbutsu's strongest play is the table's; jungle's tuned evaluation measured no better.
    assert game_id not in TUNED
    game = engine.get_game(game_id)
    assert type(evaluator(game)) is EVALUATORS[game_id] is type(evaluator(game, tuned=False))


def test_weights_for_a_feature_the_evaluation_does_not_have_are_refused() -> None:
    game = engine.get_game("gorogoro")
    with pytest.raises(ValueError, match="unknown features"):
        GorogoroEvaluator(game, {"Q@0": 5})


def test_a_player_can_search_with_the_hand_set_evaluation() -> None:
    game = engine.get_game("wali")
    player = AlphaBetaPlayer(max_depth=2, seed=1, tuned=False)
    pos = game.start()
    assert player.choose(game, pos, 5.0) in game.legal_moves(pos)
    assert not isinstance(player._eval, LinearEvaluator)


def test_the_scale_and_weights_that_made_the_results_are_found_again() -> None:
    # Results drawn from known weights and scale: the fit finds them back.
    rng = np.random.default_rng(3)
    x = rng.integers(-3, 4, size=(20_000, 3)).astype(np.float64)
    truth, k = np.array([120.0, -60.0, 30.0]), 0.004
    wins = rng.random(len(x)) < 1 / (1 + np.exp(-k * (x @ truth)))
    y = wins.astype(np.float64)
    assert tune.fit_scale(x, y, truth) == pytest.approx(k, rel=0.1)
    found = tune.descend(x, y, np.array([100.0, 0.0, 0.0]), k)
    assert found == pytest.approx(truth, abs=15)
    assert tune.error(x, y, found, k) < tune.error(x, y, np.array([100.0, 0.0, 0.0]), k)


def test_a_self_play_game_replays_to_the_result_it_records() -> None:
    record = selfplay.self_play("wali", seed=4, depth=1)
    game = engine.get_game("wali")
    pos = game.start()
    for move in record["opening"] + record["moves"]:
        pos = game.play(pos, move)
    result = game.result(pos)
    assert result is not None and record["winner"] == (result.winner and result.winner.value)
    assert record["reason"] == result.reason.value
    assert selfplay.OPENING_PLIES[0] <= len(record["opening"]) <= selfplay.OPENING_PLIES[1]


def test_tuning_writes_every_feature_with_the_error_before_and_after(tmp_path: Any) -> None:
    games = tmp_path / "games.jsonl"
    games.write_text(
        "".join(json.dumps(selfplay.self_play("wali", seed, 1)) + "\n" for seed in range(20))
    )
    out = tmp_path / "wali.json"
    assert tune.main(["wali", str(games), "--out", str(out), "--steps", "50"]) == 0
    found = json.loads(out.read_text())
    tuned = evaluator(engine.get_game("wali"))
    assert isinstance(tuned, LinearEvaluator)
    assert set(found["weights"]) == set(tuned.names)
    assert found["games"] == 20 and found["positions"]["training"] > 0
    assert set(found["error"]) == {
        "hand-set, training",
        "tuned, training",
        "hand-set, held out",
        "tuned, held out",
    }
    # On the games it was fitted to, the tuned weights predict better than the start.
    assert found["error"]["tuned, training"] < found["error"]["hand-set, training"]


@pytest.mark.parametrize("native", [True, False])
def test_quiescence_does_not_stand_pat_beside_an_open_den(native: bool) -> None:
    # First's dog steps beside second's den onto the trap, where no piece of second's can
    # take it: the den falls next move. A one-ply search sees that as a win in three plies
    # only if the quiescence search does not stand pat for second there (in jungle's own
    # search and in the generic one).
    game = engine.get_game("jungle")
    pos = game.from_text("7/7/3D3/7/7/7/6e/7/L6 f 0 -")
    seeing = AlphaBetaPlayer(max_depth=1, seed=1, native=native)
    assert seeing.choose(game, pos, 30.0) == "d7d8"
    assert seeing.info.score == MATE - 3
    blind = AlphaBetaPlayer(max_depth=1, seed=1, threats=False, native=native)
    blind.choose(game, pos, 30.0)
    assert blind.info.score is not None and blind.info.score < MATE_BOUND
