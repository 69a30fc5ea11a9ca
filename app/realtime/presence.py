"""Who is connected to which game: players online by seat, spectators, and since when a seat
has been empty. Kept in memory, so that announcing a departure never needs the database (a
closing socket's handler may be cancelled at any moment).

This instance's own connections are counted here (``join``/``leave``); what the other instances
sharing the database report (``PresenceReport``, carried by the hub: app/realtime/crowd.py) is
kept beside them until it expires, and every answer (``online``, ``spectators``,
``gone_for_ms``, ``message``) is over all instances (docs/decisions/presence-across-instances.md).

What is kept for a game nobody here is connected to any more is forgotten ``keep_idle_ms``
after its last connection closed (docs/decisions/absent-players.md): memory follows
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
    # Since when each seat has had no connection (epoch ms, the server's clock), None while
    # connected: a claim against it opens its grace period later (docs/protocol.md).
    first_gone_since: int | None = None
    second_gone_since: int | None = None


@dataclass(frozen=True, slots=True)
class GamePresence:
    """One instance's connections to one game, as it reports them to the others."""

    game_id: str
    first: bool
    second: bool
    spectators: int
    first_left: int | None  # when the seat's last connection there closed (ms), if it did
    second_left: int | None
    seen: int  # when that instance first saw the game (ms)

    def online(self, side: str) -> bool:
        return self.first if side == "first" else self.second

    def left(self, side: str) -> int | None:
        return self.first_left if side == "first" else self.second_left


@dataclass(frozen=True, slots=True)
class PresenceReport:
    """An instance's connections to some games (a hub message on the presence channel): sent
    when they change (coalesced) and as a heartbeat; ``hello``: an instance that starts (or
    lost messages) asks the others to report everything they know at once."""

    instance: str
    games: tuple[GamePresence, ...]
    hello: bool = False


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
        # What the other instances reported: game -> instance -> (report, expires at).
        self._remote: dict[str, dict[str, tuple[GamePresence, int]]] = {}

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
        if not self.connected(game_id):
            self._idle_since.pop(game_id, None)  # re-added last: the order is the time order
            self._idle_since[game_id] = self.now()
        self._forget_idle()

    def forget_if_idle(self, game_id: str) -> None:
        """Drop the ply kept for a game nobody here is connected to any more (it is only
        kept up to date while someone is)."""
        if not self.connected(game_id):
            self.ply.pop(game_id, None)

    def connected(self, game_id: str) -> bool:
        """Someone is connected to the game on this instance."""
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

    def online_here(self, game_id: str, side: str) -> bool:
        return side in self._seats.get(game_id, {})

    def online(self, game_id: str, side: str) -> bool:
        """A connection of that seat's player is open on some instance."""
        if self.online_here(game_id, side):
            return True
        return any(entry.online(side) for entry, _ in self._remote.get(game_id, {}).values())

    def spectators_here(self, game_id: str) -> int:
        return self._spectators.get(game_id, 0)

    def spectators(self, game_id: str) -> int:
        here = self._spectators.get(game_id, 0)
        return here + sum(e.spectators for e, _ in self._remote.get(game_id, {}).values())

    def changed(self, game_id: str, ply: int) -> None:
        if game_id in self.ply:  # only games someone here is connected to
            self.ply[game_id] = ply

    def gone_for_ms(self, game_id: str, side: str) -> int | None:
        """How long the seat has had no connection; None while connected. A player never
        seen here counts as gone since this instance first saw the game."""
        since = self.gone_since(game_id, side)
        return None if since is None else max(0, self.now() - since)

    def gone_since(self, game_id: str, side: str) -> int | None:
        """Since when the seat has had no connection (ms); None while connected."""
        if self.online(game_id, side):
            return None
        self._forget_idle()
        remote = [entry for entry, _ in self._remote.get(game_id, {}).values()]
        # The latest departure anywhere; else the earliest any instance saw the game.
        left = [t for e in remote if (t := e.left(side)) is not None]
        mine = self._gone_since.get((game_id, side))
        if mine is not None:
            left.append(mine)
        if left:
            return max(left)
        seen = [e.seen for e in remote]
        if game_id in self._watched_since:
            seen.append(self._watched_since[game_id])
        return min(*seen, self.now()) if seen else self.now()

    # ---- across instances ----------------------------------------------------------------
    def local_games(self) -> list[str]:
        """The games this instance remembers (connected, or idle for less than keep_idle)."""
        self._forget_idle()
        return list(self._watched_since)

    def report(self, game_id: str) -> GamePresence:
        """This instance's connections to ``game_id``, as reported to the others."""
        return GamePresence(
            game_id,
            self.online_here(game_id, "first"),
            self.online_here(game_id, "second"),
            self._spectators.get(game_id, 0),
            self._gone_since.get((game_id, "first")),
            self._gone_since.get((game_id, "second")),
            self._watched_since.get(game_id, self.now()),
        )

    def receive(self, instance: str, entries: tuple[GamePresence, ...], keep_ms: int) -> None:
        """Another instance's report: kept ``keep_ms`` unless a newer one replaces it."""
        expires = self.now() + keep_ms
        for entry in entries:
            self._remote.setdefault(entry.game_id, {})[instance] = (entry, expires)

    def expire(self) -> set[str]:
        """Forget the reports not renewed in time (an instance that stopped, or was killed):
        the games whose presence changed. A seat that was online there is gone from now."""
        now = self.now()
        changed: set[str] = set()
        for game_id, by_instance in tuple(self._remote.items()):
            for instance, (entry, expires) in tuple(by_instance.items()):
                if expires > now:
                    continue
                del by_instance[instance]
                changed.add(game_id)
                for side in SIDES:
                    if entry.online(side):
                        self._gone_since[(game_id, side)] = now
                if not self.connected(game_id) and game_id not in self._idle_since:
                    self._idle_since[game_id] = now  # forgotten in time like any idle game
            if not by_instance:
                del self._remote[game_id]
        return changed

    def message(self, game_id: str) -> PresenceChanged:
        return PresenceChanged(
            game_id,
            self.ply.get(game_id),
            self.online(game_id, "first"),
            self.online(game_id, "second"),
            self.spectators(game_id),
            self.gone_since(game_id, "first"),
            self.gone_since(game_id, "second"),
        )
