"""Answers that are not plain JSON (NDJSON streams, text records) and the OpenAPI
descriptions of the API's answers."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from pydantic import BaseModel
from starlette.requests import HTTPConnection
from starlette.types import Receive, Scope, Send

from app.core.errors import ServiceError
from app.db.engine import uncancelled
from app.http.auth import client_ip
from app.http.deps import get_services
from app.http.schemas import ErrorOut
from app.limits.quotas import BUSY_RETRY_SECONDS

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


def _refusal(why: str) -> dict[str, Any]:
    return {
        "description": why,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
    }


# What a streamed answer may be refused before it starts (CappedStreamingResponse).
STREAM_REFUSALS: dict[int | str, dict[str, Any]] = {
    429: _refusal(
        "`ratelimit`: too many requests; or `connections.too_many`: this address already "
        "holds as many streams and sockets as allowed"
    ),
    503: _refusal("`server.busy`: the server is short of file handles; try again later"),
}


class CappedStreamingResponse(StreamingResponse):
    """A streamed answer, which holds its connection (a file handle) for as long as its
    client reads, counted with the address's sockets (KODAMA_MAX_SOCKETS_PER_IP): past the
    cap it answers 429 ``connections.too_many`` instead, and 503 ``server.busy`` while the
    server is short of file handles (app/limits/quotas.py), its lines never begun."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        connection = HTTPConnection(scope)
        sockets = get_services(connection).sockets
        # (the built-in opponents' streams: one per game they play, from the server's own
        # address, as many as their seats; app/http/auth.py marks them)
        address = None if getattr(connection.state, "server_bot", False) else client_ip(connection)
        refused = sockets.take(address)
        try:
            if refused is None:
                await super().__call__(scope, receive, send)
            else:
                await refusal(refused)(scope, receive, send)
                if self.background is not None:  # what the route set up is undone
                    await self.background()
        finally:
            if refused is None and address is not None:
                sockets.give_back(address)
            # The stream's generator is closed when the answer ends, the client gone
            # included, not whenever the garbage collector finds it: its end is a player
            # leaving the game (presence, claims). An answer cancelled while handing a line
            # over leaves the generator suspended at its ``yield``; closed here, to its end
            # even if this task is being cancelled (``uncancelled``). A generator that
            # already ended, or never began (a refusal), ignores it.
            close = getattr(self.body_iterator, "aclose", None)
            if close is not None:
                await uncancelled(close())


def refusal(error: ServiceError) -> JSONResponse:
    """A stream's refusal, as the error handlers answer it, with when to come back."""
    wait = BUSY_RETRY_SECONDS if error.status == 503 else error.retry_after()
    headers = None if wait is None else {"Retry-After": str(wait)}
    return JSONResponse(error.to_dict(), status_code=error.status, headers=headers)


class NDJSONResponse(CappedStreamingResponse):
    media_type = NDJSON

    def __init__(
        self, content: AsyncIterator[bytes], status_code: int = 200, **kwargs: Any
    ) -> None:
        # No buffering by proxies (nginx) and no caching: every line matters at once.
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        super().__init__(content, status_code=status_code, headers=headers, **kwargs)


def ndjson(model: type[BaseModel], what: str) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI description of an NDJSON answer whose lines are ``model``."""
    return {
        200: {
            "description": f"NDJSON: {what}; an empty line every ~7 s keeps it open",
            "model": model,
        },
        **json_errors(400, 401, 403, 404),
        **STREAM_REFUSALS,
    }


class PGNResponse(Response):
    media_type = f"{PGN}; charset=utf-8"


def wants(request: Request, *kinds: str) -> bool:
    accept = request.headers.get("accept", "").lower()
    return any(kind in accept for kind in kinds)


def base_url(request: Request) -> str:
    return str(request.base_url).rstrip("/")
