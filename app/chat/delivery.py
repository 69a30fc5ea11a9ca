"""Which chat lines reach whom: the one per-recipient filter of the games' chat
(docs/decisions/blocking-and-chat-safety.md).

Every line delivered passes here, whichever way it goes: told live on the game socket and
in the bot/board game streams (app/games/viewer.py asks ``sees`` per line), in the kept
lines sent with a page's state (app/chat/protocol.py) and in ``GET /api/{bot,board}/game/
{id}/chat`` (``visible``). A recipient's ``Reader`` is what they are not to be shown: the
lines of the accounts they block, and a line kept for its author only (written while a
moderator made its author's chat visible only to themselves: app/moderation) unless they
wrote it. What else a recipient must not see belongs in ``Reader`` and ``reader``, so that
every door keeps to it at once. (A line a moderator hid is served to nobody: the chat's
reads leave it out, and it is hidden after it was told.)
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Protocol, TypeVar

from app.domain.players import Identity

BlockedBy = Callable[[str], Awaitable[frozenset[str]]]


class Line(Protocol):
    """A chat line as kept (``ChatLine``) or told (``ChatPosted``): who wrote it, and
    whether it is theirs alone."""

    @property
    def player_id(self) -> str: ...

    @property
    def author_only(self) -> bool: ...


L = TypeVar("L", bound=Line)


@dataclass(frozen=True, slots=True)
class Reader:
    """One recipient, with what they are not to be shown."""

    id: str | None  # None: nobody known (a stream without an identity)
    blocked: frozenset[str] = frozenset()  # whose lines never reach them

    def sees(self, line: Line) -> bool:
        if line.author_only and line.player_id != self.id:
            return False
        return line.player_id not in self.blocked

    def visible(self, lines: Iterable[L]) -> list[L]:
        return [line for line in lines if self.sees(line)]


NOBODY = Reader(None)


class ChatDelivery:
    def __init__(self, blocked_by: BlockedBy) -> None:
        self.blocked_by = blocked_by  # kept a few seconds per instance (app/relations/blocks.py)

    async def reader(self, who: Identity | None) -> Reader:
        """``who`` as a recipient of chat lines."""
        if who is None:
            return NOBODY
        blocked = await self.blocked_by(who.id)
        return Reader(who.id, blocked) if blocked else Reader(who.id)
