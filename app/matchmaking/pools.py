"""The quick-pairing pools: each game with a few time controls that suit its length
(docs/decisions.md, "Quick pairing"). Standard rules only: a pool's games use each game's
default rule options and its own start position; colours are drawn at random.

A pool's id is ``<game>-<minutes>+<increment>`` (``dobutsu-3+2``): the lobby socket's
``pool`` message and ``GET /api/pools`` use it.
"""

from __future__ import annotations

from dataclasses import dataclass

import engine


@dataclass(frozen=True, slots=True)
class Pool:
    variant: str
    minutes: int
    increment: int  # seconds

    @property
    def id(self) -> str:
        return f"{self.variant}-{self.minutes}+{self.increment}"

    @property
    def clock_ms(self) -> int:
        return self.minutes * 60_000

    @property
    def increment_ms(self) -> int:
        return self.increment * 1000

    @property
    def rules(self) -> dict[str, str]:
        """The game's standard rule options, every one filled in."""
        return dict(engine.get_game(self.variant).options)


# Per game, fastest first. dobutsu is over in 20-40 moves on a 3x4 board: bullet suits it.
# yote's captures take two stones each, so its games are short too. gorogoro and jungle take
# 60-100 moves: blitz and rapid. wali places 24 stones (no capture) before its real play.
TIME_CONTROLS: dict[str, tuple[tuple[int, int], ...]] = {
    "dobutsu": ((1, 1), (3, 2), (5, 3)),
    "gorogoro": ((3, 2), (5, 5), (10, 5)),
    "jungle": ((3, 2), (5, 5), (10, 5)),
    "yote": ((2, 1), (3, 2), (5, 3)),
    "wali": ((3, 2), (5, 3), (10, 5)),
}

POOLS: tuple[Pool, ...] = tuple(
    Pool(variant, minutes, increment)
    for variant in engine.GAMES
    for minutes, increment in TIME_CONTROLS[variant]
)
BY_ID: dict[str, Pool] = {pool.id: pool for pool in POOLS}


def pool_of(variant: str, clock_ms: int | None, increment_ms: int) -> Pool | None:
    """The pool with this game and clock, if there is one."""
    if clock_ms is None:
        return None
    for pool in POOLS:
        if (pool.variant, pool.clock_ms, pool.increment_ms) == (variant, clock_ms, increment_ms):
            return pool
    return None
