"""The NDJSON encoding of a live view of a game (app/games/viewer.py): lichess's game stream
(bot/board API) and the spectators' stream of the export route."""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from app.botapi.gamejson import game_state
from app.botapi.streams import KEEPALIVE, line
from app.db.engine import uncancelled
from app.db.models import GameRow
from app.domain.enums import ENDED, GameStatus
from app.domain.events import ChatPosted
from app.domain.players import Identity
from app.games.state import GameState, LiveState
from app.games.viewer import view
from app.http.deps import Services
from app.realtime.hub import CLOSING, RESYNC
from app.realtime.messages import GameUpdate
from app.realtime.presence import PresenceChanged
from engine import Side

log = logging.getLogger(__name__)
_detached: set[asyncio.Task[None]] = set()

# What the first line of a stream is made from the game and its full state.
FirstLine = Callable[[GameRow, GameState], Awaitable[dict[str, Any]]]


def detach(coroutine: Awaitable[None]) -> None:
    """Run to its end even if the stream that started it is cancelled (a client gone)."""

    async def run() -> None:
        try:
            await coroutine
        except Exception:
            log.exception("background work of a stream failed")

    task = asyncio.get_running_loop().create_task(run())
    _detached.add(task)
    task.add_done_callback(_detached.discard)


def opponent_gone(services: Services, game: GameRow, side: Side, ply: int) -> dict[str, Any]:
    gone_ms = services.presence.gone_for_ms(game.id, side) or 0
    moved = ply >= (1 if side == Side.FIRST else 2)
    settings = services.settings
    grace = settings.gone_seconds if moved else settings.gone_unmoved_seconds
    seconds = max(0, math.ceil((grace * 1000 - gone_ms) / 1000))
    return {"type": "opponentGone", "gone": True, "claimWinInSeconds": seconds}


def state_line(update: GameUpdate) -> bytes:
    """A change as a ``gameState`` line (the same for every stream of the game)."""
    return line(game_state(update.live, update.moves.split()))


def _key(live: LiveState) -> tuple[Any, ...]:
    return (live["ply"], live["status"], live["drawOffer"], live["takebackOffer"])


async def follow(
    services: Services,
    game_id: str,
    side: Side | None,
    first: FirstLine,
    who: Identity | None = None,
) -> AsyncIterator[bytes]:
    """A game's lines: ``first(game, state)``, then a ``gameState`` per change, chat lines,
    and for a player (``side``) ``opponentGone``; ends after the game's final state.

    A player's open stream counts as that player being connected (presence, claims)."""
    games = services.games
    keepalive = services.settings.keepalive_seconds
    game = await uncancelled(games.reads.get(game_id))
    # ``who``: the player streaming it, whose chat lines are filtered as theirs
    # (app/chat/delivery.py); None for a public stream of a game.
    async with view(services, game, who, side) as viewer:
        # Read once subscribed: no change can fall between the read and the stream.
        game = await viewer.game()
        state = await uncancelled(games.reads.state(game))
        yield line(await uncancelled(first(game, state)))
        if state["status"] in ENDED:
            return
        seen = _key(state)
        # Nobody has to stay connected in a correspondence game: no opponentGone there.
        opponent = None if side is None or game.days is not None else side.other
        away = opponent is not None and not services.presence.online(game.id, opponent)
        if away and opponent is not None and state["status"] == GameStatus.STARTED:
            yield line(opponent_gone(services, game, opponent, state["ply"]))
        while True:
            message = await viewer.next(keepalive)
            if message is None:
                yield KEEPALIVE
                continue
            if message is CLOSING:
                return  # the server is shutting down: the client reconnects
            if isinstance(message, ChatPosted):
                chat = {"room": message.room, "username": message.username, "text": message.text}
                yield line({"type": "chatLine", **chat})
                continue
            if isinstance(message, PresenceChanged):
                if opponent is not None:
                    online = message.first if opponent == Side.FIRST else message.second
                    if online == away:
                        away = not online
                        if away:
                            yield line(opponent_gone(services, game, opponent, seen[0]))
                        else:
                            yield line({"type": "opponentGone", "gone": False})
                continue
            if message is RESYNC:
                game = await viewer.game()
                state = await uncancelled(games.reads.state(game))
                live: LiveState = state
                text = line(game_state(state, state["moves"]))
            elif isinstance(message, GameUpdate):
                live = message.live
                text = message.encoded("ndjson", state_line)
            else:
                continue
            if _key(live) == seen:
                continue  # the same state again (sent while the stream opened)
            seen = _key(live)
            yield text
            if live["status"] in ENDED:
                return
