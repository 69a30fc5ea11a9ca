"""A seek's rating range, as lichess writes it (``ratingRange=1500-1800``): the opponents it
accepts. Parsed once at the door (POST /api/games, POST /api/board/seek, the pools) and
checked when someone takes the seat (transitions.take_seat)."""

from __future__ import annotations

import re

from app.core.errors import ServiceError
from app.db.models import GameRow
from app.ratings.glicko2 import Rating

RANGE = re.compile(r"^\s*(\d{1,4})\s*-\s*(\d{1,4})\s*$")
# An anonymous joiner has no rating: they count as a new account's rating
# (docs/decisions/seek-rating-range.md).
ANONYMOUS_RATING = round(Rating().rating)


def parse(text: str | None) -> tuple[int, int] | None:
    """lichess's ``ratingRange`` (``1500-1800``); None if not given (or empty)."""
    if text is None or not text.strip():
        return None
    found = RANGE.match(text)
    if found is None or int(found[1]) > int(found[2]):
        raise ServiceError(
            "request.invalid", f"ratingRange must be low-high, such as 1500-1800, not {text!r}"
        )
    return int(found[1]), int(found[2])


def of(game: GameRow) -> tuple[int, int] | None:
    """The game's range (None: anyone may join)."""
    if game.rating_min is None or game.rating_max is None:
        return None
    return game.rating_min, game.rating_max


def rounded(rating: Rating | None) -> int:
    """The number compared with a range: the rating as shown, or an anonymous player's."""
    return ANONYMOUS_RATING if rating is None else round(rating.rating)


def within(found: tuple[int, int] | None, rating: Rating | None) -> bool:
    """Whether a player of this rating (None: anonymous) is within the range (None: any)."""
    return found is None or found[0] <= rounded(rating) <= found[1]


def accepts(game: GameRow, rating: Rating | None) -> bool:
    """Whether the game's seek accepts a joiner of this rating."""
    return within(of(game), rating)


def check(game: GameRow, rating: Rating | None) -> None:
    """Refuse (403 ``seek.out_of_range``) a joiner whose rating is outside the range."""
    found = of(game)
    if found is None:
        return
    value = rounded(rating)
    if not found[0] <= value <= found[1]:
        raise ServiceError(
            "seek.out_of_range",
            f"this seek accepts ratings {found[0]}-{found[1]}; yours in this game is {value}",
            403,
        )
