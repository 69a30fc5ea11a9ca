"""The quick-pairing pools: each game with a few time controls that suit its length
(docs/decisions/quick-pairing.md), as the games' table lists them (engine/variants.py).
Standard rules only: a pool's games use each game's default rule options and its own start
position; colours are drawn at random.

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


def all_pools() -> tuple[Pool, ...]:
    """Every pool: each game's time controls (engine/variants.py, ``pools``), in order."""
    return tuple(
        Pool(entry.id, minutes, increment)
        for entry in engine.variants.all_variants()
        for minutes, increment in entry.pools
    )


def pools_by_id() -> dict[str, Pool]:
    """Every pool by its id."""
    return {pool.id: pool for pool in all_pools()}


def pool_of(variant: str, clock_ms: int | None, increment_ms: int) -> Pool | None:
    """The pool with this game and clock, if there is one."""
    if clock_ms is None:
        return None
    for pool in all_pools():
        if (pool.variant, pool.clock_ms, pool.increment_ms) == (variant, clock_ms, increment_ms):
            return pool
    return None
