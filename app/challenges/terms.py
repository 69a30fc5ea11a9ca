"""What a challenge or a seek proposes (``Terms``: the new game's ``GameTerms`` and the
proposer's colour), and its checks: the game and its rule options, the clock or days, the
colour, a position to start from."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import engine
from app.core.errors import ServiceError
from app.db.models import Challenge
from app.games import MAX_CLOCK_MINUTES, MAX_INCREMENT_SECONDS, MIN_CLOCK_SECONDS, timecontrol
from app.games.newgames import rated_needs_account
from app.games.terms import GameTerms
from app.games.timecontrol import TimeControl
from engine import EngineError

COLORS = ("white", "black", "random")
MAX_LIMIT_SECONDS = MAX_CLOCK_MINUTES * 60


@dataclass(frozen=True)
class Terms:
    """What a challenge or a seek proposes, checked (``asked``): the new game's terms and
    the proposer's colour."""

    game: GameTerms
    color: str  # the proposer's: white | black | random

    @staticmethod
    def asked(
        variant: str,
        rules: dict[str, str],
        limit: int | None,
        increment: int,
        days: int | None,
        color: str,
        rated: bool,
        fen: str | None = None,
        byoyomi: int = 0,
        periods: int = 0,
    ) -> Terms:
        """The terms asked, every rule option filled in and the position string in its
        canonical form (None if it is the start), or the error of the first bad field.
        ``limit``/``increment`` in seconds (None: no clock); ``byoyomi`` (seconds) and
        ``periods``: a byo-yomi clock; ``days``: days per move of a correspondence game."""
        try:
            game = engine.get_game(variant, **rules)
        except EngineError as exc:
            raise ServiceError(exc.code, str(exc), 400) from None
        start = None if fen is None else start_position(game, fen)
        _check_rated(rated, start)
        if color not in COLORS:
            raise ServiceError("request.invalid", "color must be white, black or random")
        if limit is not None and days is not None:
            raise ServiceError("request.invalid", "give a clock or days, not both")
        if limit is not None and not MIN_CLOCK_SECONDS <= limit <= MAX_LIMIT_SECONDS:
            raise ServiceError(
                "clock.invalid",
                f"clock.limit must be {MIN_CLOCK_SECONDS} to {MAX_LIMIT_SECONDS} seconds",
            )
        if not 0 <= increment <= MAX_INCREMENT_SECONDS:
            raise ServiceError(
                "clock.invalid", f"clock.increment must be 0 to {MAX_INCREMENT_SECONDS} seconds"
            )
        control = timecontrol.checked(
            None if limit is None else limit * 1000,
            increment,
            byoyomi=byoyomi,
            periods=periods,
            days=days,
            names=("clock.increment", "byoyomi", "periods", "days"),
        )
        return Terms(GameTerms(variant, dict(game.options), control, rated, start), color)

    @staticmethod
    def of(challenge: Challenge) -> Terms:
        """The terms a challenge was made with (checked then, stored in whole seconds)."""
        limit = challenge.clock_limit
        control = TimeControl(
            None if limit is None else limit * 1000,
            0 if limit is None else (challenge.clock_increment or 0) * 1000,
            None if challenge.clock_byoyomi is None else challenge.clock_byoyomi * 1000,
            challenge.clock_periods,
            challenge.days,
        )
        game = GameTerms(
            challenge.variant,
            dict(challenge.rules),
            control,
            challenge.rated,
            challenge.initial_fen,
        )
        return Terms(game, challenge.color)

    def rated_as(self, rated: bool) -> Terms:
        """These terms, rated or not (a position to start from cannot be rated)."""
        _check_rated(rated, self.game.initial_fen)
        return dataclasses.replace(self, game=dataclasses.replace(self.game, rated=rated))


def columns(terms: Terms) -> dict[str, Any]:
    """A challenge row's columns of these terms (its clock in whole seconds, as lichess's
    challenges are asked)."""
    game, control = terms.game, terms.game.control
    initial, byoyomi = control.initial_ms, control.byoyomi_ms
    return {
        "variant": game.variant,
        "rules": dict(game.rules),
        "clock_limit": None if initial is None else initial // 1000,
        "clock_increment": None if initial is None else control.increment_ms // 1000,
        "clock_byoyomi": None if byoyomi is None else byoyomi // 1000,
        "clock_periods": control.periods,
        "days": control.days,
        "color": terms.color,
        "rated": game.rated,
        "initial_fen": game.initial_fen,
    }


def _check_rated(rated: bool, start: str | None) -> None:
    if rated and start is not None:
        # lichess: a game from a custom position cannot be rated (the start given as a
        # position is the start).
        raise ServiceError(
            "challenge.rated_position", "a game from a position cannot be rated", 400
        )


def start_position(game: engine.Game[Any], text: str) -> str | None:
    """``text`` read as a position of ``game`` to start from: its canonical string, None if
    it is the game's own start; 400 ``position.invalid`` if it is not one, or is over."""
    try:
        pos = game.from_text(text)
    except EngineError as exc:
        raise ServiceError("position.invalid", str(exc), 400) from None
    if game.result(pos) is not None:
        raise ServiceError(
            "position.invalid", f"the game is already over in the position {text!r}", 400
        )
    canonical = str(game.to_text(pos))
    return None if canonical == game.to_text(game.start()) else canonical


def needs_account() -> ServiceError:
    """A rated challenge or seek made, or an open rated challenge's seat taken, anonymously."""
    return rated_needs_account("only accounts can play rated games", "challenge")
