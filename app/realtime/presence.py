"""Who is connected to which game, on this instance: players online by seat, spectators,
and since when a seat has been empty. Kept in memory, so that announcing a departure never
needs the database (a closing socket's handler may be cancelled at any moment).

What is kept for a game nobody here is connected to any more is forgotten ``keep_idle_ms``
after its last connection closed (docs/decisions.md, "Presence is forgotten"): memory follows
the games being watched, not every game ever watched."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

SIDES = ("first", "second")


@dataclass(frozen=True, slots=True)
class PresenceChanged:
    """Who is connected to a game: its players online, and how many spectators (a hub
    message on the game's channel)."""

    game_id: str
    ply: int | None
    first: bool
    second: bool
    spectators: int


class Presence:
    def __init__(self, clock_ms: Callable[[], int], keep_idle_ms: int = 0) -> None:
        self.now = clock_ms
        self.keep_idle_ms = keep_idle_ms
        self._seats: dict[str, dict[str, int]] = defaultdict(dict)  # game -> side -> sockets
        self._spectators: dict[str, int] = defaultdict(int)
        self._gone_since: dict[tuple[str, str], int] = {}  # (game, side) -> last socket closed
        self._watched_since: dict[str, int] = {}  # game -> first seen on this instance
        # game -> when its last socket here closed; oldest first (entries are appended as
        # they happen and removed on a join), so forgetting stops at the first recent one.
        self._idle_since: dict[str, int] = {}
        self.ply: dict[str, int] = {}  # game -> latest ply known here (for the messages)

    def join(self, game_id: str, side: str | None) -> None:
        self._forget_idle()
        self._idle_since.pop(game_id, None)
        self._watched_since.setdefault(game_id, self.now())
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
                self._gone_since[(game_id, side)] = self.now()
            if not seats:
                del self._seats[game_id]
        if not self._connected(game_id):
            self._idle_since.pop(game_id, None)  # re-added last: the order is the time order
            self._idle_since[game_id] = self.now()
        self._forget_idle()

    def forget_if_idle(self, game_id: str) -> None:
        """Drop the ply kept for a game nobody here is connected to any more (it is only
        kept up to date while someone is)."""
        if not self._connected(game_id):
            self.ply.pop(game_id, None)

    def _connected(self, game_id: str) -> bool:
        return game_id in self._seats or game_id in self._spectators

    def _forget_idle(self) -> None:
        """Forget the games idle here for ``keep_idle_ms``: a seat's "gone since" and when the
        game was first seen. A player coming back later finds the game as if this instance
        had never seen it: the opponent's absence counts from that return."""
        horizon = self.now() - self.keep_idle_ms
        while self._idle_since:
            game_id, since = next(iter(self._idle_since.items()))
            if since > horizon:
                return
            del self._idle_since[game_id]
            self._watched_since.pop(game_id, None)
            for side in SIDES:
                self._gone_since.pop((game_id, side), None)

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
        self._forget_idle()
        since = self._gone_since.get((game_id, side), self._watched_since.get(game_id))
        return 0 if since is None else max(0, self.now() - since)

    def message(self, game_id: str) -> PresenceChanged:
        return PresenceChanged(
            game_id,
            self.ply.get(game_id),
            self.online(game_id, "first"),
            self.online(game_id, "second"),
            self.spectators(game_id),
        )
