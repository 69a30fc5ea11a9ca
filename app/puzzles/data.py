"""The committed puzzle set (one JSON object a line, gzip-compressed: generate.py writes it)
and its import into the database: the puzzles not there yet are added, those there keep
their ratings and plays."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.ratings import glicko2

from .tables import Puzzle

DEFAULT_FILE = Path(__file__).resolve().parent / "dobutsu.jsonl.gz"
# A first rating is an estimate from the solution (themes.py): surer than nothing, far
# from sure (lichess's new players start at 500).
INITIAL_DEVIATION = 300.0
BATCH = 500


def read(path: Path) -> Iterator[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                yield json.loads(line)


def row_of(data: dict[str, Any]) -> Puzzle:
    return Puzzle(
        id=data["id"],
        variant=data["variant"],
        ruleset=data["ruleset"],
        source=data["source"],
        game_id=data.get("game_id"),
        moves=" ".join(data["moves"]),
        fen=data["fen"],
        solution=" ".join(data["solution"]),
        themes=" ".join(data["themes"]),
        plies=data["plies"],
        rating=float(data["rating"]),
        deviation=INITIAL_DEVIATION,
        volatility=glicko2.DEFAULT_VOLATILITY,
        plays=0,
    )


async def import_file(sessions: async_sessionmaker[AsyncSession], path: Path) -> int:
    """Add the puzzles of ``path`` that the database lacks; how many were added."""
    async with sessions() as session:
        have = set((await session.execute(select(Puzzle.id))).scalars())
    added = 0
    batch: list[Puzzle] = []
    for data in read(path):
        if data["id"] in have:
            continue
        have.add(data["id"])
        batch.append(row_of(data))
        if len(batch) >= BATCH:
            added += await _add(sessions, batch)
            batch = []
    return added + await _add(sessions, batch)


async def _add(sessions: async_sessionmaker[AsyncSession], batch: list[Puzzle]) -> int:
    if batch:
        async with sessions() as session, session.begin():
            session.add_all(batch)
    return len(batch)
