"""Bodies that are a plain list, as lichess takes them: ``tok1,tok2`` (``POST /api/token/test``),
usernames (``POST /api/users``), game ids (``POST /api/games/export/_ids``). Clients post them
as text without a content type (berserk, lichess-bot); commas or white space separate them."""

from __future__ import annotations

import re
from typing import Any

from fastapi import Request

from app.core.errors import ServiceError

SEPARATORS = re.compile(r"[\s,]+")


def text_body(example: str) -> dict[str, Any]:
    """The OpenAPI request body of a route reading such a list."""
    schema = {"type": "string", "example": example}
    return {"requestBody": {"required": True, "content": {"text/plain": {"schema": schema}}}}


async def read_list(request: Request, what: str, most: int, longest: int) -> list[str]:
    """The items of the body: 1 to ``most`` of them, none longer than ``longest``
    characters (400 ``request.invalid`` otherwise; the body is not read past its bound)."""
    bound = most * (longest + 2) + 64
    declared = request.headers.get("content-length", "")
    too_many = ServiceError("request.invalid", f"send at most {most} {what}, separated by commas")
    if declared.isdigit() and int(declared) > bound:
        raise too_many
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > bound:
            raise too_many
    try:
        text = raw.decode()
    except UnicodeDecodeError:
        raise ServiceError("request.invalid", "the body is not UTF-8 text") from None
    items = [item for item in SEPARATORS.split(text) if item]
    if not items:
        raise ServiceError("request.invalid", f"send {what} separated by commas")
    if len(items) > most:
        raise too_many
    if any(len(item) > longest for item in items):
        raise ServiceError("request.invalid", f"one of the {what} is too long")
    return items
