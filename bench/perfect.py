"""Perfect play (bots/perfect.py) against the hard level, on the full Dōbutsu table.

Each game starts from a random opening (a few random plies), perfect play takes first and
second in turn, and every position perfect play meets is looked up: once it has a won
position it must win the game. It prints one line a game, then perfect play's score and the
won positions lost (which must be 0), and exits 1 if any was.

    .venv/bin/python bench/perfect.py --tables data/tablebase
    .venv/bin/python bench/perfect.py --tables data/tablebase --games 20 --scale 0.1 --jobs 2
    .venv/bin/python bench/perfect.py --tables data/tablebase --ruleset yokai --games 20

The table takes minutes to build (``python -m app tablebase build``), so the suite cannot run
this; docs/benchmarks.md ("Perfect play") has its last figures.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

# bench/ holds a script named engine.py: keep this folder off the import path so that
# "import engine" finds the engine package.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
if str(_HERE.parent) not in sys.path:
    sys.path.insert(0, str(_HERE.parent))

import engine  # noqa: E402
from app.tablebase.lookup import Tablebases  # noqa: E402
from bench.strength import opening  # noqa: E402
from bots.perfect import GAME, PerfectPlayer  # noqa: E402
from bots.players import LEVELS, make_player  # noqa: E402


@dataclass(frozen=True)
class Task:
    number: int
    tables: Path
    ruleset: str
    perfect_first: bool
    opening_seed: int
    opening_plies: int
    budget_s: float  # the hard level's time a move
    max_plies: int


@dataclass(frozen=True)
class Outcome:
    task: Task
    start: str  # perfect play's value when it first moved: "win 23", "draw", "loss 40"
    won_at: int | None  # the first ply perfect play had a won position (None: never)
    winner: str | None  # "perfect", "hard" or None (a draw, or unfinished at max_plies)
    reason: str
    plies: int
    seconds: float
    wrong_moves: int  # perfect moves that turned a win into a non-win, or a draw into a loss

    @property
    def won_position_lost(self) -> bool:
        return self.won_at is not None and self.winner != "perfect"


def words(category: str, plies: int | None) -> str:
    return category if plies is None else f"{category} {plies}"


def play(task: Task) -> Outcome:
    started = time.perf_counter()
    game = engine.get_game(GAME, ruleset=task.ruleset)
    perfect = PerfectPlayer(Tablebases(task.tables), seed=task.number)
    hard = make_player("hard", seed=task.number)
    seats = ("perfect", "hard") if task.perfect_first else ("hard", "perfect")
    pos = opening(game, task.opening_seed, task.opening_plies)
    first_value: str | None = None
    won_at: int | None = None
    wrong = 0
    plies = 0
    while (result := game.result(pos)) is None and plies < task.max_plies:
        if seats[pos.side] == "perfect":
            value = perfect.value(game, pos)
            first_value = first_value or words(value.category, value.plies)
            if value.category == "win" and won_at is None:
                won_at = plies
            move = perfect.choose(game, pos, 0.0)
            after = perfect.value(game, game.play(pos, move))
            keeps = {"win": ("loss",), "draw": ("draw", "loss"), "loss": ("win", "draw", "loss")}
            wrong += after.category not in keeps[value.category]
        else:
            move = hard.choose(game, pos, task.budget_s)
        pos = game.play(pos, move)
        plies += 1
    seconds = time.perf_counter() - started
    if result is None:
        winner, reason = None, "unfinished"
    else:
        side = None if result.winner is None else engine.SIDES.index(result.winner)
        winner, reason = (None if side is None else seats[side]), result.reason
    return Outcome(task, first_value or "-", won_at, winner, reason, plies, seconds, wrong)


def line(outcome: Outcome) -> str:
    task = outcome.task
    colour = "first" if task.perfect_first else "second"
    flag = "  WON POSITION LOST" if outcome.won_position_lost else ""
    return (
        f"game {task.number:>3}: perfect {colour:<6} from {outcome.start:<9}"
        f" {(outcome.winner or 'nobody') + ' won':<12} {outcome.reason:<11}"
        f" {outcome.plies:>3} plies {outcome.seconds:>5.1f} s{flag}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--tables", type=Path, required=True, help="the tables' folder (<folder>/dobutsu)"
    )
    parser.add_argument("--ruleset", default="dobutsu", choices=("dobutsu", "yokai"))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument(
        "--scale", type=float, default=1.0, help="multiplies the hard level's 2 s a move"
    )
    parser.add_argument(
        "--opening-plies", type=int, default=8, help="random plies first: 1 to this many"
    )
    parser.add_argument("--max-plies", type=int, default=400, help="then a game is unfinished")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (processes)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if Tablebases(args.tables).table(args.ruleset) is None:
        parser.error(f"no {args.ruleset} table under {args.tables}")
    rng = random.Random(args.seed)
    tasks = [
        Task(
            number=i + 1,
            tables=args.tables,
            ruleset=args.ruleset,
            perfect_first=i % 2 == 0,
            opening_seed=rng.randrange(1 << 30),
            opening_plies=rng.randint(1, args.opening_plies),
            budget_s=LEVELS["hard"].time_budget_s * args.scale,
            max_plies=args.max_plies,
        )
        for i in range(args.games)
    ]
    started = time.perf_counter()
    outcomes = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for outcome in pool.map(play, tasks):
            print(line(outcome), flush=True)
            outcomes.append(outcome)
    won = sum(o.winner == "perfect" for o in outcomes)
    lost = sum(o.winner == "hard" for o in outcomes)
    drawn = len(outcomes) - won - lost
    had_won = sum(o.won_at is not None for o in outcomes)
    lost_wins = sum(o.won_position_lost for o in outcomes)
    wrong = sum(o.wrong_moves for o in outcomes)
    print(
        f"{len(outcomes)} {args.ruleset} games against hard ({tasks[0].budget_s:g} s a move),"
        f" random openings of 1-{args.opening_plies} plies,"
        f" {time.perf_counter() - started:.0f} s"
    )
    print(
        f"perfect: {won} won, {drawn} drawn, {lost} lost:"
        f" score {(won + drawn / 2) / max(len(outcomes), 1):.1%}"
    )
    print(f"games where perfect had a won position: {had_won}; won positions lost: {lost_wins}")
    print(f"perfect moves that gave up a win or a draw: {wrong}")
    return 1 if lost_wins or wrong else 0


if __name__ == "__main__":
    sys.exit(main())
