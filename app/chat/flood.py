"""Flood control of the games' chat, per person: a few lines in a row, then a pause
(lichess-like). One budget per player id, whichever way the lines come in (the game socket,
the bot/board API, any token or tab of theirs), on the app's clock; per server instance,
like the API's rate limits (docs/decisions/chat.md)."""

from __future__ import annotations

from collections.abc import Callable

from app.core.errors import ServiceError
from app.limits.ratelimit import RateLimiter


class ChatFlood:
    def __init__(self, lines: int, seconds: float, clock: Callable[[], float]) -> None:
        """``lines`` at once, then one more every ``seconds``."""
        self._limiter = RateLimiter(1 / seconds, lines, clock)

    def hit(self, player_id: str) -> None:
        """Count one line of ``player_id``, or refuse it (429 ``chat.too_fast``, with the
        whole seconds to wait in ``ratelimit.seconds``); a refused line takes nothing."""
        try:
            self._limiter.hit(player_id)
        except ServiceError as exc:
            info = exc.extra.get("ratelimit")
            seconds = info.get("seconds", 1) if isinstance(info, dict) else 1
            raise ServiceError(
                "chat.too_fast",
                f"you are writing too fast: wait {seconds} s before your next line",
                429,
                ratelimit={"key": "chat", "seconds": seconds},
            ) from None
