"""A game socket's messages in ply order (app/games/inorder.py): a move the client holds is
dropped, a published state older than what was sent is refused (the socket sends the game
read afresh instead), a fresh read overtaken by a newer message is read again, and the
other messages never say an older ply. Takebacks still lower the ply."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, cast

from app.games.inorder import InOrder
from app.http.connections import Connection


class Socket:
    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send(self, text: str) -> None:
        self.sent.append(text)


def run(scenario: Callable[[InOrder], Coroutine[Any, Any, None]]) -> list[str]:
    socket = Socket()
    asyncio.run(scenario(InOrder(cast(Connection, socket))))
    return socket.sent


def test_moves_at_or_below_the_last_ply_are_dropped_and_older_states_refused():
    async def scenario(order: InOrder) -> None:
        assert await order.published_state(0, "state 0")
        assert await order.move(1, "move 1")
        assert not await order.move(1, "move 1 again")
        assert not await order.published_state(0, "a join told late")
        assert await order.published_state(1, "a draw offer at ply 1")
        assert order.at_least(0) == 1 and order.at_least(3) == 3 and order.at_least(None) == 1

    assert run(scenario) == ["state 0", "move 1", "a draw offer at ply 1"]


def test_a_fresh_state_overtaken_by_a_move_is_read_again():
    async def scenario(order: InOrder) -> None:
        await order.move(1, "move 1")
        reads = iter([(1, "state read at 1"), (2, "state read at 2")])

        async def read() -> tuple[int, str]:
            ply, text = next(reads)
            if ply == 1:  # the forwarding task sends a move while this read waits
                await order.move(2, "move 2")
            return ply, text

        await order.fresh_state(read)

    assert run(scenario) == ["move 1", "move 2", "state read at 2"]


def test_a_takeback_read_afresh_lowers_the_ply():
    async def scenario(order: InOrder) -> None:
        await order.move(5, "move 5")
        assert not await order.published_state(3, "takeback state")  # read afresh instead

        async def read() -> tuple[int, str]:
            return 3, "state read at 3"

        await order.fresh_state(read)
        assert order.ply == 3
        assert await order.move(4, "move 4")

    sent: Any = run(scenario)
    assert sent == ["move 5", "state read at 3", "move 4"]
