"""Every game's evaluator for the searching player, by the key its table entry names
(engine/variants.py, ``evaluator``): the tuned one (bots/linear.py) where the game has one,
else the hand-set one (shogi.py, jungle.py, stones.py; the base: evaluator.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import engine

from .evaluator import Evaluator
from .jungle import JungleEvaluator
from .linear import LinearEvaluator
from .shogi import ShogiEvaluator
from .stones import WaliEvaluator, YoteEvaluator
from .tuned import GorogoroEvaluator
from .tunedstones import TunedWaliEvaluator, TunedYoteEvaluator

Factory = Callable[[engine.Game[Any]], Evaluator]


def evaluator(game: engine.Game[Any], tuned: bool = True) -> Evaluator:
    """The evaluator of this game, with its rule options (KeyError: the bots do not play it).

    ``tuned=False``: the hand-set evaluation even where a tuned one exists (the baselines
    of bench/strength.py).
    """
    key = engine.variants.get(game.id).evaluator
    if key is None:
        raise KeyError(f"the built-in bots do not play {game.id}")
    kind = "tuned" if tuned and key in TUNED else "hand-set"
    found = _CACHE.get((id(game), kind))
    if found is None or found.game is not game:
        factory = TUNED[key] if kind == "tuned" else EVALUATORS[key]
        found = _CACHE[(id(game), kind)] = factory(game)
    return found


def playable() -> tuple[str, ...]:
    """The games the built-in bots play: those whose table entry names an evaluator."""
    return tuple(v.id for v in engine.variants.all_variants() if v.evaluator in EVALUATORS)


# The hand-set evaluators, by the key the games' entries name.
EVALUATORS: dict[str, Factory] = {
    "dobutsu": ShogiEvaluator,
    "gorogoro": ShogiEvaluator,
    "jungle": JungleEvaluator,
    "yote": YoteEvaluator,
    "wali": WaliEvaluator,
}
# The evaluations tuned from self-play games (bots/tune.py), by the same key.
TUNED: dict[str, type[LinearEvaluator]] = {
    "gorogoro": GorogoroEvaluator,
    "yote": TunedYoteEvaluator,
    "wali": TunedWaliEvaluator,
}


_CACHE: dict[tuple[int, str], Evaluator] = {}
