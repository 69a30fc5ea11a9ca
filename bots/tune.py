"""Tune a game's evaluation from self-play games (bots/selfplay.py): the weights that best
predict who won from each quiet position, written to bots/weights/<game>.json.

The method is the one chess engines call Texel tuning. Every position of every game after
its random opening becomes a sample: the tuned evaluator's features, and the result for the
side to move (1 a win, 0 a loss, ½ a draw or an unfinished game). Where the search scores
quiet positions only (after its quiescence search: not the stone games), a position that is
not quiet (the move played from it takes something, or its side is in check) is left out.
The prediction is ``1 / (1 + exp(-k·score))`` with ``score`` the weighted features; ``k`` is
first fitted to the starting weights so the scale stays the one the search's margins are set
in (a pawn or a stone about 100). The weights then descend the mean squared error (Adam),
pulled slightly towards their hand-set start so that features the games rarely show keep a
sane value. One game in ten is held out: the error on those games, before and after, is what
the tuning claims.

    .venv/bin/python -m bots.tune wali /tmp/tune/wali.jsonl --pull 0.0003
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import engine

from .evaluation import TUNED, evaluator
from .linear import WEIGHTS, LinearEvaluator

HELD_OUT = 10  # one game in this many is kept for validation
STEPS = 3000
LEARNING_RATE = 2.0  # centi-units per step, Adam's
# The pull towards the hand-set start: the weight of the squared change of the prediction's
# logit (k × weight) per weight, so that it means the same at any scale of the scores.
PULL = 0.015


@dataclass
class Samples:
    names: tuple[str, ...]
    features: np.ndarray  # positions × features
    results: np.ndarray  # result for the side to move: 1, 0.5 or 0
    held_out: np.ndarray  # bool per position: from a validation game


def tuned_evaluator(game: engine.Game[Any], weights: dict[str, int]) -> LinearEvaluator:
    """The game's tuned evaluator with these weights (``{}``: the hand-set start), whether
    or not its weights file exists yet."""
    key = engine.variants.get(game.id).evaluator
    if key not in TUNED:
        raise SystemExit(f"{game.id} has no tuned evaluation")
    return TUNED[key](game, weights)


def samples(game_id: str, records: Iterable[dict[str, Any]]) -> Samples:
    """The quiet positions of the games, with their features and results."""
    game = engine.get_game(game_id)
    tuned = tuned_evaluator(game, {})
    hand_set = evaluator(game, tuned=False)
    column = tuned.index
    rows: list[np.ndarray] = []
    results: list[float] = []
    held: list[bool] = []
    for record in records:
        pos = game.start()
        for move in record["opening"]:
            pos = game.play(pos, move)
        winner = record["winner"]
        for move in record["moves"]:
            # Where the search scores only quiet positions (after its quiescence search), only
            # those teach; the stone games' search scores every position it stops at.
            quiet = not hand_set.quiescence or (
                not hand_set.tactical(pos, move) and not game.in_check(pos)
            )
            if quiet:
                row = np.zeros(len(column), dtype=np.float32)
                for name, value in tuned.features(pos).items():
                    row[column[name]] = value
                rows.append(row)
                side = engine.SIDES[pos.side].value
                results.append(0.5 if winner is None else 1.0 if winner == side else 0.0)
                held.append(record["seed"] % HELD_OUT == 0)
            pos = game.play(pos, move)
    return Samples(
        tuned.names,
        np.vstack(rows),
        np.asarray(results, dtype=np.float64),
        np.asarray(held, dtype=bool),
    )


def error(x: np.ndarray, y: np.ndarray, w: np.ndarray, k: float) -> float:
    predicted = 1.0 / (1.0 + np.exp(-k * (x @ w)))
    return float(np.mean((predicted - y) ** 2))


def fit_scale(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    """The k that makes the starting weights predict best (golden-section search)."""
    low, high = 1e-4, 0.05
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        a, b = high - ratio * (high - low), low + ratio * (high - low)
        if error(x, y, w, a) < error(x, y, w, b):
            high = b
        else:
            low = a
    return (low + high) / 2


def descend(
    x: np.ndarray,
    y: np.ndarray,
    start: np.ndarray,
    k: float,
    steps: int = STEPS,
    pull: float = PULL,
) -> np.ndarray:
    """Adam on the mean squared error, pulled towards ``start``."""
    w = start.astype(np.float64).copy()
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    n = len(y)
    for step in range(1, steps + 1):
        predicted = 1.0 / (1.0 + np.exp(-k * (x @ w)))
        slope = 2.0 * (predicted - y) * predicted * (1.0 - predicted) * k
        grad = (x.T @ slope) / n + 2.0 * pull * k * k * (w - start)
        m = beta1 * m + (1 - beta1) * grad
        v = beta2 * v + (1 - beta2) * grad * grad
        w -= LEARNING_RATE * (m / (1 - beta1**step)) / (np.sqrt(v / (1 - beta2**step)) + eps)
    return w


def tune(
    game_id: str, records: list[dict[str, Any]], steps: int = STEPS, pull: float = PULL
) -> dict[str, Any]:
    """The tuned weights and how well they and the starting weights predict."""
    data = samples(game_id, records)
    start_eval = tuned_evaluator(engine.get_game(game_id), {})
    start = np.asarray([start_eval.weights[name] for name in data.names], dtype=np.float64)
    train, test = ~data.held_out, data.held_out
    x, y = data.features.astype(np.float64), data.results
    k = fit_scale(x[train], y[train], start)
    w = descend(x[train], y[train], start, k, steps, pull)
    rounded = np.rint(w)
    return {
        "game": game_id,
        "games": len(records),
        "self-play depths": sorted({r["depth"] for r in records}),
        "seeds": [min(r["seed"] for r in records), max(r["seed"] for r in records)],
        "positions": {"training": int(train.sum()), "held out": int(test.sum())},
        "k": k,
        "pull": pull,
        "error": {
            "hand-set, training": error(x[train], y[train], start, k),
            "tuned, training": error(x[train], y[train], rounded, k),
            "hand-set, held out": error(x[test], y[test], start, k),
            "tuned, held out": error(x[test], y[test], rounded, k),
        },
        "weights": {name: int(value) for name, value in zip(data.names, rounded, strict=True)},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("games", type=Path, nargs="+", help="self-play games, JSON lines")
    parser.add_argument("--out", type=Path, help="default: bots/weights/<game>.json")
    parser.add_argument("--steps", type=int, default=STEPS, help="descent steps")
    parser.add_argument("--pull", type=float, default=PULL, help="pull towards the start")
    args = parser.parse_args(argv)
    records = [
        json.loads(line)
        for path in args.games
        for line in path.read_text().splitlines()
        if line.strip()
    ]
    records = [r for r in records if r["game"] == args.game]
    found = tune(args.game, records, args.steps, args.pull)
    out = args.out or WEIGHTS / f"{args.game}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(found, indent=1, ensure_ascii=False) + "\n")
    print(json.dumps({key: found[key] for key in ("positions", "k", "error")}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
