"""Strength of the built-in levels, measured: levels play each other on the engine alone.

For every game and every pairing (a weaker level against a stronger one), it plays N games
from random short openings, each opening twice with the colours swapped, and prints the
stronger level's wins, draws and losses, its score and a verdict ("clear" when it scores at
least 70% and the 95% interval of its score stays above 50%), with the rating difference
that score stands for and its 95% interval. A pairing may name an earlier search of a level
(BASELINES: hard-v1 is the hard level before lazy move generation, null-move pruning, the
quiescence that sees threats, the tuned evaluations and jungle's own search; hard-v2 before
the last four; hard-v3 before the last three; hard-v4 before the last two; hard-v5 before
jungle's own search alone) to measure a change.

    .venv/bin/python bench/strength.py                          # every game, every pairing
    .venv/bin/python bench/strength.py --games 10 dobutsu jungle
    .venv/bin/python bench/strength.py --pairings medium:hard --scale 0.5 --jobs 2
    nice .venv/bin/python bench/strength.py --pairings hard-v1:hard --games 40 --scale 0.075 \
        --max-plies 200 --jobs 2 gorogoro jungle yote wali      # hard against its old search
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# bench/ holds a script named engine.py: keep this folder off the import path so that
# "import engine" finds the engine package.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import engine  # noqa: E402
from bots.players import LEVELS, AlphaBetaPlayer, Player, make_player  # noqa: E402

DEFAULT_PAIRINGS = ("random:easy", "easy:medium", "medium:hard")
CLEAR_SCORE = 0.70
# Earlier versions of a level, kept to measure a change of the search against: the level
# they descend from (whose time budget they get) and the flags that switch the change off.
_GENERIC = {"native": False}
_UNTUNED = {"tuned": False, **_GENERIC}
_BLIND = {"threats": False, **_UNTUNED}
BASELINES: dict[str, tuple[str, dict[str, bool]]] = {
    "hard-v1": ("hard", {"lazy_moves": False, "null_move": False, **_BLIND}),
    "hard-v2": ("hard", {"null_move": False, **_BLIND}),
    "hard-v3": ("hard", _BLIND),
    "hard-v4": ("hard", _UNTUNED),
    "hard-v5": ("hard", _GENERIC),
}


@dataclass(frozen=True)
class Task:
    game: str
    weaker: str
    stronger: str
    stronger_first: bool
    opening_seed: int
    opening_plies: int
    scale: float
    max_plies: int


@dataclass(frozen=True)
class Outcome:
    task: Task
    winner: str | None  # "weaker", "stronger" or None (a draw, or unfinished at max_plies)
    reason: str
    plies: int
    seconds: float


def budget(level: str, scale: float) -> float:
    level = BASELINES[level][0] if level in BASELINES else level
    return LEVELS[level].time_budget_s * scale


def player(level: str, seed: int) -> Player:
    """A level's player, or a baseline's: the same search with some changes switched off."""
    if level not in BASELINES:
        return make_player(level, seed=seed)
    parent, flags = BASELINES[level]
    depth = LEVELS[parent].max_depth
    assert depth is not None
    return AlphaBetaPlayer(name=level, max_depth=depth, seed=seed, **flags)


def opening(game: engine.Game[Any], seed: int, plies: int) -> Any:
    """A random start of ``plies`` moves that does not end the game."""
    rng = random.Random(seed)
    while True:
        pos = game.start()
        for _ in range(plies):
            if game.result(pos) is not None:
                break
            pos = game.play(pos, rng.choice(game.legal_moves(pos)))
        if game.result(pos) is None:
            return pos


def play(task: Task) -> Outcome:
    started = time.perf_counter()
    game = engine.get_game(task.game)
    seed = task.opening_seed * 2 + task.stronger_first
    players: dict[str, Player] = {
        "weaker": player(task.weaker, seed),
        "stronger": player(task.stronger, seed + 1),
    }
    seats = ("stronger", "weaker") if task.stronger_first else ("weaker", "stronger")
    levels = {"weaker": task.weaker, "stronger": task.stronger}
    pos = opening(game, task.opening_seed, task.opening_plies)
    plies = 0
    while (result := game.result(pos)) is None and plies < task.max_plies:
        who = seats[pos.side]
        move = players[who].choose(game, pos, budget(levels[who], task.scale))
        pos = game.play(pos, move)
        plies += 1
    seconds = time.perf_counter() - started
    if result is None:
        return Outcome(task, None, "unfinished", plies, seconds)
    winner = None if result.winner is None else seats[engine.SIDES.index(result.winner)]
    return Outcome(task, winner, result.reason, plies, seconds)


def progress(outcome: Outcome, done: int, total: int) -> Outcome:
    """One line per finished game on stderr, so a long run shows it is alive."""
    task = outcome.task
    first = task.stronger if task.stronger_first else task.weaker
    second = task.weaker if task.stronger_first else task.stronger
    winner = {"stronger": task.stronger, "weaker": task.weaker, None: "nobody"}[outcome.winner]
    print(
        f"[{done + 1}/{total}] {task.game} {first} (first) vs {second}: {winner} won,"
        f" {outcome.reason}, {outcome.plies} plies, {outcome.seconds:.0f} s",
        file=sys.stderr,
        flush=True,
    )
    return outcome


def wilson_low(score: float, n: int) -> float:
    """Lower end of the 95% Wilson interval of a score (draws count half)."""
    if n == 0:
        return 0.0
    z = 1.96
    centre = score + z * z / (2 * n)
    spread = z * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n))
    return (centre - spread) / (1 + z * z / n)


def wilson_high(score: float, n: int) -> float:
    """Upper end of the 95% Wilson interval of a score."""
    return 1.0 - wilson_low(1.0 - score, n)


def elo(score: float) -> float:
    """The rating difference a score stands for (±inf at 0% and 100% are clipped to ±999)."""
    if score <= 0.0 or score >= 1.0:
        return math.copysign(999.0, score - 0.5)
    return max(-999.0, min(999.0, -400.0 * math.log10(1.0 / score - 1.0)))


def tasks_for(args: argparse.Namespace) -> list[Task]:
    tasks = []
    for game in args.game_ids:
        for pairing in args.pairings:
            weaker, stronger = pairing.split(":")
            for i in range(args.games):
                tasks.append(
                    Task(
                        game,
                        weaker,
                        stronger,
                        stronger_first=i % 2 == 0,
                        opening_seed=args.seed * 100_000 + i // 2,
                        opening_plies=args.opening_plies,
                        scale=args.scale,
                        max_plies=args.max_plies,
                    )
                )
    return tasks


def report(outcomes: list[Outcome], args: argparse.Namespace) -> bool:
    """Prints the table; True when every pairing's stronger level won clearly."""
    print(
        f"{'game':<9} {'stronger':>8} vs {'weaker':<7} {'won':>4} {'drew':>4} {'lost':>4}"
        f" {'score':>6} {'95% low':>7} {'plies':>5} {'s/game':>6}  verdict     Elo (95%)"
    )
    all_clear = True
    for game in args.game_ids:
        for pairing in args.pairings:
            weaker, stronger = pairing.split(":")
            mine = [
                o
                for o in outcomes
                if o.task.game == game and o.task.weaker == weaker and o.task.stronger == stronger
            ]
            won = sum(o.winner == "stronger" for o in mine)
            lost = sum(o.winner == "weaker" for o in mine)
            drew = len(mine) - won - lost
            score = (won + drew / 2) / len(mine) if mine else 0.0
            low = wilson_low(score, len(mine))
            clear = score >= CLEAR_SCORE and low > 0.5
            all_clear &= clear
            plies = sum(o.plies for o in mine) / max(len(mine), 1)
            seconds = sum(o.seconds for o in mine) / max(len(mine), 1)
            print(
                f"{game:<9} {stronger:>8} vs {weaker:<7} {won:>4} {drew:>4} {lost:>4}"
                f" {score:>6.0%} {low:>7.0%} {plies:>5.0f} {seconds:>6.1f}"
                f"  {'clear    ' if clear else 'NOT CLEAR'}"
                f" {elo(score):+5.0f} [{elo(low):+.0f}, {elo(wilson_high(score, len(mine))):+.0f}]"
            )
            reasons: dict[str, int] = {}
            for o in mine:
                reasons[o.reason] = reasons.get(o.reason, 0) + 1
            if args.verbose:
                print("          endings: " + ", ".join(f"{r} {n}" for r, n in reasons.items()))
    return all_clear


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("game_ids", nargs="*", metavar="game", help="default: all five")
    parser.add_argument("--games", type=int, default=20, help="games per pairing (default 20)")
    parser.add_argument(
        "--pairings",
        default=",".join(DEFAULT_PAIRINGS),
        help="weaker:stronger pairs, comma-separated (default %(default)s)",
    )
    parser.add_argument(
        "--scale", type=float, default=1.0, help="multiplies every level's time budget"
    )
    parser.add_argument("--opening-plies", type=int, default=2, help="random plies first")
    parser.add_argument("--max-plies", type=int, default=400, help="then a game counts drawn")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (processes)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-v", "--verbose", action="store_true", help="print how games ended")
    args = parser.parse_args(argv)
    args.game_ids = args.game_ids or list(engine.game_ids())
    args.pairings = [p.strip() for p in args.pairings.split(",") if p.strip()]
    for gid in args.game_ids:
        engine.get_game(gid)  # an unknown game fails here, before any game is played
    for pairing in args.pairings:
        levels = pairing.split(":")
        if len(levels) != 2 or any(lv not in LEVELS and lv not in BASELINES for lv in levels):
            parser.error(f"bad pairing {pairing!r}: use weaker:stronger from {', '.join(LEVELS)}")
    budgets = ", ".join(f"{name} {budget(name, args.scale):g} s" for name in LEVELS)
    print(
        f"{args.games} games per pairing, openings of {args.opening_plies} random plies,"
        f" budgets per move: {budgets}"
    )
    tasks = tasks_for(args)
    started = time.perf_counter()
    outcomes: list[Outcome] = []
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            for done in as_completed([pool.submit(play, t) for t in tasks]):
                outcomes.append(progress(done.result(), len(outcomes), len(tasks)))
    else:
        for task in tasks:
            outcomes.append(progress(play(task), len(outcomes), len(tasks)))
    clear = report(outcomes, args)
    print(f"{len(outcomes)} games in {time.perf_counter() - started:.0f} s")
    return 0 if clear else 1


if __name__ == "__main__":
    sys.exit(main())
