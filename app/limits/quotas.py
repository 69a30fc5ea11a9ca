"""Caps per IP address, in memory and per server instance (like the rate limits): open
WebSockets, and public games waiting for an opponent. With several instances each one
counts on its own, which still bounds a client to a known multiple."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from app.games import too_many_open

MAX_ADDRESSES = 100_000  # past this, the oldest address's open games are forgotten


class SocketsPerAddress:
    """How many WebSockets each address has open here; ``take`` refuses one past the cap."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._open: dict[str, int] = {}

    def take(self, address: str) -> bool:
        held = self._open.get(address, 0)
        if held >= self.cap:
            return False
        self._open[address] = held + 1
        return True

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
