"""A rematch offer lapses when its maker leaves the game's page (on the injected clock: a
reload within the grace keeps it) and when a player of the game starts another game; on
SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from typing import Any

from app.core.time import ManualClock
from app.domain.events import GameStarted
from tests.app.accounts_and_streams import services_of
from tests.app.conftest import Player, receive, send, started_game
from tests.app.rematch.test_rematch import finished_game, game_of, state_until


def _presence_until(ws: Any, online: dict[str, bool]) -> None:
    for _ in range(20):
        if receive(ws, "presence")["online"] == online:
            return
    raise AssertionError(f"presence never became {online}")


def _lapses_done(player: Player) -> None:
    """Wait for the lapses the games started so far made (they run after the start)."""
    rematches = services_of(player.client).rematches
    assert player.client.portal is not None

    async def done() -> None:
        while rematches._lapsing is not None and not rematches._lapsing.done():
            await asyncio.wait([rematches._lapsing])

    player.client.portal.call(done)


def test_an_offer_lapses_when_its_maker_leaves(make_client: Any, clock: ManualClock):
    client = make_client(rematch_gone_seconds=5, rematch_sweep_seconds=1)
    alice, bob = Player(client, "alice"), Player(client, "bob")
    old_id = finished_game(alice, bob)
    with bob.socket(old_id) as b:
        receive(b, "state")
        with alice.socket(old_id) as a:
            receive(a, "state")
            send(a, type="rematch", action="offer")
            state_until(b, lambda g: g["rematchOffer"] == "first")
        _presence_until(b, {"first": False, "second": True})
        clock.advance(3000)
        with alice.socket(old_id) as a:  # a reload: back within the grace
            receive(a, "state")
            _presence_until(b, {"first": True, "second": True})
            clock.advance(10_000)
        assert game_of(bob, old_id)["rematchOffer"] == "first"
        _presence_until(b, {"first": False, "second": True})
        clock.advance(4000)
        assert game_of(bob, old_id)["rematchOffer"] == "first"
        clock.advance(2000)
        lapsed = state_until(b, lambda g: g["rematchOffer"] is None)
        assert lapsed["rematch"] is None
    send_again = game_of(alice, old_id)
    assert (send_again["rematchOffer"], send_again["rematch"]) == (None, None)


def test_the_opponent_leaving_does_not_lapse_it(make_client: Any, clock: ManualClock):
    client = make_client(rematch_gone_seconds=5, rematch_sweep_seconds=1)
    alice, bob = Player(client, "alice"), Player(client, "bob")
    old_id = finished_game(alice, bob)
    with alice.socket(old_id) as a:
        receive(a, "state")
        with bob.socket(old_id) as b:
            receive(b, "state")
            send(a, type="rematch", action="offer")
            state_until(b, lambda g: g["rematchOffer"] == "first")
        _presence_until(a, {"first": True, "second": False})
        clock.advance(20_000)
        assert game_of(alice, old_id)["rematchOffer"] == "first"
        with bob.socket(old_id) as b:  # bob comes back to it and accepts
            assert receive(b, "state")["game"]["rematchOffer"] == "first"
            send(b, type="rematch", action="accept")
            assert state_until(a, lambda g: g["rematch"] is not None)["rematch"]


def test_a_games_own_start_heard_late_does_not_lapse_its_offer(alice: Player, bob: Player):
    """The read that lapses the offers of players who started a game can run late on a busy
    database: after the game it heard start has ended and an offer was made in it. That
    game's start is no other game (seen in a whole-suite run on PostgreSQL)."""
    old_id = finished_game(alice, bob)
    with alice.socket(old_id) as a, bob.socket(old_id) as b:
        receive(a, "state")
        receive(b, "state")
        send(a, type="rematch", action="offer")
        state_until(b, lambda g: g["rematchOffer"] == "first")
    services = services_of(alice.client)
    assert alice.client.portal is not None

    async def heard_late() -> None:
        game = await services.games.reads.get(old_id)
        started = GameStarted(old_id, 0, game.first_id, game.second_id)
        services.rematches.heard(game, [started])

    alice.client.portal.call(heard_late)
    _lapses_done(alice)
    assert game_of(alice, old_id)["rematchOffer"] == "first"


def test_an_offer_lapses_when_a_player_starts_another_game(
    alice: Player, bob: Player, carol: Player
):
    for starter in ("opponent", "maker"):
        old_id = finished_game(alice, bob)
        with alice.socket(old_id) as a, bob.socket(old_id) as b:
            receive(a, "state")
            receive(b, "state")
            send(a, type="rematch", action="offer")
            state_until(b, lambda g: g["rematchOffer"] == "first")
            other = started_game(carol, bob if starter == "opponent" else alice)
            lapsed = state_until(b, lambda g: g["rematchOffer"] is None)
            assert lapsed["rematch"] is None
            assert game_of(alice, other)["status"] == "started"
            # A game of someone else lapses nothing.
            send(b, type="rematch", action="offer")
            state_until(a, lambda g: g["rematchOffer"] == "second")
            started_game(carol, Player(alice.client, "dave"))
            _lapses_done(alice)
            assert game_of(alice, old_id)["rematchOffer"] == "second"
            send(a, type="rematch", action="decline")
            state_until(b, lambda g: g["rematchOffer"] is None)
