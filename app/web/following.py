"""What every socket of a player hears besides its own messages: ``gameStart`` when a game
of theirs starts (docs/protocol.md), so that every page of theirs goes to it, and the
challenges made to them and their answers (app/challenges/notices.py). Every such
socket also keeps its identity's seeks in the lobby (app/realtime/attendance.py)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

from app.challenges.notices import notice
from app.core.jsontext import json_text
from app.games import Identity
from app.realtime.messages import NewGameMessage, PlayerLine

if TYPE_CHECKING:
    from app.http.connections import Connection
    from app.http.deps import Services


def game_start(new: NewGameMessage) -> dict[str, object]:
    return {
        "type": "gameStart",
        "game": {"id": new.game_id, "side": new.side, "myTurn": new.my_turn},
    }


@contextlib.contextmanager
def follow(
    services: Services, who: Identity | None, conn: Connection, shown: str | None = None
) -> Iterator[None]:
    """For the block, ``conn`` is told each new game of ``who`` and each challenge notice
    (an identity's socket; a socket without one hears nothing). ``shown``: the game a game
    socket shows, whose start its own ``state`` tells; its ``gameStart`` (and notices) carry
    that game's ply, as its every message."""
    if who is None:
        yield
        return

    def encode(message: NewGameMessage | PlayerLine) -> str | None:
        if isinstance(message, PlayerLine):
            data = notice(message.data, who.id)  # a challenge to or from them
            if data is None:
                return None
        elif message.game_id == shown:
            return None
        else:
            data = game_start(message)
        if shown is None:
            return json_text(data)
        return json_text({**data, "ply": services.presence.ply.get(shown)})

    # The socket also keeps its identity's seeks alive (app/lobby/seeks.py).
    with services.attendance.hold(who.id), services.followers.follow(who.id, conn.send, encode):
        yield
