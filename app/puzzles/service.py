"""The puzzles: one by id, the day's, the next one near a player's rating, and a player's
attempt, which rates the player and the puzzle (rating.py).

The committed set (data.py) is imported into the database the first time an instance is
asked for a puzzle: only the puzzles the database lacks are added, so a database keeps its
puzzles' ratings and plays across restarts and new sets.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.errors import ServiceError
from app.core.time import Clock
from app.db.models import Game, Player
from app.ratings.glicko2 import Rating

from . import rating
from .data import DEFAULT_FILE, import_file
from .tables import Puzzle, PuzzleRating, PuzzleRound

# lichess's difficulties for the next puzzle: how far from the player's rating.
DIFFICULTIES = {"easiest": -600, "easier": -300, "normal": 0, "harder": 300, "hardest": 600}
NEAREST = 30  # the next puzzle: one at random of the nearest this many not played yet
DAILY_PLIES = (3, 9)  # the day's puzzle: neither a one-mover nor one of the longest
DAY_MS = rating.DAY_MS


@dataclass(frozen=True)
class Attempt:
    """What an attempt did: whether it was rated, the player's rating after it and the
    change, and the puzzle's rating after it."""

    win: bool
    rated: bool
    player: Rating | None
    rating_diff: int
    puzzle_rating: float


def not_found(puzzle_id: str) -> ServiceError:
    return ServiceError("puzzle.not_found", f"no puzzle {puzzle_id!r}", 404)


class Puzzles:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        clock: Clock,
        source: Path = DEFAULT_FILE,
        rng: random.Random | None = None,
    ) -> None:
        self.sessions = sessions
        self.clock = clock
        self.source = source
        self.random = rng or random.Random()
        self._imported = False
        self._lock = asyncio.Lock()

    async def ready(self) -> None:
        """Import the committed set once (app/puzzles/data.py)."""
        if self._imported:
            return
        async with self._lock:
            if self._imported:
                return
            try:
                await import_file(self.sessions, self.source)
            except IntegrityError:
                # Another instance added some of them meanwhile: add what is still missing.
                await import_file(self.sessions, self.source)
            self._imported = True

    async def get(self, puzzle_id: str) -> Puzzle:
        await self.ready()
        async with self.sessions() as session:
            found = await session.get(Puzzle, puzzle_id)
        if found is None:
            raise not_found(puzzle_id)
        return found

    async def players(self, puzzle: Puzzle) -> tuple[list[dict[str, object]], bool]:
        """The players of the site's game a puzzle comes from, in lichess's shape, and
        whether it was rated: none for a puzzle of the generator's own games."""
        if puzzle.game_id is None:
            return [], False
        async with self.sessions() as session:
            game = await session.get(Game, puzzle.game_id)
            if game is None:
                return [], False
            seats = [
                (color, player_id, rated)
                for color, player_id, rated in (
                    ("white", game.first_id, game.first_rating),
                    ("black", game.second_id, game.second_rating),
                )
                if player_id is not None
            ]
            found = {
                p.id: p
                for p in (
                    await session.execute(
                        select(Player).where(Player.id.in_([seat[1] for seat in seats]))
                    )
                ).scalars()
            }
        out: list[dict[str, object]] = []
        for color, player_id, seat_rating in seats:
            player = found.get(player_id)
            if player is None:
                continue
            entry: dict[str, object] = {"color": color, "name": player.name}
            if player.username is not None:
                entry["userId"] = player.username.lower()
                entry["id"] = player.username.lower()
            if seat_rating is not None:
                entry["rating"] = seat_rating
            out.append(entry)
        return out, game.rated

    async def daily(self) -> Puzzle:
        """The day's puzzle (UTC days): the same for everyone all day, another each day."""
        await self.ready()
        day = self.clock.now_ms() // DAY_MS
        async with self.sessions() as session:
            ids = list(
                (
                    await session.execute(
                        select(Puzzle.id)
                        .where(Puzzle.plies.between(*DAILY_PLIES))
                        .order_by(Puzzle.id)
                    )
                ).scalars()
            )
            if not ids:
                ids = list((await session.execute(select(Puzzle.id).order_by(Puzzle.id))).scalars())
        if not ids:
            raise ServiceError("puzzle.none", "this server has no puzzles", 404)
        pick = int.from_bytes(hashlib.sha256(f"daily {day}".encode()).digest()[:8], "big")
        return await self.get(ids[pick % len(ids)])

    async def rating_of(self, player_id: str | None) -> Rating:
        """A player's puzzle rating as of now (a guest's, and a new player's: the default)."""
        if player_id is None:
            return Rating()
        async with self.sessions() as session:
            row = await session.get(PuzzleRating, player_id)
        if row is None:
            return Rating()
        kept = Rating(row.rating, row.deviation, row.volatility)
        return rating.aged(kept, row.updated_ms, self.clock.now_ms())

    async def plays_of(self, player_id: str) -> int:
        async with self.sessions() as session:
            row = await session.get(PuzzleRating, player_id)
        return 0 if row is None else row.plays

    async def next(
        self,
        player_id: str | None,
        difficulty: str | None = None,
        angle: str | None = None,
        after: str | None = None,
    ) -> Puzzle:
        """A puzzle near the player's rating (shifted by lichess's ``difficulty``), of the
        theme ``angle`` if given: one at random of the nearest not played yet (an
        account's rounds; for a guest, not ``after``, the one just played)."""
        await self.ready()
        target = (await self.rating_of(player_id)).rating + DIFFICULTIES[difficulty or "normal"]
        stmt = select(Puzzle.id)
        if angle and angle != "mix":
            stmt = stmt.where((" " + Puzzle.themes + " ").contains(f" {angle} "))
        if player_id is not None:
            played = select(PuzzleRound.puzzle_id).where(PuzzleRound.player_id == player_id)
            stmt = stmt.where(Puzzle.id.notin_(played))
        if after is not None:
            stmt = stmt.where(Puzzle.id != after)
        stmt = stmt.order_by(func.abs(Puzzle.rating - target), Puzzle.id).limit(NEAREST)
        async with self.sessions() as session:
            ids = list((await session.execute(stmt)).scalars())
        if not ids:
            theme = f" of the theme {angle!r}" if angle else ""
            raise ServiceError("puzzle.none", f"no puzzle left to play here{theme}", 404)
        return await self.get(self.random.choice(ids))

    async def attempt(self, player_id: str | None, puzzle_id: str, win: bool) -> Attempt:
        """Record an attempt: a player's first at this puzzle rates both (rating.py); a
        replay, or a guest's attempt (``player_id`` None), changes nothing."""
        puzzle = await self.get(puzzle_id)
        if player_id is None:
            return Attempt(win, False, None, 0, puzzle.rating)
        try:
            done = await self._rate(player_id, puzzle_id, win)
        except IntegrityError:
            done = None  # the same player's first attempt, sent twice at once: rated once
        if done is None:
            return Attempt(win, False, await self.rating_of(player_id), 0, puzzle.rating)
        return done

    async def _rate(self, player_id: str, puzzle_id: str, win: bool) -> Attempt | None:
        """Rate the player's first attempt (None: it was not the first)."""
        now = self.clock.now_ms()
        async with self.sessions() as session, session.begin():
            if await session.get(PuzzleRound, (player_id, puzzle_id)) is not None:
                return None
            row = await session.get(Puzzle, puzzle_id, with_for_update=True)
            kept = await session.get(PuzzleRating, player_id, with_for_update=True)
            assert row is not None  # puzzles are never deleted
            before = Rating()
            if kept is not None:
                before = rating.aged(
                    Rating(kept.rating, kept.deviation, kept.volatility), kept.updated_ms, now
                )
            puzzle_before = Rating(row.rating, row.deviation, row.volatility)
            after, puzzle_after = rating.attempt(before, puzzle_before, win)
            diff = round(after.rating) - round(before.rating)
            row.rating, row.deviation = puzzle_after.rating, puzzle_after.deviation
            row.volatility, row.plays = puzzle_after.volatility, row.plays + 1
            if kept is None:
                kept = PuzzleRating(player_id=player_id, plays=0)
                session.add(kept)
            kept.rating, kept.deviation, kept.volatility = (
                after.rating,
                after.deviation,
                after.volatility,
            )
            kept.plays, kept.updated_ms = kept.plays + 1, now
            session.add(
                PuzzleRound(
                    player_id=player_id,
                    puzzle_id=puzzle_id,
                    win=win,
                    rated=True,
                    rating_diff=diff,
                    created_ms=now,
                )
            )
        return Attempt(win, True, after, diff, puzzle_after.rating)
