"""``python -m app puzzles generate --table PATH [--out FILE] [--database URL]`` and
``python -m app puzzles import``: make the puzzle set from a built tablebase (and the
finished games of a site's database), and load it into the configured database.

The generated set is committed (app/puzzles/dobutsu.jsonl.gz, DEFAULT_FILE); the server
imports it on first use, so ``import`` is only needed to load another file."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TextIO

from sqlalchemy import select

from app.db.engine import make_engine, make_sessionmaker
from app.db.models import Game
from app.domain.enums import GameStatus

from .data import DEFAULT_FILE, import_file

# Games that never were: no puzzle in them.
NOT_PLAYED = (GameStatus.CREATED, GameStatus.STARTED, GameStatus.ABORTED, GameStatus.NO_START)


async def finished_games(url: str) -> list[tuple[str, list[str]]]:
    """The finished Dōbutsu games of a database under the default rules, from the start:
    their ids and moves."""
    engine = make_engine(url)
    try:
        sessions = make_sessionmaker(engine)
        async with sessions() as session:
            stmt = select(Game.id, Game.moves, Game.rules, Game.initial_fen).where(
                Game.variant == "dobutsu", Game.status.notin_(NOT_PLAYED)
            )
            rows = (await session.execute(stmt)).all()
    finally:
        await engine.dispose()
    return [
        (row.id, row.moves.split())
        for row in sorted(rows, key=lambda row: row.id)
        if row.initial_fen is None
        and (row.rules or {}).get("ruleset", "dobutsu") == "dobutsu"
        and row.moves
    ]


def generate_command(
    table: Path,
    out: Path | None,
    database: str | None,
    per_length: int,
    total: int | None = None,
    seed: int = 0,
) -> int:
    """Generate the set into ``out`` (default: the committed file); the exit status."""
    from app.tablebase.store import Table  # noqa: PLC0415 - numpy only when generating

    from .generate import generate, write  # noqa: PLC0415

    folder = table / "dobutsu" if (table / "dobutsu" / "table.json").exists() else table
    if not (folder / "table.json").exists():
        print(f"no table in {table}: python -m app tablebase build (README)", file=sys.stderr)
        return 1
    games = asyncio.run(finished_games(database)) if database else []
    puzzles = generate(Table(folder), per_length, seed=seed, games=games, total=total)
    target = out or DEFAULT_FILE
    write(target, puzzles)
    print(f"{len(puzzles)} puzzles written to {target}")
    return 0


def import_command(url: str, source: Path | None, out: TextIO = sys.stdout) -> int:
    added = asyncio.run(_import(url, source or DEFAULT_FILE))
    print(f"{added} puzzles added from {source or DEFAULT_FILE}", file=out)
    return 0


async def _import(url: str, source: Path) -> int:
    engine = make_engine(url)
    try:
        return await import_file(make_sessionmaker(engine), source)
    finally:
        await engine.dispose()
