"""A token-bucket rate limiter keyed by strings (an IP, a token id, ...), in memory.

Each key has a bucket of ``burst`` tokens refilled at ``rate_per_s``; a hit takes one or
is refused with 429 and how long to wait. Per process: with several instances each one
limits on its own, which still bounds a brute force to a known multiple.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from app.core.errors import ServiceError

MAX_KEYS = 100_000  # past this, full (idle) buckets are forgotten: memory stays bounded


class RateLimiter:
    def __init__(self, rate_per_s: float, burst: int, clock: Callable[[], float]) -> None:
        """``clock``: the app's monotonic seconds (``Clock.monotonic``)."""
        if rate_per_s <= 0 or burst < 1:
            raise ValueError("rate_per_s must be above 0 and burst at least 1")
        self.rate = rate_per_s
        self.burst = burst
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, as of when)

    def _tokens(self, key: str, now: float) -> float:
        tokens, then = self._buckets.get(key, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - then) * self.rate)

    def hit(self, key: str) -> None:
        """Take one token for ``key``, or raise ServiceError 429 (nothing is taken)."""
        now = self.clock()
        tokens = self._tokens(key, now)
        if tokens < 1:
            # (rounded first: 2 s into a 3-second refill, 1/3 token is missing; in floating
            # point that is 1.0000000000000002 s, which must not say 2)
            seconds = math.ceil(round((1 - tokens) / self.rate, 6))
            raise ServiceError(
                "ratelimit",
                f"too many requests; try again in {seconds} s",
                429,
                ratelimit={"key": key, "seconds": seconds},
            )
        self._buckets[key] = (tokens - 1, now)
        if len(self._buckets) > MAX_KEYS:
            self._prune(now)

    def _prune(self, now: float) -> None:
        full = [k for k in self._buckets if self._tokens(k, now) >= self.burst]
        for key in full:
            del self._buckets[key]
