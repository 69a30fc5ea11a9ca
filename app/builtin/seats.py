"""The built-in opponents' seats: how many games each level plays at once, which of its games
hold a seat, and the games whose opponent left, which the server ends for the bot.

A game holds a seat while the bot's opponent is connected to it (a page of the game or a
stream open on some instance): a player who left costs no search, so a leaver never keeps the
next visitor out. Once the leaver has been gone for the grace period that lets any player
claim (``gone_seconds``, or ``gone_unmoved_seconds`` for one who has not moved yet), the bot
ends the game as a person would: it aborts it before both sides have moved, else claims the
victory (docs/decisions/builtin-leavers.md). ``Seats.sweep`` does that, and the instance
that runs the bots sweeps every ``SWEEP_S`` on the server's clock (app/builtin/service.py).

``Seats.now`` also gives each opponent's ratings from the site's rated games, which the
lobby shows beside the strongest opponent of each game.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.core.errors import ServiceError
from app.db.models import Game, GameRow, Player, PlayerRating
from app.domain.enums import GameStatus
from app.domain.players import Identity
from app.games.service import GameService
from app.ratings.service import as_of
from app.realtime.presence import Presence

log = logging.getLogger(__name__)

# Games at once per level whose opponent is connected: what one core carries at a person's
# pace (bench/builtin_seats.py; docs/benchmarks.md, "Built-in opponents' seats").
# KODAMA_BUILTIN_SEATS changes them (Settings.builtin_seats). Perfect play takes about 2 ms a
# move (docs/benchmarks.md, "Perfect play"); Fairy-Stockfish's games share one engine
# process, taking turns, 1 s a move without a clock.
SEATS = {"random": 64, "easy": 36, "medium": 15, "hard": 3, "perfect": 64, "fairy": 4}
PREFIX = "kodama-"
# How often the bots' instance looks for games whose opponent is gone past the grace.
SWEEP_S = 1.0


def seats_of(chosen: dict[str, int]) -> dict[str, int]:
    """SEATS with the figures ``chosen`` (by level) instead; ValueError for a level that is
    not one or a figure under 1."""
    for level, n in chosen.items():
        if level not in SEATS or not isinstance(n, int) or n < 1:
            raise ValueError(f"built-in seats: {level!r}: {n!r} (levels: {', '.join(SEATS)})")
    return {**SEATS, **chosen}


@dataclass(frozen=True)
class LevelSeats:
    """One built-in opponent's seats now."""

    username: str
    seats: int  # games at once with a connected opponent
    taken: int  # its games in progress whose opponent is connected
    # Its ratings from the site's rated games, by game: {"rating", "games", "prov"}.
    perfs: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def free(self) -> int:
        return max(0, self.seats - self.taken)

    def json(self) -> dict[str, object]:
        return {
            "username": self.username,
            "seats": self.seats,
            "taken": self.taken,
            "free": self.free,
            "perfs": self.perfs,
        }


class Seats:
    """The built-in accounts' games in progress, as the presence sees their opponents."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        games: GameService,
        presence: Presence,
        seats: dict[str, int] | None = None,
    ) -> None:
        self.sessions = sessions
        self.games = games
        self.presence = presence
        self.seats = seats_of(seats or {})
        self._bots: dict[str, Identity] = {}  # player id -> the bot (once its account exists)

    async def bots(self) -> dict[str, Identity]:
        """The built-in accounts that exist: player id -> identity."""
        if len(self._bots) < len(self.seats):
            names = [PREFIX + level for level in self.seats]
            async with self.sessions() as session:
                rows = await session.execute(
                    select(Player.id, Player.username).where(Player.username.in_(names))
                )
            self._bots = {pid: Identity(pid, str(name)) for pid, name in rows.all()}
        return self._bots

    async def in_progress(self) -> list[tuple[GameRow, Identity, str]]:
        """The bots' started games: (game, the bot, the opponent's side)."""
        bots = await self.bots()
        if not bots:
            return []
        ids = list(bots)
        async with self.sessions() as session:
            rows = await session.execute(
                select(Game).where(
                    Game.status == GameStatus.STARTED,
                    or_(Game.first_id.in_(ids), Game.second_id.in_(ids)),
                )
            )
            games = list(rows.scalars())
        found: list[tuple[GameRow, Identity, str]] = []
        for game in games:
            if game.first_id in bots and game.second_id not in bots:
                found.append((game, bots[game.first_id], "second"))
            elif game.second_id in bots and game.first_id not in bots:
                found.append((game, bots[game.second_id], "first"))
        return found

    async def now(self) -> list[LevelSeats]:
        """Each level whose account exists, weakest first, with its seats."""
        bots = await self.bots()
        names = {bot.name for bot in bots.values()}
        taken = {level: 0 for level in self.seats if PREFIX + level in names}
        for game, bot, opponent in await self.in_progress():
            level = bot.name.removeprefix(PREFIX)
            if level in taken and self.presence.online(game.id, opponent):
                taken[level] += 1
        perfs = await self.perfs(bots)
        return [
            LevelSeats(PREFIX + level, self.seats[level], n, perfs.get(PREFIX + level, {}))
            for level, n in taken.items()
        ]

    async def perfs(self, bots: dict[str, Identity]) -> dict[str, dict[str, dict[str, Any]]]:
        """Each bot's ratings as of now, by game (as lichess's ``perfs``, without progress;
        ``prov`` always there)."""
        if not bots:
            return {}
        async with self.sessions() as session:
            rows = await session.execute(
                select(PlayerRating).where(
                    PlayerRating.player_id.in_(list(bots)), PlayerRating.games > 0
                )
            )
            ratings = list(rows.scalars())
        now = self.games.now()
        found: dict[str, dict[str, dict[str, Any]]] = {}
        for row in ratings:
            perf = as_of(row, now)
            shown = {
                "rating": round(perf.rating.rating),
                "games": perf.games,
                "prov": perf.rating.provisional,
            }
            found.setdefault(bots[row.player_id].name, {})[row.variant] = shown
        return found

    async def sweep(self) -> list[str]:
        """End the bots' games whose opponent has been gone past the grace period: abort
        before both have moved, else claim the victory. The ids of the games ended."""
        ended = []
        for game, bot, opponent in await self.in_progress():
            if game.days is not None:
                continue  # correspondence: the days per move decide, nobody stays connected
            gone = self.presence.gone_for_ms(game.id, opponent)
            if gone is None or gone < self.games.transitions.grace_ms(game, opponent):
                continue
            try:
                if game.ply < 2:
                    await self.games.play.abort(bot, game.id)
                else:
                    await self.games.play.claim(bot, game.id, "victory")
            except ServiceError as exc:
                # Moved, came back or ended meanwhile: the next sweep sees it as it is now.
                log.info("%s: game %s not ended: %s", bot.name, game.id, exc.message)
                continue
            log.info("%s: game %s ended, its opponent left", bot.name, game.id)
            ended.append(game.id)
        return ended
