"""Find a game by id and build it with validated rule options."""

from __future__ import annotations

import importlib
from typing import Any

from .core import Game
from .errors import InvalidOptionError, UnknownGameError

GAMES: tuple[str, ...] = ("dobutsu", "gorogoro", "jungle", "yote", "wali")
# Each game id names its module engine.games.<id>, which exposes the class ``GAME``.
_CACHE: dict[tuple[str, tuple[tuple[str, str], ...]], Game[Any]] = {}


def get_game(game_id: str, **options: object) -> Game[Any]:
    """The game ``game_id`` with rule options given by keyword (unknown or bad -> error).

    Asked again with the same options in the same order (a server asks for each stored
    game's rules at every move), the game comes from the cache without checking anew."""
    found = _CACHE.get((game_id, tuple(options.items())))  # type: ignore[arg-type]
    if found is not None:
        return found
    if not isinstance(game_id, str) or game_id not in GAMES:
        raise UnknownGameError(f"unknown game {game_id!r}; the games are {', '.join(GAMES)}")
    cls: type[Game[Any]] = importlib.import_module(f"{__package__}.games.{game_id}").GAME
    known = {o.name: o for o in cls.OPTIONS}
    chosen: dict[str, str] = {o.name: o.default for o in cls.OPTIONS}
    for name, value in options.items():
        option = known.get(name)
        if option is None:
            allowed = ", ".join(known) or "none"
            raise InvalidOptionError(
                f"{game_id} has no rule option {name!r} (its options: {allowed})"
            )
        if value not in option.values:
            raise InvalidOptionError(
                f"rule option {name!r} of {game_id} cannot be {value!r} "
                f"(allowed: {', '.join(option.values)})"
            )
        chosen[name] = str(value)
    key = (game_id, tuple(sorted(chosen.items())))
    game = _CACHE.get(key)
    if game is None:
        game = _CACHE[key] = cls(chosen)
    # Also under the options as given (only options just checked: never a bad one).
    _CACHE[(game_id, tuple((k, str(v)) for k, v in options.items()))] = game
    return game
