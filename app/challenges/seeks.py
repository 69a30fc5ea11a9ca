"""Seeks (``POST /api/board/seek`` outside the quick-pairing pools): pair at once with the
oldest compatible public game of the lobby, or open one there."""

from __future__ import annotations

from sqlalchemy import select

from app.botapi.gamejson import SIDE
from app.challenges.service import ChallengeService
from app.challenges.terms import Terms
from app.core.errors import ServiceError
from app.db.models import Game, GameRow
from app.domain.enums import GameStatus
from app.games import Identity, NewGame
from app.lobby import seekrange
from app.ratings.reading import at_start


async def pair(
    challenges: ChallengeService,
    who: Identity,
    terms: Terms,
    rating_range: tuple[int, int] | None = None,
) -> GameRow | None:
    """Take the seat of the oldest compatible open public game, if there is one: one
    whose range accepts this player and whose creator is within ``rating_range``."""
    await challenges.require_account(who, terms)
    game_terms, control = terms.game, terms.game.control
    fen = game_terms.initial_fen
    conditions = [
        Game.status == GameStatus.CREATED,
        Game.public.is_(True),
        Game.variant == game_terms.variant,
        Game.creator_id != who.id,
        Game.initial_fen.is_(None) if fen is None else Game.initial_fen == fen,
        Game.rated == game_terms.rated,
    ]
    if control.initial_ms is None:
        conditions.append(Game.clock_initial_ms.is_(None))
    else:
        conditions.append(Game.clock_initial_ms == control.initial_ms)
        conditions.append(Game.clock_increment_ms == control.increment_ms)
    if control.byoyomi_ms is not None:
        conditions.append(Game.clock_byoyomi_ms == control.byoyomi_ms)
        conditions.append(Game.clock_periods == control.periods)
    else:
        conditions.append(Game.clock_byoyomi_ms.is_(None))
    if control.days is None:
        conditions.append(Game.days.is_(None))
    else:
        conditions.append(Game.days == control.days)
    if terms.color != "random":
        # The seat left must surely be the colour asked for.
        conditions.append(Game.creator_color.not_in(("random", SIDE[terms.color])))
    async with challenges.sessions() as session:
        stmt = select(Game).where(*conditions).order_by(Game.created_ms, Game.id).limit(50)
        candidates = list((await session.execute(stmt)).scalars())
    ratings = await at_start(
        challenges.sessions,
        game_terms.variant,
        [who.id, *(g.creator_id for g in candidates)],
        challenges.games.now(),
    )
    for game in candidates:
        if dict(game.rules) != game_terms.rules:
            continue  # rules are JSON: compared here (50 open games of one clock is plenty)
        if not seekrange.accepts(game, ratings.get(who.id)):
            continue  # its range excludes this player
        if not seekrange.within(rating_range, ratings.get(game.creator_id)):
            continue  # its creator is outside this player's range
        try:
            return await challenges.games.setup.join(who, game_id=game.id)
        except ServiceError as exc:
            if exc.code not in ("game.seat_taken", "game.blocked"):
                raise
            continue  # taken meanwhile by someone else, or a block between: try the next
    return None


async def seek(
    challenges: ChallengeService,
    who: Identity,
    terms: Terms,
    rating_range: tuple[int, int] | None = None,
) -> GameRow:
    """A public open game in the lobby, waiting for an opponent (nothing to pair with)."""
    await challenges.require_account(who, terms)
    color = "random" if terms.color == "random" else SIDE[terms.color]
    return await challenges.games.setup.create(
        who, NewGame(terms.game, color=color, public=True, rating_range=rating_range)
    )
