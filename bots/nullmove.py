"""The null move: the side to move passes, for the search's null-move pruning.

If a side could pass and still score above beta after a shallower search, its real moves
(almost always better than passing) would too, and the node is cut. Passing is not a move of
any of these games, so the position is made here: the same fields, the other side to move,
no repetition history (a pass breaks the line of play), and a digest of its own so that the
search's table never mistakes it for a real position.
"""

from __future__ import annotations

from typing import Any


def passed(pos: Any) -> Any:
    """``pos`` with the other side to move."""
    null = object.__new__(type(pos))
    fields = {name: getattr(pos, name) for name in pos._value_slots()}
    fields.update(side=1 - pos.side, digest=pos.digest + "~", history=(), win=None)
    null._init(**fields)
    return null
