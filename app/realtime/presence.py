"""Who is connected to which game, on this instance: players online, spectators, absences."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable


class Presence:
    def __init__(self, clock_ms: Callable[[], int]) -> None:
        self._now = clock_ms
        self._players: dict[str, dict[str, int]] = defaultdict(dict)
        self._spectators: dict[str, int] = defaultdict(int)
        # (game, player) -> when the player's last connection closed
        self._gone_since: dict[tuple[str, str], int] = {}
        # (game, player) -> seen at least once on this instance
        self._seen: set[tuple[str, str]] = set()
        self._started_ms: dict[str, int] = {}

    def join(self, game_id: str, player_id: str | None, seated: bool) -> None:
        if seated and player_id is not None:
            counts = self._players[game_id]
            counts[player_id] = counts.get(player_id, 0) + 1
            self._gone_since.pop((game_id, player_id), None)
            self._seen.add((game_id, player_id))
        else:
            self._spectators[game_id] += 1

    def leave(self, game_id: str, player_id: str | None, seated: bool) -> None:
        if seated and player_id is not None:
            counts = self._players[game_id]
            counts[player_id] = counts.get(player_id, 1) - 1
            if counts[player_id] <= 0:
                del counts[player_id]
                self._gone_since[(game_id, player_id)] = self._now()
            if not counts:
                del self._players[game_id]
        else:
            self._spectators[game_id] -= 1
            if self._spectators[game_id] <= 0:
                del self._spectators[game_id]

    def online(self, game_id: str, player_id: str | None) -> bool:
        return player_id is not None and player_id in self._players.get(game_id, {})

    def spectators(self, game_id: str) -> int:
        return self._spectators.get(game_id, 0)

    def note_started(self, game_id: str, started_ms: int | None) -> None:
        if started_ms is not None:
            self._started_ms.setdefault(game_id, started_ms)

    def gone_for_ms(self, game_id: str, player_id: str) -> int:
        """How long the player has had no connection (0 while connected).

        A player never seen here counts as gone since the game started."""
        if self.online(game_id, player_id):
            return 0
        since = self._gone_since.get((game_id, player_id))
        if since is None:
            since = self._started_ms.get(game_id, self._now())
        return max(0, self._now() - since)
