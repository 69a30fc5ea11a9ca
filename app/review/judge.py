"""A review judged from its positions' values (pure: no I/O): each position's winning
chances, each move's mark (inaccuracy, mistake, blunder) with the better move, and each
player's accuracy and counts (docs/decisions/game-review.md states the numbers).

A position's value (``PositionValue``, kept as JSON) is from the FIRST player's view:
``{"cp": int}`` or ``{"mate": int, "plies": int}`` (lichess's count, > 0 first wins), with
``best`` (the side to move's best move), ``line`` (it and what follows), ``turn`` and
``source`` ("search", or "table": exact); or ``{"end": "first" | "second" | "draw"}`` when
the rules ended the game in it.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

PositionValue = dict[str, Any]

# Per game, the advantage (in the evaluation's units) worth 75 % winning chances: lichess's
# curve for chess puts it at about 300 centipawns. A chick decides more on Dōbutsu's 3x4
# board than a pawn on chess's; Jungle's pieces are counted in hundreds each (a rat 400, an
# elephant 1000, a piece at the den's door 300 more); a stone of Yote or Wali is 100.
ADVANTAGE_75 = {"dobutsu": 150, "gorogoro": 300, "jungle": 600, "yote": 200, "wali": 250}
# lichess's thresholds: a drop of the mover's winning chances of 0.1 / 0.2 / 0.3 on its
# -1..1 scale, i.e. 5 / 10 / 15 points of win percentage.
THRESHOLDS = (("blunder", 15.0), ("mistake", 10.0), ("inaccuracy", 5.0))
NAMES = {"blunder": "Blunder", "mistake": "Mistake", "inaccuracy": "Inaccuracy"}
SYMBOLS = {"blunder": "??", "mistake": "?", "inaccuracy": "?!"}
RANK = {"loss": 0, "draw": 1, "win": 2}
CP_CAP = 1000  # a mate or a won end counts as this much in the average loss (acpl)


def slope(variant: str) -> float:
    """The logistic curve's slope: winning chances 2/(1+e^(-k·cp)) - 1 reach 0.5 (75 %) at
    ``ADVANTAGE_75``."""
    return math.log(3) / ADVANTAGE_75.get(variant, 300)


def win_percent(variant: str, value: PositionValue) -> float:
    """The first player's winning chances in percent (a draw by the table is 50)."""
    if "end" in value:
        return {"first": 100.0, "second": 0.0}.get(value["end"], 50.0)
    if value.get("mate") is not None:
        return 100.0 if value["mate"] > 0 else 0.0
    chances = 2 / (1 + math.exp(-slope(variant) * value["cp"])) - 1
    return 50 + 50 * chances


def exact(value: PositionValue) -> bool:
    return "end" in value or value.get("source") == "table"


def outcome(value: PositionValue, side: str) -> str:
    """An exact value as ``side`` sees it: win, draw or loss."""
    percent = win_percent("", value) if exact(value) else 50.0
    mine = percent if side == "first" else 100 - percent
    return "win" if mine == 100 else "loss" if mine == 0 else "draw"


def cp_of(value: PositionValue) -> int:
    """The value in the evaluation's units, mates and ends capped (for the average loss)."""
    if "end" in value:
        return {"first": CP_CAP, "second": -CP_CAP}.get(value["end"], 0)
    if value.get("mate") is not None:
        return CP_CAP if value["mate"] > 0 else -CP_CAP
    return max(-CP_CAP, min(CP_CAP, int(value["cp"])))


def move_accuracy(drop: float) -> float:
    """lichess's accuracy of one move from the drop of its mover's win percentage (with its
    one point of uncertainty bonus), 0 to 100."""
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * drop) - 3.166924740191411
    return max(0.0, min(100.0, raw + 1))


def mark_of(drop: float) -> str | None:
    return next((name for name, least in THRESHOLDS if drop >= least), None)


def judge(variant: str, moves: Sequence[str], values: Sequence[PositionValue]) -> dict[str, Any]:
    """The review: ``values`` has one value per position, the start first (len(moves) + 1).
    Returns ``{"start": value, "plies": [...], "players": {"first": ..., "second": ...}}``:
    the start's value; per move (ply 1..n) its mover, the value after it, its mark and the
    better move; per player the counts of marks, the average loss and the accuracy."""
    assert len(values) == len(moves) + 1
    wins = [win_percent(variant, v) for v in values]
    plies: list[dict[str, Any]] = []
    accuracies: dict[str, list[tuple[int, float]]] = {"first": [], "second": []}
    losses: dict[str, list[int]] = {"first": [], "second": []}
    for index, move in enumerate(moves):
        before, after = values[index], values[index + 1]
        side = before.get("turn", "first" if index % 2 == 0 else "second")
        sign = 1 if side == "first" else -1
        drop = max(0.0, sign * (wins[index] - wins[index + 1]))
        ply: dict[str, Any] = {"ply": index + 1, "move": move, "side": side, "value": after}
        if exact(before) and exact(after):
            was, now = outcome(before, side), outcome(after, side)
            ply["exact"] = {"before": was, "after": now}
            mark = "blunder" if RANK[now] < RANK[was] else None
        else:
            mark = mark_of(drop)
        best = before.get("best")
        if mark is not None and best is not None and best != move:
            ply["mark"] = mark
            ply["best"] = best
            ply["line"] = before.get("line", [best])
        accuracies[side].append((index, move_accuracy(drop)))
        losses[side].append(max(0, sign * (cp_of(before) - cp_of(after))))
        plies.append(ply)
    weights = _volatility_weights(wins)
    players = {}
    for side in ("first", "second"):
        marked = [p.get("mark") for p in plies if p["side"] == side]
        players[side] = {
            **{name: marked.count(name) for name in ("inaccuracy", "mistake", "blunder")},
            "acpl": round(statistics.fmean(losses[side])) if losses[side] else 0,
            "accuracy": _accuracy(accuracies[side], weights),
        }
    return {"start": values[0], "plies": plies, "players": players}


def _volatility_weights(wins: Sequence[float]) -> list[float]:
    """lichess's weight of each move: how unsettled the game was around it (the standard
    deviation of the win percentages in a window, 0.5 to 12)."""
    moves = len(wins) - 1
    if moves < 1:
        return []
    size = max(2, min(8, len(wins) // 10))
    windows = [list(wins[:size])] * max(0, size - 2)
    windows += [list(wins[i : i + size]) for i in range(len(wins) - size + 1)]
    weights = [max(0.5, min(12.0, statistics.pstdev(w))) for w in windows]
    return (weights + [weights[-1]] * moves)[:moves]


def _accuracy(moves: Sequence[tuple[int, float]], weights: Sequence[float]) -> int | None:
    """lichess's game accuracy of one player: the mean of the volatility-weighted mean and
    the harmonic mean of its moves' accuracies (a move at 0 counts as 1 in the harmonic mean,
    which is undefined at 0)."""
    if not moves:
        return None
    weighted = sum(a * weights[i] for i, a in moves) / sum(weights[i] for i, _ in moves)
    harmonic = statistics.harmonic_mean([max(1.0, a) for _, a in moves])
    return round((weighted + harmonic) / 2)
