"""Service errors: a stable code, a human sentence, and the HTTP status that fits."""

from __future__ import annotations


class ServiceError(Exception):
    def __init__(self, code: str, message: str, status: int = 400, **extra: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.extra = extra  # further fields of the error body (e.g. the game's id)

    def to_dict(self) -> dict[str, object]:
        return {"error": self.message, "code": self.code, **self.extra}
