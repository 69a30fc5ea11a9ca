"""What every browser REST route shares (Pydantic): the strictness of the bodies the pages
send, and the error body. Each feature's own bodies live in its package (app/games/schemas.py,
app/accounts/schemas.py)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

import engine

# The browser API's bodies are JSON written by our own pages: strict types, so what the docs
# call a wrong type ("public": "yes" or 1, "minutes": "5") is refused, never coerced. (The bot
# API stays lenient: lichess clients post forms, where every value is a string.) A JSON
# integer is still a number for a float field.
BROWSER_BODY = ConfigDict(extra="forbid", strict=True)

# A game named in a body: the schema lists the games' ids (GET /api/variants describes them);
# any other value is refused by the route's own check, with its own code.
Variant = Annotated[str, Field(json_schema_extra={"enum": list(engine.game_ids())})]

# A game's rule options (a game has two at most): bounded like every list a body may carry,
# so that no body is costly to read whatever it holds.
MAX_RULE_OPTIONS = 16
Rules = Annotated[
    dict[Annotated[str, Field(max_length=40)], Annotated[str, Field(max_length=100)]],
    Field(max_length=MAX_RULE_OPTIONS),
]


class ErrorOut(BaseModel):
    error: str
    code: str
