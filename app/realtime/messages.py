"""What the hub carries (app/realtime/hub.py), as typed values, and how they cross instances.

A game's channel ``game:{id}`` carries ``GameUpdate`` (a committed change: its events and the
state after it), ``PresenceChanged`` (told by each instance to its own subscribers),
``ChatPosted``, ``ChatHidden`` (a moderator hid a line) and ``RatingsChanged`` (a rated
game's end changed the ratings); the presence channel carries ``PresenceReport`` (an
instance's connections, for the others: app/realtime/presencefeed.py); a player's channel
``player:{id}`` carries ``PlayerLine`` (a line of the bot API's event stream) and
``NewGameMessage`` (a game of that player started: every page of theirs goes to it,
app/realtime/follow.py); the lobby channel carries ``LobbyChanged`` (each instance then
reads the lists once itself: app/lobby/feed.py, and ranks the live games for its TV
channels: app/tv/service.py).
Within one instance they are delivered as these objects; each encoding a subscriber needs
(the browser protocol's text, a lichess NDJSON line) is made once per message, not once per
subscriber (``GameUpdate.encoded``). ``HubCodec`` turns them into JSON text and back for the
PostgreSQL hub, with the events' own types (pydantic validates them back into the
dataclasses and enums).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import TypeAdapter

from app.domain import events as domain_events
from app.domain.enums import Side
from app.domain.events import ChatHidden, ChatPosted, GameEvent, MovePlayed
from app.realtime.presence import GamePresence, PresenceChanged, PresenceReport

if TYPE_CHECKING:  # (games imports this module)
    from app.games.state import GameState, LiveState

LOBBY_CHANNEL = "lobby"
PRESENCE_CHANNEL = "presence"
T = TypeVar("T")


def game_channel(game_id: str) -> str:
    return f"game:{game_id}"


def player_channel(player_id: str) -> str:
    return f"player:{player_id}"


def pool_channel(player_id: str) -> str:
    return f"pool:{player_id}"


@dataclass(eq=False)
class GameUpdate:
    """A committed change of a game: its events, the live state after it and its whole move
    list; ``state`` is the full state when more than the live part changed (anything but a
    move: seats, offers, takebacks, the end without a move)."""

    game_id: str
    ply: int
    events: tuple[GameEvent, ...]
    live: LiveState
    moves: str
    state: GameState | None = None
    _encoded: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def move(self) -> MovePlayed | None:
        return next((e for e in self.events if isinstance(e, MovePlayed)), None)

    def encoded(self, kind: str, encode: Callable[[GameUpdate], T]) -> T:
        """``encode(self)``, made once per message whoever asks (every subscriber of a game
        shares the message object)."""
        found: T | None = self._encoded.get(kind)
        if found is None:
            found = self._encoded[kind] = encode(self)
        return found


@dataclass(frozen=True, slots=True)
class PlayerLine:
    """A line of a player's event stream (lichess's ``gameStart``, ``challenge``...)."""

    player_id: str
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class NewGameMessage:
    """A game of ``player_id`` started: their seat, and whether they move first."""

    player_id: str
    game_id: str
    side: Side
    my_turn: bool


@dataclass(frozen=True, slots=True)
class RatingsChanged:
    """A rated game's end changed both players' ratings (committed): the browser
    protocol's ``ratings`` object (docs/protocol.md), told on the game's channel."""

    game_id: str
    ply: int
    ratings: dict[str, Any]


@dataclass(frozen=True, slots=True)
class LobbyChanged:
    """A game the lobby lists (or listed) was created, seated, started or ended."""

    game_id: str


@dataclass(frozen=True, slots=True)
class PoolChanged:
    """A player's quick-pairing entry was paired or replaced (``pool:{player}``): whoever
    holds it reads it again (app/matchmaking/holder.py)."""

    player_id: str


HubMessage = (
    GameUpdate
    | PresenceChanged
    | PresenceReport
    | ChatPosted
    | ChatHidden
    | PlayerLine
    | NewGameMessage
    | LobbyChanged
    | RatingsChanged
    | PoolChanged
)


# ---- across instances ------------------------------------------------------------------------
def _event_types() -> dict[str, type[GameEvent]]:
    return {
        name: cls
        for name, cls in vars(domain_events).items()
        if isinstance(cls, type) and issubclass(cls, GameEvent) and cls is not GameEvent
    }


EVENT_TYPES = _event_types()


_ADAPTERS: dict[str, TypeAdapter[Any]] = {}


def _adapter(cls: type[Any]) -> TypeAdapter[Any]:
    found = _ADAPTERS.get(cls.__name__)
    if found is None:
        found = _ADAPTERS[cls.__name__] = TypeAdapter(cls)
    return found


# Each event type's field names: events are flat (strings, numbers, enums), so a shallow
# dict is their JSON value (``dataclasses.asdict`` deep-copies: 10x the cost, every move).
_FIELDS: dict[type[GameEvent], tuple[str, ...]] = {
    cls: tuple(f.name for f in dataclasses.fields(cls)) for cls in EVENT_TYPES.values()
}


def event_json(event: GameEvent) -> dict[str, Any]:
    cls = type(event)
    data: dict[str, Any] = {"t": cls.__name__}
    for name in _FIELDS[cls]:
        data[name] = getattr(event, name)
    return data


def event_of(data: dict[str, Any]) -> GameEvent:
    fields = dict(data)
    cls = EVENT_TYPES[fields.pop("t")]
    event: GameEvent = _adapter(cls).validate_python(fields)
    return event


class HubCodec:
    """Hub messages as JSON values and back (the PostgreSQL hub's payloads)."""

    @staticmethod
    def encode(message: object) -> dict[str, Any]:
        data: dict[str, Any]
        if isinstance(message, GameUpdate):
            data = {
                "k": "game",
                "g": message.game_id,
                "p": message.ply,
                "e": [event_json(e) for e in message.events],
                "l": message.live,
                "m": message.moves,
                "s": message.state,
            }
        elif isinstance(message, PresenceChanged):
            data = {"k": "presence", **dataclasses.asdict(message)}
        elif isinstance(message, PresenceReport):
            games = [dataclasses.astuple(g) for g in message.games]
            data = {"k": "report", "i": message.instance, "h": message.hello, "g": games}
        elif isinstance(message, GameEvent):
            data = {"k": "event", "e": event_json(message)}
        elif isinstance(message, PlayerLine):
            data = {"k": "player", "p": message.player_id, "d": message.data}
        elif isinstance(message, NewGameMessage):
            data = {
                "k": "newGame",
                "p": message.player_id,
                "g": message.game_id,
                "s": message.side,
                "t": message.my_turn,
            }
        elif isinstance(message, LobbyChanged):
            data = {"k": "lobbyChanged", "g": message.game_id}
        elif isinstance(message, RatingsChanged):
            data = {"k": "ratings", "g": message.game_id, "p": message.ply, "r": message.ratings}
        elif isinstance(message, PoolChanged):
            data = {"k": "poolChanged", "p": message.player_id}
        else:
            raise TypeError(f"not a hub message: {message!r}")
        return data

    @staticmethod
    def decode(value: dict[str, Any]) -> object:
        data = dict(value)
        kind = data.pop("k")
        if kind == "game":
            return GameUpdate(
                data["g"],
                data["p"],
                tuple(event_of(e) for e in data["e"]),
                data["l"],
                data["m"],
                data["s"],
            )
        if kind == "presence":
            return PresenceChanged(**data)
        if kind == "report":
            games = tuple(GamePresence(*g) for g in data["g"])
            return PresenceReport(data["i"], games, hello=bool(data["h"]))
        if kind == "event":
            return event_of(data["e"])
        if kind == "player":
            return PlayerLine(data["p"], data["d"])
        if kind == "newGame":
            return NewGameMessage(data["p"], data["g"], Side(data["s"]), bool(data["t"]))
        if kind == "lobbyChanged":
            return LobbyChanged(data["g"])
        if kind == "ratings":
            return RatingsChanged(data["g"], data["p"], data["r"])
        if kind == "poolChanged":
            return PoolChanged(data["p"])
        raise ValueError(f"unknown hub message kind {kind!r}")
