"""A small asynchronous client of Kodama's bot API (lichess's shapes), on httpx.

It knows the HTTP side only: routes, the Bearer token, JSON errors, NDJSON streams (one JSON
object a line; the empty keep-alive lines are skipped) and reconnecting with backoff. What to
do with the events is the runner's business (bots/runner.py).

    async with Client("http://127.0.0.1:8000", token) as client:
        me = await client.account()
        async for event in client.events():
            ...
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
from collections.abc import AsyncGenerator, Sequence
from types import TracebackType
from typing import Any
from urllib.parse import quote

import httpx

log = logging.getLogger(__name__)

# A stream is silent at most ~7 s between keep-alive lines: 30 s of silence means it is dead.
READ_TIMEOUT_S = 30.0
BACKOFF_START_S = 1.0
BACKOFF_MAX_S = 30.0


class ApiError(Exception):
    """The server answered with an error: ``status``, its stable ``code`` and the body."""

    def __init__(self, status: int, code: str, message: str, data: dict[str, Any]) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.data = data

    @property
    def retry_after(self) -> float | None:
        """Seconds to wait before trying again, for a 429 answer."""
        limit = self.data.get("ratelimit")
        if isinstance(limit, dict) and isinstance(limit.get("seconds"), int | float):
            return float(limit["seconds"])
        return None

    @property
    def transient(self) -> bool:
        """Worth retrying later: a rate limit, a server-side failure, or a game changing too
        fast to take this request now (``game.busy``)."""
        return self.status == 429 or self.status >= 500 or self.code == "game.busy"


def error_of(response: httpx.Response) -> ApiError:
    try:
        data = response.json()
    except ValueError:
        data = {}
    if not isinstance(data, dict):
        data = {}
    message = str(data.get("error") or response.reason_phrase or "error")
    return ApiError(response.status_code, str(data.get("code") or "http.error"), message, data)


def backoff(attempt: int) -> float:
    """Seconds before reconnection ``attempt`` (0, 1, …): doubling, capped, with jitter."""
    base: float = min(BACKOFF_MAX_S, BACKOFF_START_S * 2**attempt)
    return base * random.uniform(0.5, 1.0)


class Client:
    """One API token's view of one server."""

    def __init__(
        self,
        server: str,
        token: str,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        user_agent: str = "kodama-bot",
    ) -> None:
        self.server = server.rstrip("/")
        self.http = httpx.AsyncClient(
            base_url=self.server,
            headers={"Authorization": f"Bearer {token}", "User-Agent": user_agent},
            timeout=httpx.Timeout(15.0, read=READ_TIMEOUT_S),
            transport=transport,
        )

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def close(self) -> None:
        await self.http.aclose()

    # ---- plain requests ------------------------------------------------------------------
    async def request(
        self,
        method: str,
        path: str,
        *,
        json_body: dict[str, Any] | None = None,
        form: dict[str, str] | None = None,
        params: dict[str, str] | None = None,
    ) -> Any:
        """The JSON answer (None for an empty one); ApiError for an error status."""
        response = await self.http.request(method, path, json=json_body, data=form, params=params)
        if response.is_error:
            raise error_of(response)
        if not response.content:
            return None
        return response.json()

    async def account(self) -> dict[str, Any]:
        """The token's account: ``id``, ``username``, ``title``."""
        found: dict[str, Any] = await self.request("GET", "/api/account")
        return found

    async def upgrade_to_bot(self) -> None:
        await self.request("POST", "/api/bot/account/upgrade")

    async def move(self, game_id: str, move: str, *, offering_draw: bool = False) -> None:
        params = {"offeringDraw": "true"} if offering_draw else None
        path = f"/api/bot/game/{quote(game_id, safe='')}/move/{quote(move, safe='')}"
        await self.request("POST", path, params=params)

    async def draw(self, game_id: str, accept: bool) -> None:
        """Answer (or make) a draw offer."""
        answer = "yes" if accept else "no"
        await self.request("POST", f"/api/bot/game/{quote(game_id, safe='')}/draw/{answer}")

    async def resign(self, game_id: str) -> None:
        await self.request("POST", f"/api/bot/game/{quote(game_id, safe='')}/resign")

    async def chat(self, game_id: str, text: str, room: str = "player") -> None:
        path = f"/api/bot/game/{quote(game_id, safe='')}/chat"
        await self.request("POST", path, form={"room": room, "text": text})

    async def accept_challenge(self, challenge_id: str) -> None:
        await self.request("POST", f"/api/challenge/{quote(challenge_id, safe='')}/accept")

    async def decline_challenge(self, challenge_id: str, reason: str = "generic") -> None:
        path = f"/api/challenge/{quote(challenge_id, safe='')}/decline"
        await self.request("POST", path, form={"reason": reason})

    async def challenge(self, username: str, **body: Any) -> dict[str, Any]:
        """Challenge a user: ``variant``, ``clock`` {limit, increment} or ``days``, ``color``,
        ``rules``… (JSON body). Returns the challenge."""
        path = f"/api/challenge/{quote(username, safe='')}"
        found: dict[str, Any] = await self.request("POST", path, json_body=body)
        return found

    # ---- NDJSON streams ------------------------------------------------------------------
    async def stream_once(self, path: str) -> AsyncGenerator[dict[str, Any], None]:
        """The JSON lines of one connection to a stream, until the server ends it."""
        async with self.http.stream("GET", path) as response:
            if response.is_error:
                await response.aread()
                raise error_of(response)
            async for text in response.aiter_lines():
                if not text.strip():
                    continue  # keep-alive
                try:
                    data = json.loads(text)
                except ValueError:
                    log.warning("%s: not a JSON line: %.200r", path, text)
                    continue
                if isinstance(data, dict):
                    yield data

    async def stream(
        self, path: str, *, reconnect: bool = True
    ) -> AsyncGenerator[dict[str, Any], None]:
        """A stream's JSON lines, reconnecting with backoff after network failures, server
        errors and rate limits (a client error such as 401 or 404 is raised)."""
        attempt = 0
        while True:
            try:
                # aclosing: a consumer that stops reading closes the connection at once.
                async with contextlib.aclosing(self.stream_once(path)) as lines:
                    async for data in lines:
                        attempt = 0
                        yield data
                if not reconnect:
                    return
                wait = backoff(0)
                log.info("%s: the server ended the stream; reconnecting", path)
            except ApiError as exc:
                if not exc.transient or not reconnect:
                    raise
                wait = exc.retry_after or backoff(attempt)
                log.warning("%s: %s; retrying in %.1f s", path, exc, wait)
            except httpx.TransportError as exc:
                if not reconnect:
                    raise
                wait = backoff(attempt)
                log.warning("%s: %r; reconnecting in %.1f s", path, exc, wait)
            attempt += 1
            await asyncio.sleep(wait)

    def events(self, games: Sequence[str] = ()) -> AsyncGenerator[dict[str, Any], None]:
        """``/api/stream/event``: challenge, gameStart, gameFinish… forever (reconnecting).
        ``games``: the games the bot plays, as ``GET /api/bot/online`` will show (default
        all)."""
        query = "?games=" + ",".join(games) if games else ""
        return self.stream("/api/stream/event" + query)

    def game(self, game_id: str) -> AsyncGenerator[dict[str, Any], None]:
        """``/api/bot/game/stream/{id}``: gameFull, then gameState, chatLine, opponentGone."""
        return self.stream(f"/api/bot/game/stream/{quote(game_id, safe='')}")


__all__ = ["ApiError", "Client", "backoff"]
