"""What can happen to a game, as values.

A change of a game (app/games) returns these events; everything downstream
subscribes to them: the sockets and NDJSON streams that show a game, the lobby, the
timekeeper, the bot event streams (``gameStart``/``gameFinish``), and the outbox consumers
(what must happen exactly once: per-player counts now, ratings next). Nothing downstream
parses serialized messages or guesses what happened from timestamps.

Each event names its game and the ply at which it happened. ``DURABLE`` events are also
written to the outbox in the same transaction as the change (docs/decisions/typed-events.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.domain.enums import ChatRoom, EndReason, GameStatus, RematchLapse, Side


@dataclass(frozen=True, slots=True)
class GameEvent:
    game_id: str
    ply: int


@dataclass(frozen=True, slots=True)
class GameCreated(GameEvent):
    creator_id: str
    public: bool


@dataclass(frozen=True, slots=True)
class SeatTaken(GameEvent):
    """A player has a seat: the creator's known colour, or whoever joined."""

    side: Side
    player_id: str


@dataclass(frozen=True, slots=True)
class GameStarted(GameEvent):
    first_id: str
    second_id: str


@dataclass(frozen=True, slots=True)
class SeekHidden(GameEvent):
    """A public game waiting for its opponent left the lobby: its creator has no page open."""


@dataclass(frozen=True, slots=True)
class SeekShown(GameEvent):
    """A hidden seek is back in the lobby: its creator came back in time."""


@dataclass(frozen=True, slots=True)
class MovePlayed(GameEvent):
    """``ply`` is the ply after the move (the move is the ``ply``-th)."""

    side: Side
    move: str


@dataclass(frozen=True, slots=True)
class DrawOffered(GameEvent):
    by: Side


@dataclass(frozen=True, slots=True)
class DrawDeclined(GameEvent):
    by: Side


@dataclass(frozen=True, slots=True)
class TakebackOffered(GameEvent):
    by: Side


@dataclass(frozen=True, slots=True)
class TakebackDeclined(GameEvent):
    """Declined by the opponent, or withdrawn by its proposer (``by``)."""

    by: Side


@dataclass(frozen=True, slots=True)
class MovesTakenBack(GameEvent):
    """``ply`` is the ply after the takeback; ``count`` moves were taken back."""

    count: int


@dataclass(frozen=True, slots=True)
class GameEnded(GameEvent):
    status: GameStatus
    winner: Side | None
    reason: EndReason


@dataclass(frozen=True, slots=True)
class ChatPosted(GameEvent):
    """A kept chat line; ``line_id`` is its row's id (a page merging the kept lines it read
    with the lines told live counts each once)."""

    room: ChatRoom
    player_id: str
    username: str
    text: str
    line_id: int
    # Written while its author's chat is visible only to themselves (app/moderation): told
    # to them alone.
    author_only: bool = False


@dataclass(frozen=True, slots=True)
class ChatHidden(GameEvent):
    """A moderator hid a kept chat line: it is served to nobody from now on, and the pages
    showing it remove it."""

    line_id: int


@dataclass(frozen=True, slots=True)
class RematchOffered(GameEvent):
    """A player of a finished game offers a rematch: the new game would have the id
    ``game`` (reserved now: a bot's challenge for it has that id)."""

    by: Side
    game: str


@dataclass(frozen=True, slots=True)
class RematchDeclined(GameEvent):
    """The opponent of the offer's maker said no."""

    by: Side


@dataclass(frozen=True, slots=True)
class RematchLapsed(GameEvent):
    """The offer of ``by`` stands no more: withdrawn, its maker left, or another game."""

    by: Side
    reason: RematchLapse


@dataclass(frozen=True, slots=True)
class RematchAccepted(GameEvent):
    """``by`` accepted: the new game ``game`` exists (created in the same transaction)."""

    by: Side
    game: str


# Acted on exactly once: written to the outbox with the change that made them.
DURABLE: tuple[type[GameEvent], ...] = (GameEnded,)
