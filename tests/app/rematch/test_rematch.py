"""Rematches through the game socket, on SQLite and PostgreSQL: an offer, its answers (accept,
decline, offer-as-accept, withdrawal), the new game (same game, rules, clock, public flag and
rated-ness, colours swapped) that both players' sockets and the spectators' are told of, and
every refusal, which changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.app.accounts_and_streams import MATE, Account, services_of
from tests.app.conftest import Player, invite_token, receive, send, started_game
from tests.app.ratings.test_rated_games import browser


def finished_game(alice: Player, bob: Player, **body: Any) -> str:
    """A game alice (first) won against bob."""
    game_id = started_game(alice, bob, **body)
    with alice.socket(game_id) as a, bob.socket(game_id) as b:
        receive(a, "state")
        receive(b, "state")
        for ply, move in enumerate(MATE):
            send(a if ply % 2 == 0 else b, type="move", move=move, ply=ply)
            receive(a, "move")
            receive(b, "move")
    return game_id


def game_of(player: Player, game_id: str) -> dict[str, Any]:
    response = player.get(f"/api/games/{game_id}")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()["game"]
    return data


def state_until(ws: Any, check: Any, limit: int = 20) -> dict[str, Any]:
    """The next ``state`` whose game passes ``check``."""
    for _ in range(limit):
        game: dict[str, Any] = receive(ws, "state")["game"]
        if check(game):
            return game
    raise AssertionError("no such state")


def refused(ws: Any, code: str, **message: Any) -> None:
    send(ws, type="rematch", **message)
    error = receive(ws, "error")
    assert error["code"] == code, error


@pytest.mark.parametrize(
    "control",
    [
        {"clock": {"minutes": 3, "increment": 2}},
        {"clock": {"minutes": 5, "increment": 0, "byoyomi": 10, "periods": 3}},
        {"days": 2},
        {},
    ],
    ids=["fischer", "byoyomi", "correspondence", "untimed"],
)
def test_an_accepted_rematch_is_the_same_game_with_colours_swapped(
    alice: Player, bob: Player, carol: Player, control: dict[str, Any]
):
    old_id = finished_game(alice, bob, variant="dobutsu", public=False, **control)
    old = game_of(alice, old_id)
    with alice.socket(old_id) as a, bob.socket(old_id) as b, carol.socket(old_id) as c:
        for ws in (a, b, c):
            assert receive(ws, "state")["game"]["rematchOffer"] is None
        send(a, type="rematch", action="offer")
        offered = state_until(b, lambda g: g["rematchOffer"] == "first")
        assert offered["rematch"] is None
        state_until(c, lambda g: g["rematchOffer"] == "first")
        send(b, type="rematch", action="accept")
        # Everyone on the old game hears the new one's id; the players' sockets also hear
        # gameStart (every page of theirs follows them).
        new_id = state_until(c, lambda g: g["rematch"] is not None)["rematch"]
        assert state_until(a, lambda g: g["rematch"] is not None)["rematch"] == new_id
        start = receive(b, "gameStart")
        assert (start["game"]["id"], start["game"]["side"]) == (new_id, "first")
        assert receive(a, "gameStart")["game"]["side"] == "second"
    new = game_of(alice, new_id)
    assert new["status"] == "started"
    assert (new["players"]["first"]["id"], new["players"]["second"]["id"]) == (
        old["players"]["second"]["id"],
        old["players"]["first"]["id"],
    )
    for key in ("variant", "rules", "public", "rated", "daysPerTurn"):
        assert new[key] == old[key], key
    if old["clock"] is None:
        assert new["clock"] is None
    else:
        for key in ("initial", "increment", "byoyomi", "periods"):
            assert new["clock"][key] == old["clock"][key], key
    after = game_of(carol, old_id)
    assert (after["rematch"], after["rematchOffer"]) == (new_id, None)


def test_offering_when_the_opponent_offers_accepts(alice: Player, bob: Player):
    old_id = finished_game(alice, bob)
    with alice.socket(old_id) as a, bob.socket(old_id) as b:
        receive(a, "state")
        receive(b, "state")
        send(b, type="rematch", action="offer")
        state_until(a, lambda g: g["rematchOffer"] == "second")
        send(b, type="rematch", action="offer")  # again: nothing changes
        send(a, type="rematch", action="offer")
        new_id = state_until(a, lambda g: g["rematch"] is not None)["rematch"]
    new = game_of(alice, new_id)
    # Bob made the offer: he is the new game's creator, alice (who was first) is second.
    assert new["players"]["creator"]["id"] == new["players"]["first"]["id"]
    assert new["players"]["second"]["name"] == game_of(alice, old_id)["players"]["first"]["name"]


def test_a_declined_or_withdrawn_offer_may_be_made_again(alice: Player, bob: Player):
    old_id = finished_game(alice, bob)
    with alice.socket(old_id) as a, bob.socket(old_id) as b:
        receive(a, "state")
        receive(b, "state")
        send(a, type="rematch", action="offer")
        state_until(b, lambda g: g["rematchOffer"] == "first")
        send(b, type="rematch", action="decline")
        state_until(a, lambda g: g["rematchOffer"] is None)
        refused(b, "rematch.no_offer", action="accept")
        send(a, type="rematch", action="offer")
        state_until(b, lambda g: g["rematchOffer"] == "first")
        send(a, type="rematch", action="decline")  # withdrawn by its maker
        withdrawn = state_until(b, lambda g: g["rematchOffer"] is None)
        assert withdrawn["rematch"] is None
        refused(a, "rematch.no_offer", action="decline")
        send(b, type="rematch", action="offer")
        state_until(a, lambda g: g["rematchOffer"] == "second")
        send(a, type="rematch", action="accept")
        assert state_until(b, lambda g: g["rematch"] is not None)["rematch"]


def test_refusals_change_nothing(alice: Player, bob: Player, carol: Player):
    live_id = started_game(alice, bob)
    with alice.socket(live_id) as a:
        receive(a, "state")
        refused(a, "rematch.not_over", action="offer")
    assert game_of(alice, live_id)["rematchOffer"] is None

    old_id = finished_game(alice, bob)
    with alice.socket(old_id) as a, bob.socket(old_id) as b, carol.socket(old_id) as c:
        receive(a, "state")
        receive(b, "state")
        receive(c, "state")
        refused(c, "rematch.spectator", action="offer")
        refused(b, "rematch.no_offer", action="accept")
        refused(b, "rematch.no_offer", action="decline")
        refused(a, "request.invalid", action="again")
        refused(a, "request.invalid")
        assert game_of(alice, old_id)["rematchOffer"] is None
        send(a, type="rematch", action="offer")
        state_until(b, lambda g: g["rematchOffer"] == "first")
        refused(a, "rematch.no_offer", action="accept")  # one's own offer
        refused(c, "rematch.spectator", action="accept")
        send(b, type="rematch", action="accept")
        new_id = state_until(a, lambda g: g["rematch"] is not None)["rematch"]
        for ws in (a, b):
            refused(ws, "rematch.taken", action="offer")
            refused(ws, "rematch.taken", action="accept")
            refused(ws, "rematch.taken", action="decline")
    assert game_of(alice, old_id)["rematch"] == new_id

    # A game nobody joined (cancelled) was never played: nothing to play again.
    created = alice.create()
    assert alice.post(f"/api/games/{created['id']}/cancel").status_code == 200
    with alice.socket(created["id"]) as a:
        receive(a, "state")
        refused(a, "rematch.not_played", action="offer")


def test_a_seek_and_an_invite_keep_their_public_flag(alice: Player, bob: Player):
    seek = alice.create(public=True)
    assert bob.post(f"/api/games/{seek['id']}/join").status_code == 200
    with alice.socket(seek["id"]) as a, bob.socket(seek["id"]) as b:
        receive(a, "state")
        receive(b, "state")
        send(a, type="resign")
        state_until(b, lambda g: g["status"] == "resign")
        send(b, type="rematch", action="offer")
        state_until(a, lambda g: g["rematchOffer"] == "second")
        send(a, type="rematch", action="accept")
        new_id = state_until(b, lambda g: g["rematch"] is not None)["rematch"]
    assert game_of(alice, new_id)["public"] is True
    invited = alice.create(public=False)
    assert bob.post(f"/api/invite/{invite_token(invited)}").status_code == 200
    assert game_of(alice, invited["id"])["public"] is False


def test_a_rated_game_s_rematch_is_rated(client: TestClient):
    alice = browser(client, Account(client, "alice"))
    bob = browser(client, Account(client, "bob"))
    old_id = finished_game(alice, bob, rated=True)
    assert game_of(alice, old_id)["rated"] is True
    with alice.socket(old_id) as a, bob.socket(old_id) as b:
        receive(a, "state")
        receive(b, "state")
        send(a, type="rematch", action="offer")
        state_until(b, lambda g: g["rematchOffer"] == "first")
        send(b, type="rematch", action="accept")
        new_id = state_until(a, lambda g: g["rematch"] is not None)["rematch"]
    new = game_of(alice, new_id)
    assert new["rated"] is True
    assert new["players"]["first"]["id"] == bob.who.id
    assert "rating" in new["players"]["first"] and "rating" in new["players"]["second"]


def test_two_accepts_at_once_make_one_game(client: TestClient, alice: Player, bob: Player):
    """Both players offering at once, and the opponent accepting twice at once: one game."""
    services = services_of(client)
    assert client.portal is not None

    async def at_once(*calls: Any) -> list[Any]:
        import asyncio  # noqa: PLC0415

        return list(await asyncio.gather(*calls, return_exceptions=True))

    for _ in range(3):
        old_id = finished_game(alice, bob)
        results = client.portal.call(
            at_once,
            services.rematches.offer(alice.who, old_id),
            services.rematches.offer(bob.who, old_id),
        )
        assert all(r is None for r in results), results
        new_id = game_of(alice, old_id)["rematch"]
        assert new_id is not None and game_of(alice, new_id)["status"] == "started"

    old_id = finished_game(alice, bob)
    client.portal.call(services.rematches.offer, alice.who, old_id)
    results = client.portal.call(
        at_once,
        services.rematches.accept(bob.who, old_id),
        services.rematches.accept(bob.who, old_id),
        services.rematches.offer(bob.who, old_id),
    )
    made = [r for r in results if not isinstance(r, BaseException)]
    errors = [r for r in results if isinstance(r, BaseException)]
    assert [getattr(e, "code", e) for e in errors] == ["rematch.taken"] * len(errors)
    assert len(errors) >= 1
    # The game is made by whichever comes first: an accept returns it; bob's offer, an
    # accept of alice's standing offer, returns nothing (as offers do).
    ids = {r.id for r in made if r is not None}
    rematch = game_of(alice, old_id)["rematch"]
    assert rematch is not None and ids <= {rematch}
    assert game_of(alice, rematch)["status"] == "started"
