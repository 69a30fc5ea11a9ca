"""What a password must be: checked when it is chosen (registering, changing, resetting)."""

from __future__ import annotations

from app.core.errors import ServiceError

MIN_PASSWORD = 8
MAX_PASSWORD = 256  # argon2 takes any length; a bound keeps a request's cost bounded


def check_password(username: str, password: str) -> None:
    if len(password) < MIN_PASSWORD:
        raise ServiceError(
            "account.password_weak", f"a password has at least {MIN_PASSWORD} characters"
        )
    if len(password) > MAX_PASSWORD:
        raise ServiceError(
            "account.password_invalid", f"a password has at most {MAX_PASSWORD} characters"
        )
    if password.lower() == username.lower():
        raise ServiceError("account.password_weak", "the password cannot be the username")
