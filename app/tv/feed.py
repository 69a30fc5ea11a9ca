"""A TV channel's NDJSON feed, as lichess's ``/api/tv/feed``: a ``featured`` line for the game
the channel shows, then a ``fen`` line per move of it; a new ``featured`` line when the
channel switches (app/tv/service.py), for as long as the client listens.

One subscription carries both: the channel's switches and the featured game's hub channel,
whose moves reach it from any instance, as a spectator's game stream follows them
(app/botapi/gamestream.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

from app.botapi.gamejson import COLOR, UNLIMITED_MS, load_players, seat_json, variant_json
from app.botapi.streams import KEEPALIVE, line, next_message
from app.db.engine import uncancelled
from app.db.models import GameRow
from app.http.deps import Services
from app.ratings.reading import seat_rating
from app.realtime.hub import CLOSING, RESYNC, Subscription
from app.realtime.messages import GameUpdate, game_channel
from engine import Side


def _seconds(live: Mapping[str, Any]) -> tuple[int, int]:
    """Each side's main time left in whole seconds (int32's maximum in ms without a clock,
    as the game streams say: app/botapi/gamejson.py)."""
    times = live.get("clock")
    if not times:
        return UNLIMITED_MS // 1000, UNLIMITED_MS // 1000
    return times["first"] // 1000, times["second"] // 1000


def _last(moves: Sequence[str]) -> str | None:
    return moves[-1] if moves else None


def fen_line(live: Mapping[str, Any], moves: Sequence[str]) -> dict[str, Any]:
    """lichess's ``fen`` line: the position after a move, the move, both clocks (seconds)."""
    white, black = _seconds(live)
    return {"t": "fen", "d": {"fen": live["fen"], "lm": _last(moves), "wc": white, "bc": black}}


async def featured_line(services: Services, game: GameRow, orientation: Side) -> dict[str, Any]:
    """lichess's ``featured`` line, with what a page needs besides to draw it: the game
    (``variant``), its last move (``lm``) and whether it has a clock."""
    live = services.games.reads.live(game)
    players = await load_players(services.games.sessions, (game.first_id, game.second_id))
    seconds = _seconds(live)
    seats = []
    for side, player_id, left in ((Side.FIRST, game.first_id, seconds[0]),
                                  (Side.SECOND, game.second_id, seconds[1])):  # fmt: skip
        seat: dict[str, Any] = {"color": COLOR[side], "seconds": left}
        user = seat_json(players, player_id)
        if user is not None:
            seat["user"] = user
        rating = seat_rating(game, side)
        if rating is not None:
            seat["rating"] = rating[0]
        seats.append(seat)
    data = {
        "id": game.id,
        "orientation": COLOR[orientation],
        "players": seats,
        "fen": live["fen"],
        "lm": _last(game.moves.split()),
        "variant": variant_json(game.variant),
        "clock": live["clock"] is not None,
        "status": live["status"],
    }
    return {"t": "featured", "d": data}


async def feed(services: Services, channel: str) -> AsyncIterator[bytes]:
    """The channel's lines (see the module's docstring); a keep-alive line when quiet."""
    tv, hub = services.tv, services.hub
    keepalive = services.settings.keepalive_seconds
    sub = Subscription()
    tv.listen(channel, sub)
    shown: str | None = None  # the game whose moves this feed follows
    ply = -1
    try:
        while True:
            wanted = tv.featured(channel)
            if wanted is not None and wanted != shown:
                if shown is not None:
                    hub.unlisten(game_channel(shown), sub)
                shown = wanted
                # Subscribed first, then read: no move falls between the two.
                hub.listen(game_channel(shown), sub)
                game = await uncancelled(services.games.reads.get(shown))
                ply = game.ply
                first = featured_line(services, game, tv.orientation(channel))
                yield line(await uncancelled(first))
            message = await next_message(sub, keepalive)
            if message is None:
                yield KEEPALIVE
            elif message is CLOSING:
                return  # the server is shutting down: the client reconnects
            elif message is RESYNC and shown is not None:
                # Messages were lost (a switch among them, maybe: the loop looks again).
                game = await uncancelled(services.games.reads.get(shown))
                if game.ply != ply:
                    ply = game.ply
                    yield line(fen_line(services.games.reads.live(game), game.moves.split()))
            elif (
                isinstance(message, GameUpdate) and message.game_id == shown and message.ply != ply
            ):  # a move (or a move taken back): not an offer, nor an end without a move
                ply = message.ply
                yield line(fen_line(message.live, message.moves.split()))
            # A ``Switched`` needs nothing more: the loop reads the channel again.
    finally:
        tv.unlisten(channel, sub)
        if shown is not None:
            hub.unlisten(game_channel(shown), sub)
