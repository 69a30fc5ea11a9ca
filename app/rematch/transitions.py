"""A finished game's rematch, as transitions of its row (the shape of transitions.py: the
game row and the time in, typed events out; a refusal raises ServiceError and changes
nothing). app/rematch/service.py runs them: offers, declines and lapses through the move
pipeline, an accept in the transaction that creates the new game.

The row holds who offers (``rematch_offer``) and the new game's id (``rematch_id``),
reserved with the offer; once accepted the offer is gone and the id stays.
"""

from __future__ import annotations

from app.core.errors import ServiceError
from app.db.models import GameRow
from app.domain.enums import ENDED, RematchLapse, Side
from app.domain.events import (
    GameEvent,
    RematchAccepted,
    RematchDeclined,
    RematchLapsed,
    RematchOffered,
)
from app.domain.players import Identity
from app.games.endings import seat_of

Events = list[GameEvent]


def rematch_seat(game: GameRow, who: Identity) -> Side:
    """The asker's seat in a finished game that has not been rematched yet."""
    side = seat_of(game, who.id)
    if side is None:
        raise ServiceError(
            "rematch.spectator", "only the game's players can offer or answer a rematch", 403
        )
    if game.status not in ENDED:
        raise ServiceError("rematch.not_over", "a rematch is offered once the game is over", 409)
    if game.started_ms is None:
        raise ServiceError(
            "rematch.not_played", "this game never started: there is nothing to play again", 409
        )
    if accepted(game):
        raise ServiceError(
            "rematch.taken", "this game's rematch has started already", 409, game=game.rematch_id
        )
    return side


def accepted(game: GameRow) -> bool:
    return game.rematch_offer is None and game.rematch_id is not None


def offer(game: GameRow, _now: int, who: Identity, new_id: str) -> Events:
    """Offer a rematch whose game will be ``new_id``. The opponent's standing offer is not
    changed here (the service accepts it instead); offering again changes nothing."""
    side = rematch_seat(game, who)
    if game.rematch_offer is not None:
        return []  # ours already, or the opponent's: then this is an accept (the caller's)
    game.rematch_offer = side
    game.rematch_id = new_id
    return [RematchOffered(game.id, game.ply, side, new_id)]


def decline(game: GameRow, _now: int, who: Identity) -> Events:
    """Decline the opponent's offer, or withdraw one's own."""
    side = rematch_seat(game, who)
    if game.rematch_offer is None:
        raise ServiceError("rematch.no_offer", "no rematch is offered", 409)
    maker = Side(game.rematch_offer)
    game.rematch_offer = None
    game.rematch_id = None
    if maker == side:
        return [RematchLapsed(game.id, game.ply, side, RematchLapse.WITHDRAWN)]
    return [RematchDeclined(game.id, game.ply, side)]


def accept(game: GameRow, _now: int, who: Identity) -> Events:
    """Accept the opponent's offer: the new game (``rematch_id``) is created with this change."""
    side = rematch_seat(game, who)
    if game.rematch_offer != side.other or game.rematch_id is None:
        raise ServiceError("rematch.no_offer", "your opponent has not offered a rematch", 409)
    game.rematch_offer = None
    return [RematchAccepted(game.id, game.ply, side, game.rematch_id)]


def lapse(game: GameRow, _now: int, maker: Side, reason: RematchLapse) -> Events:
    """The offer of ``maker`` lapses (its maker left, a player started another game); nothing
    if it no longer stands."""
    if game.rematch_offer != maker:
        return []
    game.rematch_offer = None
    game.rematch_id = None
    return [RematchLapsed(game.id, game.ply, maker, reason)]
