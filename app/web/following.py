"""What every socket of a player hears besides its own messages: ``gameStart`` when a game
of theirs starts (docs/protocol.md), so that every page of theirs goes to it. Every such
socket also keeps its identity's seeks in the lobby (app/realtime/attendance.py)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

from app.core.jsontext import json_text
from app.games import Identity
from app.realtime.messages import NewGameMessage

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
    """For the block, ``conn`` is told each new game of ``who`` (an identity's socket; a
    socket without one hears nothing). ``shown``: the game a game socket shows, whose start
    its own ``state`` tells; its ``gameStart`` carries that game's ply, as its every message."""
    if who is None:
        yield
        return

    def encode(new: NewGameMessage) -> str | None:
        if shown is None:
            return json_text(game_start(new))
        if new.game_id == shown:
            return None
        return json_text({**game_start(new), "ply": services.presence.ply.get(shown)})

    # The socket also keeps its identity's seeks alive (app/lobby/seeks.py).
    with services.attendance.hold(who.id), services.followers.follow(who.id, conn.send, encode):
        yield
