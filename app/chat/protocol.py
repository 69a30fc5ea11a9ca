"""The chat on the game socket (docs/protocol.md, "chat"): a line written from a page, the
lines told live, and the kept lines sent after every full ``state`` (on connect and on any
resync), so that a page reloaded shows the chat it had.

The players' room reaches the game's players only: live lines are withheld from spectators
by their view (app/games/viewer.py), and the kept lines a spectator is sent are read from the
spectators' room alone."""

from __future__ import annotations

from typing import Any

from app.chat import service as chat_rules
from app.core.errors import ServiceError
from app.core.jsontext import json_text
from app.db.models import ChatLine, GameRow
from app.domain.enums import ChatRoom
from app.domain.events import ChatHidden, ChatPosted
from app.domain.players import Identity
from app.games.endings import seat_of
from app.http.deps import Services

ROOMS = tuple(ChatRoom)


def chat_text(chat: ChatPosted) -> str:
    """A line told live: the ``chat`` message."""
    line = {
        "id": chat.line_id,
        "room": chat.room,
        "userId": chat.player_id,
        "username": chat.username,
        "text": chat.text,
    }
    return json_text({"type": "chat", "ply": chat.ply, **line})


def hidden_text(hidden: ChatHidden) -> str:
    """A line a moderator hid: ``chatHidden``, for the pages showing it to remove it."""
    return json_text({"type": "chatHidden", "ply": hidden.ply, "id": hidden.line_id})


def _line(row: ChatLine) -> dict[str, Any]:
    return {
        "id": row.id,
        "room": row.room,
        "userId": row.player_id,
        "username": row.username,
        "text": row.text,
    }


async def history_text(services: Services, game: GameRow, who: Identity | None) -> str:
    """The ``chatLines`` message: the kept lines ``who`` may read, as of ``game``'s read."""
    seated = who is not None and seat_of(game, who.id) is not None
    rooms = ROOMS if seated else (ChatRoom.SPECTATOR,)
    rows = await services.chat.recent(game.id, rooms)
    rows = (await services.chat.delivery.reader(who)).visible(rows)
    return json_text({"type": "chatLines", "ply": game.ply, "lines": [_line(r) for r in rows]})


async def write(
    services: Services, who: Identity | None, game_id: str, data: dict[str, Any]
) -> None:
    """A ``chat`` message from a page: checked, kept and told (or ``ServiceError``)."""
    room, text = data.get("room"), data.get("text")
    if room not in ROOMS:
        raise ServiceError("request.invalid", "a chat message needs 'room': player or spectator")
    if not isinstance(text, str):
        raise ServiceError("request.invalid", "a chat message needs 'text': a string")
    text = chat_rules.clean(text)
    game = await services.games.reads.get(game_id)
    room = ChatRoom(room)
    account = False
    if who is not None and room == ChatRoom.SPECTATOR and seat_of(game, who.id) is None:
        found = await services.accounts.by_id(who.id)
        account = found is not None and found.username is not None
    chat_rules.may_write(game, who, room, account)
    assert who is not None  # (may_write refuses a socket without an identity)
    await services.chat.post(game, who, room, text, services.games.now())
