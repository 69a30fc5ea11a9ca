"""A new game's terms (``GameTerms``): the game and its rule options, the time control,
rated, the position to start from. The one description every way of making a game passes
on: a challenge's terms, the browser's new game, a rematch, a pairing round's games."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.core.errors import ServiceError
from app.db.models import GameRow
from app.games import timecontrol
from app.games.timecontrol import MAX_CLOCK_MINUTES, UNLIMITED, TimeControl, clock_ms_of


@dataclass(frozen=True)
class GameTerms:
    """What a new game is played by. Who sits where is not part of it: each way of making a
    game decides that (a challenge's colour, the browser's seat, a rematch's swap)."""

    variant: str
    rules: dict[str, str] = field(default_factory=dict)  # the rule options asked
    control: TimeControl = UNLIMITED
    rated: bool = False
    initial_fen: str | None = None  # a checked position string (None: the game's start)

    @staticmethod
    def of_game(game: GameRow) -> GameTerms:
        """The terms a game was made with (a rematch is played by its game's)."""
        control = TimeControl(
            game.clock_initial_ms,
            game.clock_increment_ms or 0,
            game.clock_byoyomi_ms,
            game.clock_periods,
            game.days,
        )
        return GameTerms(
            game.variant, dict(game.rules), control, bool(game.rated), game.initial_fen
        )


def browser_control(
    minutes: float | None, increment: int, byoyomi: int, periods: int, days: int | None
) -> TimeControl:
    """The browser's clock (minutes, seconds), checked, or the error of its first bad part."""
    # Checked once rounded to the milliseconds stored: 1e-300 minutes is above 0, and was a
    # 0 ms clock.
    initial = None if minutes is None else clock_ms_of(minutes)
    if minutes is not None and initial is None:
        raise ServiceError(
            "clock.invalid",
            f"minutes must make 1 second to {MAX_CLOCK_MINUTES} minutes"
            " (rounded to whole milliseconds)",
        )
    return timecontrol.checked(initial, increment, byoyomi=byoyomi, periods=periods, days=days)
