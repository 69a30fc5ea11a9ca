"""Every page of a player follows them to their new game (docs/protocol.md, ``gameStart``).

``GameStarts`` (a subscriber of every committed change, app/games/subscribers.py) publishes
a ``NewGameMessage`` on each player's channel when a game starts, from the started game itself (no
database read: it goes out at once); the hub carries it to every instance. ``Followers``
keeps, per instance, the sockets of each identity (lobby, game and site sockets): one hub
listener per identity with a socket here, not one per socket, and no task per socket: a
listener only starts the sends it has to make.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterator, Sequence

from app.db.models import GameRow
from app.domain.enums import Side
from app.domain.events import GameEvent, GameStarted
from app.games import clock
from app.realtime.hub import LocalHub
from app.realtime.messages import NewGameMessage, PlayerLine, player_channel

SIDES = (Side.FIRST, Side.SECOND)

# A socket's answer to a new game of its identity, or to a line of its event stream (a
# challenge made, declined...): the text to send, or None to send nothing (a game page
# already showing that game, a line that is the bot API's only).
Encode = Callable[[NewGameMessage | PlayerLine], str | None]
Send = Callable[[str], Awaitable[None]]


class GameStarts:
    """Publishes ``NewGameMessage`` to both players of every game that starts."""

    def __init__(self, hub: LocalHub) -> None:
        self.hub = hub
        self._tasks: set[asyncio.Task[None]] = set()

    def changed(self, game: GameRow, events: Sequence[GameEvent]) -> None:
        for event in events:
            if not isinstance(event, GameStarted):
                continue
            mover = clock.side_to_move(game)
            for side, player_id in zip(SIDES, (event.first_id, event.second_id), strict=True):
                message = NewGameMessage(player_id, game.id, side, side == mover)
                task = asyncio.get_running_loop().create_task(
                    self.hub.publish(player_channel(player_id), message)
                )
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def stop(self) -> None:
        for task in tuple(self._tasks):
            task.cancel()


class _Sockets:
    """One identity's sockets on this instance: the hub listener of its channel."""

    __slots__ = ("followers", "sockets")

    def __init__(self, followers: Followers) -> None:
        self.followers = followers
        self.sockets: dict[object, tuple[Send, Encode]] = {}

    def deliver(self, message: object) -> None:
        if not isinstance(message, NewGameMessage | PlayerLine):
            return  # the hub's markers
        for send, encode in tuple(self.sockets.values()):
            text = encode(message)
            if text is not None:
                self.followers.spawn(send(text))


class Followers:
    def __init__(self, hub: LocalHub) -> None:
        self.hub = hub
        self._players: dict[str, _Sockets] = {}
        self._sending: set[asyncio.Task[None]] = set()

    @contextlib.contextmanager
    def follow(self, player_id: str, send: Send, encode: Encode) -> Iterator[None]:
        """For the block, ``send(encode(message))`` on each new game of ``player_id`` and
        each line of their event stream (``encode`` picks what the socket shows)."""
        found = self._players.get(player_id)
        if found is None:
            found = self._players[player_id] = _Sockets(self)
            self.hub.listen(player_channel(player_id), found)
        key = object()
        found.sockets[key] = (send, encode)
        try:
            yield
        finally:
            del found.sockets[key]
            if not found.sockets:
                self.hub.unlisten(player_channel(player_id), found)
                del self._players[player_id]

    def following(self, player_id: str) -> int:
        """How many sockets of ``player_id`` follow them on this instance."""
        found = self._players.get(player_id)
        return 0 if found is None else len(found.sockets)

    def spawn(self, sending: Awaitable[None]) -> None:
        task = asyncio.get_running_loop().create_task(self._send(sending))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    @staticmethod
    async def _send(sending: Awaitable[None]) -> None:
        with contextlib.suppress(Exception):  # the client left: its reader ends the socket
            await sending

    async def stop(self) -> None:
        for task in tuple(self._sending):
            task.cancel()
