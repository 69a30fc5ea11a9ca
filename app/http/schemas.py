"""What every browser REST route shares (Pydantic): the strictness of the bodies the pages
send, and the error body. Each feature's own bodies live in its package (app/games/schemas.py,
app/accounts/schemas.py)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

# The browser API's bodies are JSON written by our own pages: strict types, so what the docs
# call a wrong type ("public": "yes" or 1, "minutes": "5") is refused, never coerced. (The bot
# API stays lenient: lichess clients post forms, where every value is a string.) A JSON
# integer is still a number for a float field.
BROWSER_BODY = ConfigDict(extra="forbid", strict=True)


class ErrorOut(BaseModel):
    error: str
    code: str
