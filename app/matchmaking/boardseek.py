"""The board seek's way into the quick-pairing pools (``POST /api/board/seek`` with a pool's
game and clock: app/challenges/routes.py ``seek``): which pool a seek goes into, its entry, and
the lines the seek's stream says while it waits."""

from __future__ import annotations

from collections.abc import AsyncIterator

from app.botapi.gamestream import detach
from app.botapi.streams import KEEPALIVE, line
from app.challenges.terms import Terms, needs_account
from app.domain.players import Identity
from app.http.deps import Services
from app.lobby import seekrange
from app.matchmaking.holder import Holder
from app.matchmaking.pools import Pool, pool_of


def seek_pool(terms: Terms) -> Pool | None:
    """The pool a board seek with these (checked) terms goes into: a pool's game and clock,
    its standard rules and start, a random colour; None: an ordinary lobby seek."""
    game, control = terms.game, terms.game.control
    if control.days is not None or game.initial_fen is not None or terms.color != "random":
        return None
    found = pool_of(game.variant, control.initial_ms, control.increment_ms)
    if found is None or game.rules != found.rules:
        return None
    return found


async def open_pool_seek(
    services: Services, who: Identity, pool: Pool, rated: bool, rating: str | None
) -> Holder:
    """The seeker's entry in the pool, held by the seek's request; 403
    ``challenge.rated_needs_account`` for an anonymous rated seek, as a lobby seek's."""
    if rated and not await services.challenges.is_account(who.id):
        raise needs_account()
    return await Holder.open(
        services.pools, who, pool.id, rated=rated, rating_range=seekrange.parse(rating)
    )


async def wait_in_pool(services: Services, holder: Holder) -> AsyncIterator[bytes]:
    """The seek's lines: keep-alives while waiting, then ``{"id": gameId}`` once paired.
    The request's end (the client closing it) takes the entry out of the pool."""
    keepalive = services.settings.keepalive_seconds
    try:
        while True:
            outcome = await holder.next(keepalive)
            if outcome is None:
                yield KEEPALIVE
            elif outcome.game_id is not None:
                yield line({"id": outcome.game_id})
                return
            elif outcome.gone:
                return  # replaced by another search of the player's, or the server stops
    finally:
        detach(holder.close())
