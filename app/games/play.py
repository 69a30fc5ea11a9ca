"""The players' own actions on a game: a move, resigning, aborting, draw and takeback offers
and answers, and claims when the opponent is gone. Each checks its request, then runs its
transition (transitions.py) as one change (changes.py)."""

from __future__ import annotations

from app.core.errors import ServiceError
from app.db.models import GameRow
from app.domain.players import Identity
from app.games.changes import Changes
from app.games.transitions import Transitions

ANSWERS = ("offer", "accept", "decline")


class PlayerActions:
    def __init__(self, changes: Changes, transitions: Transitions) -> None:
        self.changes = changes
        self.transitions = transitions

    async def move(self, who: Identity, game_id: str, text: str, ply: int | None = None) -> GameRow:
        """The move pipeline. ``ply``: the number of moves the client has seen (stale check)."""
        if not isinstance(text, str) or not text or len(text) > 16:
            raise ServiceError("move.invalid", f"not a move text: {text!r}", 400)
        return await self.changes.run(
            game_id, lambda g, now: self.transitions.move(g, now, who, text, ply)
        )

    async def resign(self, who: Identity, game_id: str) -> GameRow:
        return await self.changes.run(game_id, lambda g, now: self.transitions.resign(g, now, who))

    async def abort(self, who: Identity, game_id: str) -> GameRow:
        return await self.changes.run(game_id, lambda g, now: self.transitions.abort(g, now, who))

    async def draw(self, who: Identity, game_id: str, action: str) -> GameRow:
        """offer (accepts a standing offer of the opponent), accept, or decline."""
        if action not in ANSWERS:
            raise ServiceError("request.invalid", f"unknown draw action {action!r}")
        return await self.changes.run(
            game_id, lambda g, now: self.transitions.draw(g, now, who, action)
        )

    async def takeback(self, who: Identity, game_id: str, action: str) -> GameRow:
        """Propose, accept or decline a takeback (transitions.Transitions.takeback)."""
        if action not in ANSWERS:
            raise ServiceError("request.invalid", f"unknown takeback action {action!r}")
        return await self.changes.run(
            game_id, lambda g, now: self.transitions.takeback(g, now, who, action)
        )

    async def claim(self, who: Identity, game_id: str, kind: str) -> GameRow:
        """Claim victory or a draw when the opponent has been gone past the grace period."""
        if kind not in ("victory", "draw"):
            raise ServiceError("request.invalid", f"one claims victory or draw, not {kind!r}")
        return await self.changes.run(
            game_id, lambda g, now: self.transitions.claim(g, now, who, kind)
        )
