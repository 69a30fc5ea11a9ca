"""Who is asking."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Identity:
    """A player: an anonymous visitor (a signed cookie) or an account (logged in, or a
    token's owner). ``id`` is the players row's key; ``name`` what others see."""

    id: str
    name: str
