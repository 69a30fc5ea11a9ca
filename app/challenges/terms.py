"""What a challenge or a seek proposes (``Terms``), and its checks: the game and its rule
options, the clock or days, the colour, a position to start from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import engine
from app.core.errors import ServiceError
from app.games import MAX_CLOCK_MINUTES, MAX_INCREMENT_SECONDS, MIN_CLOCK_SECONDS, timecontrol
from app.games.newgames import rated_needs_account
from engine import EngineError

COLORS = ("white", "black", "random")
MAX_LIMIT_SECONDS = MAX_CLOCK_MINUTES * 60


@dataclass(frozen=True)
class Terms:
    """What a challenge or a seek proposes. ``limit``/``increment`` in seconds (None: no
    clock); ``byoyomi`` (seconds) and ``periods``: a byo-yomi clock; ``days``: days per
    move of a correspondence game."""

    variant: str
    rules: dict[str, str]
    limit: int | None
    increment: int
    days: int | None
    color: str  # the proposer's: white | black | random
    rated: bool
    fen: str | None = None  # the position to start from (None: the game's start)
    byoyomi: int = 0
    periods: int = 0

    def checked(self) -> Terms:
        """The terms with every rule option filled in and the position string in its
        canonical form (None if it is the start), or the error of the first bad field."""
        try:
            game = engine.get_game(self.variant, **self.rules)
        except EngineError as exc:
            raise ServiceError(exc.code, str(exc), 400) from None
        fen = None if self.fen is None else start_position(game, self.fen)
        if self.rated and fen is not None:
            # lichess: a game from a custom position cannot be rated (the start given as a
            # position is the start).
            raise ServiceError(
                "challenge.rated_position", "a game from a position cannot be rated", 400
            )
        if self.color not in COLORS:
            raise ServiceError("request.invalid", "color must be white, black or random")
        if self.limit is not None and self.days is not None:
            raise ServiceError("request.invalid", "give a clock or days, not both")
        if self.limit is not None and not MIN_CLOCK_SECONDS <= self.limit <= MAX_LIMIT_SECONDS:
            raise ServiceError(
                "clock.invalid",
                f"clock.limit must be {MIN_CLOCK_SECONDS} to {MAX_LIMIT_SECONDS} seconds",
            )
        if not 0 <= self.increment <= MAX_INCREMENT_SECONDS:
            raise ServiceError(
                "clock.invalid", f"clock.increment must be 0 to {MAX_INCREMENT_SECONDS} seconds"
            )
        timecontrol.checked(
            self.clock_ms,
            self.increment,
            byoyomi=self.byoyomi,
            periods=self.periods,
            days=self.days,
            names=("clock.increment", "byoyomi", "periods", "days"),
        )
        return Terms(
            self.variant,
            dict(game.options),
            self.limit,
            self.increment if self.limit is not None else 0,
            self.days,
            self.color,
            self.rated,
            fen,
            self.byoyomi if self.limit is not None else 0,
            self.periods if self.limit is not None else 0,
        )

    @property
    def clock_ms(self) -> int | None:
        return None if self.limit is None else self.limit * 1000


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
