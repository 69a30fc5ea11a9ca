"""A tournament's default name: the site's own for an event of its schedule ("Hourly
Gorogoro shōgi Arena"), or the one an event gets when its creator gives none ("Gorogoro
shōgi Swiss"); and, read back from a stored name, the words it was made of, so that pages
say it in their language (the ``defaultName`` field of docs/api.md)."""

from __future__ import annotations

from typing import Any

import engine

SYSTEM_ID = "kodama"  # the site's own player: no account has a 6-character id
EVERY = ("hourly", "daily", "weekly")


def default_name(variant: str, system: str, every: str | None = None) -> str:
    """The English name of a ``system`` ("arena" or "swiss") of ``variant``, made ``every``
    hour, day or week by the site (None: made by a person who gave no name)."""
    game = engine.get_game(variant).name if variant in engine.game_ids() else variant
    words = [every.capitalize()] if every else []
    return " ".join([*words, game, system.capitalize()])


def name_words(name: str, variant: str, system: str, created_by: str) -> dict[str, Any] | None:
    """What ``name`` was made from when it is a default name, else None (a name a person or
    the site's operator typed). Only the site's own events are "hourly", "daily", "weekly":
    a person who types "Hourly ... Arena" keeps the name as typed."""
    for every in (None, *EVERY):
        if every is not None and created_by != SYSTEM_ID:
            continue
        if name == default_name(variant, system, every):
            return {"every": every, "system": system, "variant": variant}
    return None
