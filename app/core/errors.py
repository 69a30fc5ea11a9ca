"""Service errors: a stable code, a human sentence, and the HTTP status that fits."""

from __future__ import annotations

import math


class ServiceError(Exception):
    def __init__(self, code: str, message: str, status: int = 400, **extra: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.extra = extra  # further fields of the error body (e.g. the game's id)

    def to_dict(self) -> dict[str, object]:
        return {"error": self.message, "code": self.code, **self.extra}

    def retry_after(self) -> int | None:
        """For a 429: the whole seconds to wait (the ``Retry-After`` header), else None."""
        if self.status != 429:
            return None
        info = self.extra.get("ratelimit")
        seconds = info.get("seconds") if isinstance(info, dict) else None
        if isinstance(seconds, int | float) and not isinstance(seconds, bool):
            return max(1, math.ceil(seconds))
        return 1  # a 429 always says when to come back
