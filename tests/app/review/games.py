"""Finished games for the reviews' tests: made from a position, played and ended through the
game service (as the pages' requests do), and the reviews' work awaited without sleeping."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from fastapi.testclient import TestClient

import engine
from app.games.newgames import NewGame
from app.games.terms import GameTerms
from tests.app.accounts_and_streams import services_of
from tests.app.conftest import Player


def finished_game(
    client: TestClient,
    first: Player,
    second: Player,
    variant: str = "dobutsu",
    fen: str | None = None,
    moves: Sequence[str] = ("b1c2", "b4a3", "c2c3", "a3a2", "c3c4"),
    rules: dict[str, str] | None = None,
) -> str:
    """A game ``first`` and ``second`` played from ``fen`` (None: the start) with these
    moves, ended by a resignation of the side to move unless the moves ended it. An empty
    ``moves`` with no ending: a game still being played."""
    services = services_of(client)
    rules = rules or {}
    initial = None
    if fen is not None:
        game = engine.get_game(variant, **rules)
        initial = str(game.to_text(game.from_text(fen)))

    async def play() -> str:
        terms = GameTerms(variant, dict(rules), initial_fen=initial)
        made = await services.games.setup.create(first.who, NewGame(terms, "first", False))
        await services.games.setup.join(second.who, token=made.invite_token)
        row = made
        for ply, move in enumerate(moves):
            row = await services.games.reads.get(made.id)
            mover = first if _to_move(row) == "first" else second
            row = await services.games.play.move(mover.who, made.id, move, ply)
        if moves and row.status == "started":
            loser = first if _to_move(row) == "first" else second
            await services.games.play.resign(loser.who, made.id)
        return str(made.id)

    assert client.portal is not None
    return client.portal.call(play)


def _to_move(row: Any) -> str:
    game = engine.get_game(row.variant, **row.rules)
    return str(game.side_to_move(game.from_text(row.fen)))


def settle(client: TestClient) -> None:
    """Wait until the instance's reviews are all run (the runner found nothing left)."""
    assert client.portal is not None
    client.portal.call(services_of(client).reviews.runner.turned, True)


def turn(client: TestClient) -> None:
    """Wait until the instance's runner has looked at the queue (and started what it may)."""
    assert client.portal is not None
    client.portal.call(services_of(client).reviews.runner.turned)


class Gate:
    """An evaluator for the queue's tests: every position's value waits for ``open``."""

    def __init__(self) -> None:
        self.opened = asyncio.Event()
        self.asked = 0

    async def __call__(self, variant: str, rules: dict[str, str], fen: str) -> dict[str, Any]:
        self.asked += 1
        await self.opened.wait()
        game = engine.get_game(variant, **rules)
        return {"cp": 0, "turn": str(game.side_to_move(game.from_text(fen))), "source": "search"}
