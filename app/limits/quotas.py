"""Caps per IP address, in memory and per server instance (like the rate limits): open
long-lived connections (WebSockets and NDJSON streams together), and public games waiting for
an opponent. With several instances each one counts on its own, which still bounds a client
to a known multiple."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from app.core.errors import ServiceError
from app.games import too_many_open
from app.limits.capacity import FileHandles

MAX_ADDRESSES = 100_000  # past this, the oldest address's open games are forgotten
BUSY_RETRY_SECONDS = 5  # a refusal for want of file handles: the Retry-After it suggests


def too_many_connections() -> ServiceError:
    return ServiceError("connections.too_many", "too many connections from this address", 429)


def server_busy() -> ServiceError:
    return ServiceError("server.busy", "the server is busy; try again later", 503)


class SocketsPerAddress:
    """How many long-lived connections (WebSockets and NDJSON streams: each holds a file
    handle for as long as its client likes) each address has open here. ``take`` refuses one
    past the address's cap, or any while the process is short of file handles."""

    def __init__(self, cap: int, handles: FileHandles | None = None) -> None:
        self.cap = cap
        self.handles = handles
        self._open: dict[str, int] = {}

    def take(self, address: str | None) -> ServiceError | None:
        """None once counted (give it back with ``give_back``); else why not: 429
        ``connections.too_many`` or 503 ``server.busy``. ``address`` None: a connection no
        address's cap counts (the server's own bots'), refused only for want of handles."""
        held = 0 if address is None else self._open.get(address, 0)
        if held >= self.cap:
            return too_many_connections()
        if self.handles is not None and self.handles.scarce():
            return server_busy()
        if address is not None:
            self._open[address] = held + 1
        return None

    def give_back(self, address: str) -> None:
        held = self._open.get(address, 0) - 1
        if held > 0:
            self._open[address] = held
        else:
            self._open.pop(address, None)

    def held(self, address: str) -> int:
        return self._open.get(address, 0)


class OpenGamesPerAddress:
    """The public games each address created here that may still wait for an opponent.

    Anonymous identities cost nothing (a new cookie is a new player), so the per-player cap
    alone would not keep one client from filling the lobby: this one counts by address. The
    database says which games still wait, asked only when an address reaches the cap."""

    def __init__(self, cap: int, still_open: Callable[[list[str]], Awaitable[list[str]]]) -> None:
        self.cap = cap
        self.still_open = still_open
        self._games: dict[str, list[str]] = {}

    async def check(self, address: str) -> None:
        """Raise 409 ``game.too_many_open`` if ``address`` has ``cap`` games waiting."""
        games = self._games.get(address)
        if games is None or len(games) < self.cap:
            return
        games = await self.still_open(games)
        if games:
            self._games[address] = games
        else:
            del self._games[address]
        if len(games) >= self.cap:
            waiting = f"this address already has {len(games)} open games waiting"
            raise too_many_open(waiting, self.cap)

    def add(self, address: str, game_id: str) -> None:
        self._games.setdefault(address, []).append(game_id)
        if len(self._games) > MAX_ADDRESSES:
            del self._games[next(iter(self._games))]
