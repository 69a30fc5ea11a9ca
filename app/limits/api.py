"""The API's rate limits: a token bucket per caller (API token, or cookie player) and a
larger one per IP address, for each kind of request (moves and game actions, challenges,
streams, chat, the browser's game creations/joins/cancels, other game-socket messages).

The ``move`` kind counts per caller *and game*: a bot playing twenty games at once moves as
often as its twenty opponents, which is normal play, while flooding one game is what the limit
stops. The address's bucket still counts every game of every caller behind it.

A refusal is 429 ``{"code": "ratelimit", "ratelimit": {"key": <kind>, "seconds": <wait>}}``:
the key names the kind of request, never the token or the address.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from app.core.config import Settings
from app.core.errors import ServiceError
from app.limits.ratelimit import RateLimiter

KINDS = ("move", "challenge", "stream", "chat", "game", "socket")
PER_GAME = frozenset({"move"})  # kinds whose caller bucket is one per game


@dataclass(frozen=True)
class Pair:
    caller: RateLimiter
    ip: RateLimiter


class ApiLimits:
    def __init__(self, settings: Settings, clock: Callable[[], float]) -> None:
        factor = settings.ratelimit_ip_factor
        self._pairs: dict[str, Pair] = {}
        for kind in KINDS:
            rate = float(getattr(settings, f"ratelimit_{kind}_per_s"))
            burst = int(getattr(settings, f"ratelimit_{kind}_burst"))
            self._pairs[kind] = Pair(
                caller=RateLimiter(rate, burst, clock),
                ip=RateLimiter(rate * factor, max(1, math.ceil(burst * factor)), clock),
            )

    def hit(self, kind: str, subject: str, ip: str, game_id: str | None = None) -> None:
        """Count one request of ``kind`` by ``subject`` (a token id or player id) from ``ip``;
        ``game_id``: the game it acts on, for the kinds counted per game."""
        pair = self._pairs[kind]
        caller_key = f"{subject}:{game_id}" if kind in PER_GAME and game_id else subject
        # The address first: a refusal there takes nothing from the caller's own budget.
        for limiter, key, whose in ((pair.ip, ip, "address"), (pair.caller, caller_key, "caller")):
            try:
                limiter.hit(f"{kind}:{key}")
            except ServiceError as exc:
                info = exc.extra.get("ratelimit")
                seconds = info.get("seconds", 1) if isinstance(info, dict) else 1
                raise too_many(
                    kind, f"too many {kind} requests from this {whose}", seconds
                ) from None


def too_many(key: str, why: str, seconds: object) -> ServiceError:
    return ServiceError(
        "ratelimit",
        f"{why}; try again in {seconds} s",
        429,
        ratelimit={"key": key, "seconds": seconds},
    )
