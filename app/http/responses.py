"""Answers that are not plain JSON (NDJSON streams, text records) and the OpenAPI
descriptions of the API's answers."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from fastapi import Request
from fastapi.responses import Response, StreamingResponse
from pydantic import BaseModel
from starlette.types import Receive, Scope, Send

from app.db.engine import uncancelled
from app.http.schemas import ErrorOut

NDJSON = "application/x-ndjson"
PGN = "application/x-chess-pgn"
TEXT_RECORD = {
    "description": "the game record (docs/notation.md): PGN-style tags, then the moves",
    "content": {PGN: {"schema": {"type": "string"}}},
}


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": ErrorOut} for code in codes}


def json_errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """Error answers of a route whose success is not JSON (they still are)."""
    schema = {"$ref": "#/components/schemas/ErrorOut"}
    return {
        code: {"description": "an error", "content": {"application/json": {"schema": schema}}}
        for code in codes
    }


class NDJSONResponse(StreamingResponse):
    media_type = NDJSON

    def __init__(
        self, content: AsyncIterator[bytes], status_code: int = 200, **kwargs: Any
    ) -> None:
        # No buffering by proxies (nginx) and no caching: every line matters at once.
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        super().__init__(content, status_code=status_code, headers=headers, **kwargs)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # The stream's generator is closed when the answer ends, the client gone included,
        # not whenever the garbage collector finds it: its end is a player leaving the game
        # (presence, claims). An answer cancelled while handing a line over leaves the
        # generator suspended at its ``yield``; closed here, to its end even if this task is
        # being cancelled (``uncancelled``). A generator that already ended ignores it.
        try:
            await super().__call__(scope, receive, send)
        finally:
            close = getattr(self.body_iterator, "aclose", None)
            if close is not None:
                await uncancelled(close())


def ndjson(model: type[BaseModel], what: str) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI description of an NDJSON answer whose lines are ``model``."""
    return {
        200: {
            "description": f"NDJSON: {what}; an empty line every ~7 s keeps it open",
            "model": model,
        },
        **json_errors(400, 401, 403, 404, 429),
    }


class PGNResponse(Response):
    media_type = f"{PGN}; charset=utf-8"


def wants(request: Request, *kinds: str) -> bool:
    accept = request.headers.get("accept", "").lower()
    return any(kind in accept for kind in kinds)


def base_url(request: Request) -> str:
    return str(request.base_url).rstrip("/")
