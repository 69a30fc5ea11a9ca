"""The rows and events of new games, made before they are inserted: a game waiting for its
opponent (``new_game``), or started with both players seated (``started_game``: an accepted
challenge, a rematch, a pairing round's games). No input or output: the time is given."""

from __future__ import annotations

import functools
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import engine
from app.core.errors import ServiceError
from app.db.models import Game
from app.domain.enums import GameStatus
from app.domain.events import GameCreated, GameEvent, GameStarted, SeatTaken
from app.domain.players import Identity
from app.games.terms import GameTerms
from app.ratings.glicko2 import Rating
from app.ratings.reading import seat_columns
from engine import EngineError, Side


@functools.lru_cache(maxsize=256)
def _rules_and_start(
    variant: str, rules: tuple[tuple[str, str], ...]
) -> tuple[tuple[tuple[str, Any], ...], str]:
    """A game's rule options and start position (the same for every game of these rules: a
    pairing round starts hundreds at once). EngineError if the rules are not valid."""
    game_rules = engine.get_game(variant, **dict(rules))
    return tuple(game_rules.options.items()), game_rules.to_text(game_rules.start())


def rated_needs_account(message: str, area: str = "game") -> ServiceError:
    """A rated game asked for, or a seat of one taken, by an anonymous player. ``area``: the
    API's (``game`` for the browser's games, ``challenge`` for challenges and seeks)."""
    return ServiceError(f"{area}.rated_needs_account", message, 403)


def too_many_open(whose: str, cap: int) -> ServiceError:
    return ServiceError(
        "game.too_many_open",
        f"{whose} for an opponent (at most {cap}): cancel one, or wait until one is joined",
        409,
    )


@dataclass(frozen=True)
class NewGame:
    """The browser's new game: its terms, and what only the browser asks beside them."""

    terms: GameTerms  # rated: only an account may create one (and take its other seat)
    color: str  # first | second | random
    public: bool
    rating_range: tuple[int, int] | None = None  # the joiners' ratings accepted (None: any)


def new_game(
    game_id: str,
    creator: Identity,
    now: int,
    *,
    terms: GameTerms,
    public: bool,
    color: str,
) -> Game:
    """A new game row, the creator seated if their colour is known, not yet started (and
    not rated: the caller says so once it knows the players are accounts)."""
    variant, control, initial_fen = terms.variant, terms.control, terms.initial_fen
    try:
        options, start = _rules_and_start(variant, tuple(sorted(terms.rules.items())))
    except EngineError as exc:
        raise ServiceError(exc.code, str(exc), 400) from None
    return Game(
        id=game_id,
        variant=variant,
        rules=dict(options),
        public=public,
        status=GameStatus.CREATED,
        creator_id=creator.id,
        creator_color=color,
        first_id=creator.id if color == Side.FIRST else None,
        second_id=creator.id if color == Side.SECOND else None,
        invite_token=secrets.token_urlsafe(24),  # 192 bits: the seat's secret
        moves="",
        ply=0,
        fen=initial_fen or start,
        initial_fen=initial_fen,
        clock_initial_ms=control.initial_ms,
        clock_increment_ms=None if control.initial_ms is None else control.increment_ms,
        first_ms=control.initial_ms,
        second_ms=control.initial_ms,
        clock_byoyomi_ms=control.byoyomi_ms,
        clock_periods=control.periods,
        first_periods=control.periods,
        second_periods=control.periods,
        days=control.days,
        created_ms=now,
    )


def started_game(
    game_id: str,
    first: Identity,
    second: Identity,
    creator: Identity,
    now: int,
    *,
    ratings: Mapping[str, Rating],
    terms: GameTerms,
    public: bool = True,
) -> tuple[Game, list[GameEvent]]:
    """The row of a started game with both players seated (whose rows exist), and its
    events, for a caller that inserts it in its own transaction (a pairing round inserts
    all its games in one) then tells them (``changes.outside``). ``ratings``: the players'
    ratings as the game starts (``ratings.reading.at_start``; none for anonymous ones)."""
    creator_side = Side.FIRST if creator.id == first.id else Side.SECOND
    game = new_game(
        game_id,
        creator,
        now,
        terms=terms,
        public=public,
        color=creator_side,
    )
    game.first_id, game.second_id = first.id, second.id
    if terms.rated and len(ratings) != 2:
        raise rated_needs_account("a rated game is played between two accounts")
    seat_columns(game, ratings)
    game.rated = terms.rated
    game.status = GameStatus.STARTED
    game.started_ms = game.turn_started_ms = game.created_ms
    events: list[GameEvent] = [
        GameCreated(game.id, 0, creator.id, public),
        SeatTaken(game.id, 0, Side.FIRST, first.id),
        SeatTaken(game.id, 0, Side.SECOND, second.id),
        GameStarted(game.id, 0, first.id, second.id),
    ]
    return game, events
