"""``python -m app puzzles generate``: Dōbutsu puzzles from the solved table.

A puzzle is a position whose side to move (the solver) wins, where exactly one move keeps
the win, and where, along the line that follows (the solver's one winning move, then the
opponent's best defence: the slowest loss), every one of the solver's turns again has
exactly one move that keeps the win, until the game ends: the solution is that whole line,
1 to 15 plies (docs/decisions/puzzles.md). The table gives every position's value; the
engine lists the moves and plays them.

Positions come from games: finished games on the site when a database is given, and games
the generator plays out itself from the start (positions the table reaches), each move a
good one or, now and then, a random one, so that both sides blunder as people do. A puzzle
keeps the moves that led to its position (its record); the last of them is the opponent's.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engine
from app.tablebase.encoding import from_position
from app.tablebase.store import Table, Value

from .themes import initial_rating, themes_of

MAX_PLIES = 15
LENGTHS = tuple(range(1, MAX_PLIES + 1, 2))  # a solution ends with the solver's move
ID_CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
ID_LENGTH = 5
RESERVED = frozenset({"daily", "next", "rating"})  # the API's own paths under /api/puzzle/
Log = Callable[[str], None]


def puzzle_id(moves: Iterable[str]) -> str:
    """Five base-62 characters of the moves' digest (lichess's puzzle ids are five too)."""
    number = int.from_bytes(hashlib.sha256(" ".join(moves).encode()).digest()[:8], "big")
    out = ""
    for _ in range(ID_LENGTH):
        number, digit = divmod(number, len(ID_CHARS))
        out += ID_CHARS[digit]
    return out


class Solver:
    """The table's answers about one ruleset's positions, through the engine's moves."""

    def __init__(self, table: Table, ruleset: str = "dobutsu") -> None:
        self.table = table
        self.ruleset = ruleset
        self.game = engine.get_game("dobutsu", ruleset=ruleset)

    def bare(self, pos: Any) -> Any:
        """The position without its history (the table's values ignore repetitions)."""
        text = " ".join(self.game.to_text(pos).split(" ")[: self.game.TEXT_FIELDS])
        return self.game.from_text(text)

    def value(self, pos: Any) -> Value:
        found = self.table.value(from_position(pos))
        if found is None:
            raise LookupError(f"{self.game.to_text(pos)} is not in the {self.ruleset} table")
        return found

    def replies(self, pos: Any) -> list[tuple[str, Any, Value]]:
        """Each legal move, the position after it and that position's value (for the
        opponent, who moves next)."""
        out = []
        for move in self.game.legal_moves(pos):
            after = self.game.play(pos, move)
            out.append((move, after, self.value(after)))
        return out

    def line(self, pos: Any, max_plies: int = MAX_PLIES) -> list[str] | None:
        """The solution from ``pos`` (history-free, the solver to move), or None: unless
        the solver wins within ``max_plies`` with exactly one move that keeps the win, and
        then at each of its turns exactly one move that keeps the fastest win."""
        value = self.value(pos)
        if value.category != "win" or value.plies is None or value.plies > max_plies:
            return None
        solution: list[str] = []
        while True:
            winning = [(m, a, v) for m, a, v in self.replies(pos) if v.category == "loss"]
            if not solution and len(winning) != 1:
                return None
            fastest = [(m, a) for m, a, v in winning if v.plies == value.plies - 1]
            if len(fastest) != 1:
                return None
            move, pos = fastest[0]
            solution.append(move)
            if self.game.result(pos) is not None:
                return solution
            # The opponent's best defence: the slowest loss; of equals, the first move text.
            replies = self.replies(pos)
            slowest = max(v.plies or 0 for _, _, v in replies)
            best = [(m, a, v) for m, a, v in replies if (v.plies or 0) == slowest]
            move, pos, value = min(best, key=lambda reply: reply[0])
            solution.append(move)


@dataclass
class Found:
    """The puzzles found so far, at most ``quota`` of each length, one a position."""

    quota: int
    puzzles: dict[int, list[dict[str, Any]]] = field(
        default_factory=lambda: {n: [] for n in LENGTHS}
    )
    seen: set[int] = field(default_factory=set)

    def count(self) -> int:
        return sum(len(found) for found in self.puzzles.values())

    def full(self) -> bool:
        return all(len(found) >= self.quota for found in self.puzzles.values())

    def wants(self, plies: int) -> bool:
        return plies in self.puzzles and len(self.puzzles[plies]) < self.quota

    def all(self) -> list[dict[str, Any]]:
        return sorted((p for found in self.puzzles.values() for p in found), key=_order)


def _order(puzzle: dict[str, Any]) -> tuple[int, str]:
    return (puzzle["plies"], puzzle["id"])


def consider(
    solver: Solver,
    found: Found,
    moves: list[str],
    pos: Any,
    game_id: str | None = None,
) -> dict[str, Any] | None:
    """The puzzle at ``pos`` (reached by ``moves``, the last one the opponent's), if it is
    one that ``found`` still wants; it is added there."""
    if not moves or solver.game.result(pos) is not None:
        return None
    pos = solver.bare(pos)
    value = solver.value(pos)
    if value.category != "win" or not found.wants(value.plies or 0):
        return None
    code = from_position(pos)
    if code in found.seen:
        return None
    solution = solver.line(pos)
    if solution is None:
        return None
    found.seen.add(code)
    puzzle = describe(solver, moves, pos, solution, game_id)
    if puzzle["id"] in RESERVED:
        return None
    found.puzzles[puzzle["plies"]].append(puzzle)
    return puzzle


def describe(
    solver: Solver, moves: list[str], pos: Any, solution: list[str], game_id: str | None
) -> dict[str, Any]:
    """A puzzle as the data file keeps it (app/puzzles/data.py reads it back)."""
    game = solver.game
    return {
        "id": puzzle_id([*moves, "|", *solution]),
        "variant": "dobutsu",
        "ruleset": solver.ruleset,
        "source": "table" if game_id is None else "game",
        "game_id": game_id,
        "moves": moves,
        "fen": game.to_text(pos),
        "solution": solution,
        "themes": themes_of(game, pos, solution),
        "plies": len(solution),
        "rating": initial_rating(game, pos, solution),
    }


def playouts(
    solver: Solver, seed: int, blunders: float, start: str | None = None
) -> Iterator[tuple[list[str], Any]]:
    """Endless games from the start (or the position string ``start``), each move the
    table's best or (with probability ``blunders``) a random one; every position after a
    move, with the moves to it."""
    rng = random.Random(seed)
    game = solver.game
    while True:
        pos = game.start() if start is None else game.from_text(start)
        moves: list[str] = []
        while game.result(pos) is None and len(moves) < 200:
            legal = game.legal_moves(pos)
            blunder = rng.random() < blunders
            move = rng.choice(legal) if blunder else _good(solver, pos, rng)
            pos = game.play(pos, move)
            moves.append(move)
            yield list(moves), pos


def _good(solver: Solver, pos: Any, rng: random.Random) -> str:
    """A move that keeps the position's value (any of them, at random), as a strong
    player picks one: winning moves if it wins, else drawing ones, else the slowest loss."""
    replies = solver.replies(solver.bare(pos))
    rank = {"loss": 0, "draw": 1, "win": 2}
    best = min(rank[v.category] for _, _, v in replies)
    keep = [(m, v) for m, _, v in replies if rank[v.category] == best]
    if best == 2:  # every move loses: the slowest
        slowest = max(v.plies or 0 for _, v in keep)
        keep = [(m, v) for m, v in keep if v.plies == slowest]
    return rng.choice(keep)[0]


def from_games(
    solver: Solver,
    found: Found,
    games: Iterable[tuple[str, list[str]]],
    start: str | None = None,
) -> int:
    """Puzzles from finished games (id, moves from the start, or from ``start``): each
    position after a move is looked at; how many were found."""
    count = 0
    for game_id, moves in games:
        pos = solver.game.start() if start is None else solver.game.from_text(start)
        for i, move in enumerate(moves):
            try:
                pos = solver.game.play(pos, move)
            except engine.EngineError:
                break
            if consider(solver, found, moves[: i + 1], pos, game_id) is not None:
                count += 1
    return count


def generate(
    table: Table,
    per_length: int,
    seed: int = 0,
    games: Iterable[tuple[str, list[str]]] = (),
    log: Log = print,
    max_positions: int | None = None,
    total: int | None = None,
    start: str | None = None,
) -> list[dict[str, Any]]:
    """Up to ``per_length`` puzzles of each odd length from 1 to 15 plies: those of the
    finished ``games`` first, then of the generator's own games, one puzzle a game at
    most, until every length has its share, or ``total`` puzzles were found, or
    ``max_positions`` positions were seen. ``start``: the generator's games start there
    (the tests' reduced problems), not at the game's start."""
    solver = Solver(table)
    found = Found(per_length)
    log(f"puzzles: {from_games(solver, found, games, start)} from the site's games")
    seen = 0
    skip = False  # one puzzle a game: the rest of a game that gave one is skipped
    for moves, pos in playouts(solver, seed, blunders=0.25, start=start):
        if (
            found.full()
            or (total is not None and found.count() >= total)
            or (max_positions is not None and seen >= max_positions)
        ):
            break
        seen += 1
        if len(moves) == 1:
            skip = False
        if not skip and consider(solver, found, moves, pos) is not None:
            skip = True
        if seen % 20000 == 0:
            counts = ", ".join(f"{n}: {len(p)}" for n, p in found.puzzles.items())
            log(f"  {seen:,} positions; puzzles by plies: {counts}")
    puzzles = found.all()
    log(f"puzzles: {len(puzzles)} from {seen:,} positions")
    return puzzles


def write(path: Path, puzzles: list[dict[str, Any]]) -> None:
    """One JSON object a line, gzip-compressed (mtime 0: the same puzzles, the same bytes)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(p, separators=(",", ":"), ensure_ascii=False) + "\n" for p in puzzles]
    with path.open("wb") as raw, gzip.GzipFile(filename="", fileobj=raw, mode="wb", mtime=0) as out:
        out.write("".join(lines).encode())
