"""Who is connected to which game, on this instance: players online by seat, spectators,
and since when a seat has been empty. Kept in memory, so that announcing a departure never
needs the database (a closing socket's handler may be cancelled at any moment)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable


class Presence:
    def __init__(self, clock_ms: Callable[[], int]) -> None:
        self._now = clock_ms
        self._seats: dict[str, dict[str, int]] = defaultdict(dict)  # game -> side -> sockets
        self._spectators: dict[str, int] = defaultdict(int)
        self._gone_since: dict[tuple[str, str], int] = {}  # (game, side) -> last socket closed
        self._watched_since: dict[str, int] = {}  # game -> first seen on this instance
        self.ply: dict[str, int] = {}  # game -> latest ply known here (for the messages)

    def join(self, game_id: str, side: str | None) -> None:
        self._watched_since.setdefault(game_id, self._now())
        if side is None:
            self._spectators[game_id] += 1
            return
        seats = self._seats[game_id]
        seats[side] = seats.get(side, 0) + 1
        self._gone_since.pop((game_id, side), None)

    def leave(self, game_id: str, side: str | None) -> None:
        if side is None:
            self._spectators[game_id] -= 1
            if self._spectators[game_id] <= 0:
                del self._spectators[game_id]
        else:
            seats = self._seats[game_id]
            seats[side] = seats.get(side, 1) - 1
            if seats[side] <= 0:
                del seats[side]
                self._gone_since[(game_id, side)] = self._now()
            if not seats:
                del self._seats[game_id]

    def forget_if_idle(self, game_id: str) -> None:
        """Drop what is kept for a game nobody here is connected to any more."""
        if game_id not in self._seats and game_id not in self._spectators:
            self.ply.pop(game_id, None)

    def online(self, game_id: str, side: str) -> bool:
        return side in self._seats.get(game_id, {})

    def spectators(self, game_id: str) -> int:
        return self._spectators.get(game_id, 0)

    def changed(self, game_id: str, ply: int) -> None:
        if game_id in self.ply:  # only games someone here is connected to
            self.ply[game_id] = ply

    def gone_for_ms(self, game_id: str, side: str) -> int | None:
        """How long the seat has had no connection; None while connected. A player never
        seen here counts as gone since this instance first saw the game."""
        if self.online(game_id, side):
            return None
        since = self._gone_since.get((game_id, side), self._watched_since.get(game_id))
        return 0 if since is None else max(0, self._now() - since)

    def message(self, game_id: str) -> dict[str, object]:
        return {
            "type": "presence",
            "ply": self.ply.get(game_id),
            "online": {side: self.online(game_id, side) for side in ("first", "second")},
            "spectators": self.spectators(game_id),
        }
