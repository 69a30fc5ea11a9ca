"""Find a game by id and build it with validated rule options."""

from __future__ import annotations

import importlib
from typing import Any

from . import variants
from .core import Game
from .errors import EngineError, InvalidOptionError

# Each game's entry in engine/variants.py names its module, which exposes the class ``GAME``.
_CACHE: dict[tuple[str, tuple[tuple[str, str], ...]], Game[Any]] = {}


def game_ids() -> tuple[str, ...]:
    """Every game's id, in the table's order (engine/variants.py)."""
    return variants.ids()


def _game_class(game_id: str) -> type[Game[Any]]:
    entry = variants.get(game_id)
    cls: type[Game[Any]] = importlib.import_module(entry.module_name).GAME
    if (cls.id, (cls.files, cls.ranks)) != (entry.id, entry.board):
        raise EngineError(
            f"{entry.module_name}.GAME is {cls.id!r} on {cls.files}x{cls.ranks}, but the "
            f"table's entry is {entry.id!r} on {entry.board[0]}x{entry.board[1]}"
        )
    return cls


def get_game(game_id: str, **options: object) -> Game[Any]:
    """The game ``game_id`` with rule options given by keyword (unknown or bad -> error).

    Asked again with the same options in the same order (a server asks for each stored
    game's rules at every move), the game comes from the cache without checking anew."""
    found = _CACHE.get((game_id, tuple(options.items())))  # type: ignore[arg-type]
    if found is not None:
        return found
    cls = _game_class(game_id)
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


def describe(game_id: str) -> dict[str, Any]:
    """What a client is told about the game with its default options: its ``describe()``
    (rules) and its table entry's ``client()`` facts (GET /api/variants)."""
    return {**get_game(game_id).describe(), **variants.get(game_id).client()}


def forget(game_id: str) -> None:
    """Drop the built games of ``game_id`` (after its table entry was taken out)."""
    for key in [k for k in _CACHE if k[0] == game_id]:
        del _CACHE[key]
