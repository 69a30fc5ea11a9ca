"""The TV channels of one instance: which game each features, kept up to date.

Every instance hears the same changes of the public games (their start and end, on the hub's
lobby channel: app/lobby/feed.py publishes them) and reads the same database, so each makes
the same choice by itself, with no state shared between instances: on each change it reads
the live games again (one read at a time; changes heard meanwhile make one more) and ranks
them (app/tv/choice.py). A channel features its best live game; when that one ends, the next
best; with none live it keeps showing the last one, as lichess does. A channel's switch is
told at once to its feeds on this instance (app/tv/feed.py)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.botapi.gamejson import COLOR, load_players, seat_json
from app.realtime.hub import CLOSING, LocalHub, Receiver
from app.realtime.messages import LOBBY_CHANNEL
from app.tv.choice import BEST, Candidate, channels_of, live_candidates
from engine import Side

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Switched:
    """A channel features another game now (told to that channel's feeds here)."""

    channel: str
    game_id: str


class Television:
    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], hub: LocalHub, variants: Sequence[str]
    ) -> None:
        self.sessions = sessions
        self.hub = hub
        self.variants = tuple(variants)
        self.channels = (BEST, *self.variants)
        self._listed: dict[str, list[str]] = {channel: [] for channel in self.channels}
        self._shown: dict[str, Candidate] = {}  # each channel's featured game
        self._receivers: dict[str, set[Receiver]] = {}
        self._runner: asyncio.Task[None] | None = None
        self._refreshing: asyncio.Task[None] | None = None
        self._again = False  # a change heard during a read: read once more after it
        self.refreshes = 0  # reads made (for tests)

    # ---- what the channels show ----------------------------------------------------------
    def featured(self, channel: str) -> str | None:
        shown = self._shown.get(channel)
        return None if shown is None else shown.id

    def orientation(self, channel: str) -> Side:
        """The side a channel's board is seen from: its player of the higher rating."""
        shown = self._shown.get(channel)
        return Side.FIRST if shown is None else shown.top_side

    def best(self, channel: str, count: int) -> list[str]:
        """The channel's live games, best first (at most ``count``)."""
        return self._listed.get(channel, [])[:count]

    async def channels_json(self) -> dict[str, Any]:
        """lichess's ``/api/tv/channels``: each channel showing a game, with the player of
        the higher rating in it (``user``, ``rating``, ``color``) and the game's id."""
        shown = dict(self._shown)
        seats = {c.first_id if c.top_side == Side.FIRST else c.second_id for c in shown.values()}
        players = await load_players(self.sessions, seats)
        found: dict[str, Any] = {}
        for channel in self.channels:
            game = shown.get(channel)
            if game is None:
                continue
            side = game.top_side
            first = side == Side.FIRST
            entry: dict[str, Any] = {
                "user": seat_json(players, game.first_id if first else game.second_id),
                "gameId": game.id,
                "color": COLOR[side],
            }
            rating = game.first_rating if first else game.second_rating
            if rating is not None:
                entry["rating"] = rating
            found[channel] = entry
        return found

    # ---- a channel's feeds ---------------------------------------------------------------
    def listen(self, channel: str, receiver: Receiver) -> None:
        """``receiver.deliver`` gets a ``Switched`` each time the channel switches."""
        self._receivers.setdefault(channel, set()).add(receiver)

    def unlisten(self, channel: str, receiver: Receiver) -> None:
        receivers = self._receivers.get(channel)
        if receivers is not None:
            receivers.discard(receiver)
            if not receivers:
                del self._receivers[channel]

    # ---- kept up to date -----------------------------------------------------------------
    async def start(self) -> None:
        ready = asyncio.Event()
        self._runner = asyncio.get_running_loop().create_task(self._run(ready))
        await ready.wait()
        self._ask()  # what is live already

    async def stop(self) -> None:
        for task in (self._runner, self._refreshing):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self._runner = self._refreshing = None

    async def _run(self, ready: asyncio.Event) -> None:
        async with self.hub.subscribe(LOBBY_CHANNEL) as sub:
            ready.set()
            # A change (LobbyChanged) or RESYNC (changes were lost): either way, read again.
            while await sub.get() is not CLOSING:
                self._ask()

    def _ask(self) -> None:
        if self._refreshing is not None:
            self._again = True
            return
        self._refreshing = asyncio.get_running_loop().create_task(self._refresh_all())

    async def _refresh_all(self) -> None:
        try:
            while True:
                self._again = False
                try:
                    await self._refresh()
                except Exception:
                    log.exception("could not read the TV channels' games")
                if not self._again:
                    return
        finally:
            self._refreshing = None

    async def refreshed(self) -> None:
        """Until a read that starts after this call is made: what is committed by now is
        on the channels (the tests; a refresh under way may have started before it)."""
        self._ask()
        task = self._refreshing
        if task is not None:
            await asyncio.shield(task)

    async def _refresh(self) -> None:
        """Read the live games; each channel whose best one changed switches to it."""
        candidates = await live_candidates(self.sessions)
        self.refreshes += 1
        by_id = {c.id: c for c in candidates}
        self._listed = channels_of(self.variants, candidates)
        for channel, games in self._listed.items():
            if not games:
                continue  # none live: the last one stays
            best = by_id[games[0]]
            if self.featured(channel) == best.id:
                continue
            self._shown[channel] = best
            for receiver in tuple(self._receivers.get(channel, ())):
                receiver.deliver(Switched(channel, best.id))
