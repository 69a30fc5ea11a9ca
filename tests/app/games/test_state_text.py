"""The state a socket gets first is made from kept text (a crowd joining one game shares it):
it is exactly the full state, after moves, offers, seats and the end alike."""

from __future__ import annotations

import json
from typing import Any

from tests.app.conftest import Player, move_at, receive, send, started_game


def _same_text(client: Any, game_id: str) -> None:
    services = client.app.state.services
    games = services.games

    async def both() -> tuple[Any, Any]:
        game = await games.reads.get(game_id)
        # The app's clock stands still: one instant for both (serverTime, clocks).
        return json.loads(await games.reads.state_text(game)), await games.reads.state(game)

    text, state = client.portal.call(both)
    assert text == json.loads(json.dumps(state))


def test_the_kept_state_text_is_the_full_state_through_a_game(alice: Player, bob: Player):
    client = alice.client
    created = alice.create("dobutsu", color="first")
    _same_text(client, created["id"])  # no second player yet
    game_id = started_game(alice, bob)
    _same_text(client, game_id)
    with alice.socket(game_id) as a, bob.socket(game_id) as b:
        first = receive(a, "state")
        assert first["me"] == {"id": alice.who.id, "name": alice.who.name}
        # Bob's socket has its first state before the move: one that joins as the move is
        # made gets it in that state, and never as a move of its own.
        assert receive(b, "state")["game"]["moves"] == []
        send(a, type="move", move="b2b3", ply=0)
        move_at(b, 1)
        _same_text(client, game_id)
        send(a, type="draw", action="offer")
        assert receive(b, "state")["game"]["drawOffer"] == "first"
        _same_text(client, game_id)
        send(b, type="draw", action="decline")
        assert receive(b, "state")["game"]["drawOffer"] is None
        _same_text(client, game_id)
        send(a, type="resign")
        assert receive(b, "state")["game"]["status"] == "resign"
    _same_text(client, game_id)
