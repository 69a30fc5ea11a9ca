"""Takebacks, as lichess's: the board API's ``takeback/{yes|no}``, the game
socket's ``takeback`` message, ``wtakeback``/``btakeback`` in the streams, what is taken
back, the clocks, and every refusal."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from app.botapi.models import GameStateEvent
from app.db.models import Game
from tests.app.accounts_and_streams import (
    MATE,
    Account,
    Lines,
    assert_error,
    challenge,
    check,
    services_of,
)
from tests.app.conftest import Player, move_at, receive, send, started_game

# What this module tests is the same on either database (tests/app/conftest.py).
pytestmark = pytest.mark.sqlite_only

FAST = {"keepalive_seconds": 0.1}


@pytest.fixture
def fast(make_client: Any) -> TestClient:
    client: TestClient = make_client(**FAST)
    return client


def board_game(client: TestClient, **body: Any) -> tuple[Account, Account, str]:
    """alice (white) and bob (black), two people playing through programs (/api/board)."""
    alice, bob = Account(client, "alice"), Account(client, "bob")
    created = challenge(alice, "bob", color="white", **body)
    response = bob.post(f"/api/challenge/{created['id']}/accept")
    assert response.status_code == 200, response.text
    return alice, bob, str(created["id"])


def play(who: Account, game_id: str, text: str) -> None:
    response = who.post(f"/api/board/game/{game_id}/move/{text}")
    assert response.status_code == 200, response.text


def takeback(who: Account, game_id: str, answer: str) -> Any:
    return who.post(f"/api/board/game/{game_id}/takeback/{answer}")


def ok(response: Any) -> None:
    assert response.status_code == 200, response.text
    assert response.json() == {"ok": True}


def next_state(lines: Lines) -> dict[str, Any]:
    state: dict[str, Any] = check(GameStateEvent, lines.next("gameState"))
    return state


# ---- what is taken back ------------------------------------------------------------------
def test_accepted_on_the_opponents_turn_it_takes_back_the_proposers_last_move(fast):
    alice, bob, game_id = board_game(fast)
    with bob.stream(f"/api/board/game/stream/{game_id}") as response:
        lines = Lines(response)
        full = lines.next("gameFull")
        assert full["state"]["wtakeback"] is False and full["state"]["btakeback"] is False
        play(alice, game_id, MATE[0])
        play(bob, game_id, MATE[1])
        at_two = [next_state(lines), next_state(lines)][-1]
        play(alice, game_id, MATE[2])
        assert next_state(lines)["ply"] == 3
        ok(takeback(alice, game_id, "yes"))  # bob is to move: alice's own move goes
        offered = next_state(lines)
        assert (offered["wtakeback"], offered["btakeback"]) == (True, False)
        assert offered["ply"] == 3
        ok(takeback(bob, game_id, "yes"))
        after = next_state(lines)
    assert after["ply"] == 2
    assert after["moves"] == " ".join(MATE[:2])
    assert after["fen"] == at_two["fen"]
    assert after["legalMoves"] == at_two["legalMoves"]
    assert after["turn"] == "white"
    assert (after["wtakeback"], after["btakeback"]) == (False, False)
    # The game goes on from there.
    play(alice, game_id, MATE[2])


def test_accepted_on_the_proposers_turn_it_takes_back_two_moves(fast):
    alice, bob, game_id = board_game(fast)
    with alice.stream(f"/api/board/game/stream/{game_id}") as response:
        lines = Lines(response)
        lines.next("gameFull")
        play(alice, game_id, MATE[0])
        at_one = next_state(lines)
        play(bob, game_id, MATE[1])
        play(alice, game_id, MATE[2])
        ok(takeback(bob, game_id, "yes"))  # bob to move: alice's move and bob's own go
        while not (state := next_state(lines))["btakeback"]:
            pass
        assert state["ply"] == 3
        ok(takeback(alice, game_id, "yes"))  # yes to a standing proposal accepts it
        after = next_state(lines)
    assert after["ply"] == 1
    assert after["moves"] == MATE[0]
    assert after["fen"] == at_one["fen"]
    assert after["turn"] == "black"


def test_a_move_by_the_other_player_leaves_the_proposal_standing(fast):
    """lichess: the proposal stands; accepted later, it takes back the proposer's last move
    and every move after it, so that the proposer is to move."""
    alice, bob, game_id = board_game(fast)
    with alice.stream(f"/api/board/game/stream/{game_id}") as response:
        lines = Lines(response)
        lines.next("gameFull")
        play(alice, game_id, MATE[0])
        at_one = next_state(lines)
        play(bob, game_id, MATE[1])
        ok(takeback(bob, game_id, "yes"))
        play(alice, game_id, MATE[2])  # alice moves instead of answering
        while (state := next_state(lines))["ply"] < 3:
            pass
        assert state["btakeback"] is True
        ok(takeback(alice, game_id, "yes"))
        after = next_state(lines)
    assert (after["ply"], after["fen"], after["turn"]) == (1, at_one["fen"], "black")


def test_the_proposers_own_move_withdraws_the_proposal(fast):
    alice, bob, game_id = board_game(fast)
    play(alice, game_id, MATE[0])
    play(bob, game_id, MATE[1])
    ok(takeback(alice, game_id, "yes"))  # alice proposes on her own turn...
    play(alice, game_id, MATE[2])  # ...then moves: the proposal is gone
    with alice.stream(f"/api/board/game/stream/{game_id}") as response:
        state = Lines(response).next("gameFull")["state"]
    assert (state["wtakeback"], state["btakeback"], state["ply"]) == (False, False, 3)


def test_no_declines_the_opponents_proposal_or_withdraws_ones_own(fast):
    alice, bob, game_id = board_game(fast)
    play(alice, game_id, MATE[0])
    play(bob, game_id, MATE[1])
    with alice.stream(f"/api/board/game/stream/{game_id}") as response:
        lines = Lines(response)
        lines.next("gameFull")
        ok(takeback(alice, game_id, "yes"))
        assert next_state(lines)["wtakeback"] is True
        ok(takeback(alice, game_id, "yes"))  # proposing again changes nothing
        ok(takeback(bob, game_id, "no"))
        declined = next_state(lines)
        assert declined["wtakeback"] is False and declined["ply"] == 2
        ok(takeback(bob, game_id, "true"))  # lichess's clients may say true/false
        assert next_state(lines)["btakeback"] is True
        ok(takeback(bob, game_id, "false"))  # withdrawn
        withdrawn = next_state(lines)
    assert (withdrawn["wtakeback"], withdrawn["btakeback"]) == (False, False)
    assert withdrawn["moves"] == " ".join(MATE[:2])


# ---- refusals ----------------------------------------------------------------------------
def test_takeback_refusals(client):
    alice, bob, game_id = board_game(client)
    carol = Account(client, "carol")
    url = f"/api/board/game/{game_id}/takeback"
    assert_error(alice.post(f"{url}/yes"), 409, "takeback.nothing")  # nobody has moved
    play(alice, game_id, MATE[0])
    assert_error(alice.post(f"{url}/yes"), 409, "takeback.nothing")  # bob has not moved
    assert_error(bob.post(f"{url}/yes"), 409, "takeback.nothing")
    play(bob, game_id, MATE[1])
    assert_error(alice.post(f"{url}/no"), 409, "takeback.no_offer")
    assert_error(alice.post(f"{url}/maybe"), 400, "request.invalid")
    assert_error(carol.post(f"{url}/yes"), 403, "game.not_player")
    assert_error(alice.post("/api/board/game/nothere/takeback/yes"), 404, "game.not_found")
    # lichess's bot API has no takebacks.
    assert alice.post(f"/api/bot/game/{game_id}/takeback/yes").status_code == 404
    ok(alice.post(f"{url}/yes"))
    ok(alice.post(f"/api/board/game/{game_id}/resign"))
    assert_error(bob.post(f"{url}/yes"), 409, "game.over")
    assert_error(bob.post(f"{url}/no"), 409, "game.over")
    with alice.stream(f"/api/board/game/stream/{game_id}") as response:
        final = Lines(response).next("gameFull")["state"]
    assert final["wtakeback"] is False  # a finished game has no standing proposal
    assert final["moves"] == " ".join(MATE[:2])


def test_no_takeback_in_a_rated_game(client):
    alice, bob, game_id = board_game(client)
    play(alice, game_id, MATE[0])
    play(bob, game_id, MATE[1])

    async def rate() -> None:
        async with services_of(client).games.sessions() as session, session.begin():
            await session.execute(update(Game).where(Game.id == game_id).values(rated=True))

    assert client.portal is not None
    client.portal.call(rate)
    assert_error(takeback(alice, game_id, "yes"), 409, "takeback.rated")
    with alice.stream(f"/api/board/game/stream/{game_id}") as response:
        full = Lines(response).next("gameFull")
    assert full["rated"] is True
    assert full["state"]["wtakeback"] is False and full["state"]["ply"] == 2


# ---- the game socket -----------------------------------------------------------------------
def test_the_socket_takeback_message_and_the_clocks(client, clock):
    """The running turn is not charged; nothing else is given back (as lichess)."""
    alice, bob = Player(client, "alice"), Player(client, "bob")
    game_id = started_game(alice, bob, clock={"minutes": 1, "increment": 2})
    with alice.socket(game_id) as a, bob.socket(game_id) as b:
        receive(a, "state")
        receive(b, "state")
        send(a, type="move", move=MATE[0], ply=0)
        move_at(b, 1)
        send(b, type="move", move=MATE[1], ply=1)
        at_two = move_at(a, 2)
        clock.advance(10_000)  # first thinks 10 s: 60 - 10 + 2
        send(a, type="move", move=MATE[2], ply=2)
        assert move_at(b, 3)["clock"]["first"] == 52_000
        clock.advance(7_000)  # second thinks 7 s, then first proposes
        send(a, type="takeback", action="offer")
        offered = receive(b, "state")
        assert offered["game"]["takebackOffer"] == "first"
        assert offered["ply"] == 3
        assert receive(a, "state")["game"]["takebackOffer"] == "first"
        send(b, type="takeback", action="accept")
        after = receive(a, "state")  # the full state: the move list shrank
        assert receive(b, "state")["ply"] == 2
    game = after["game"]
    assert after["ply"] == game["ply"] == 2
    assert game["moves"] == list(MATE[:2])
    assert game["fen"] == at_two["fen"]
    # The positions to replay shrink with the moves (the last one is the fen's board).
    assert len(game["positions"]) == 3
    assert game["positions"][-1] == " ".join(at_two["fen"].split(" ")[:3])
    assert game["takebackOffer"] is None
    assert game["turn"] == "first"
    # Second's 7 s are not charged; first keeps the time it had after its move (52 s).
    assert (game["clock"]["first"], game["clock"]["second"]) == (52_000, 60_000)
    clock.advance(4_000)
    assert client.get(f"/api/game/{game_id}").json()["wtime"] == 48_000  # first's turn runs


def test_socket_takeback_refusals(client):
    alice, bob = Player(client, "alice"), Player(client, "bob")
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as a:
        receive(a, "state")
        send(a, type="takeback")
        assert receive(a, "error")["code"] == "request.invalid"
        send(a, type="takeback", action="undo")
        assert receive(a, "error")["code"] == "request.invalid"
        send(a, type="takeback", action="accept")
        assert receive(a, "error")["code"] == "takeback.no_offer"
        send(a, type="takeback", action="offer")
        assert receive(a, "error")["code"] == "takeback.nothing"


def test_the_socket_refuses_a_takeback_in_a_rated_game(client):
    alice, bob = Player(client, "alice"), Player(client, "bob")
    game_id = started_game(alice, bob)

    async def rate() -> None:
        async with services_of(client).games.sessions() as session, session.begin():
            await session.execute(update(Game).where(Game.id == game_id).values(rated=True))

    with alice.socket(game_id) as a, bob.socket(game_id) as b:
        receive(a, "state")
        send(a, type="move", move=MATE[0], ply=0)
        move_at(b, 1)
        send(b, type="move", move=MATE[1], ply=1)
        move_at(a, 2)
        assert client.portal is not None
        client.portal.call(rate)
        for action in ("offer", "accept"):
            send(a, type="takeback", action=action)
            assert receive(a, "error")["code"] == "takeback.rated"
        send(a, type="resync")
        assert receive(a, "state")["game"]["takebackOffer"] is None


# A wali placement game (found by a seeded random playout) where first cannot place after
# its move *b4: second places twice in a row (*a2, *e1), first passing automatically.
WALI_PASS = [
    "*b3",
    "*a1",
    "*e3",
    "*d4",
    "*d1",
    "*b5",
    "*f1",
    "*a4",
    "*d2",
    "*b1",
    "*c3",
    "*b2",
    "*c5",
    "*f4",
    "*c2",
    "*d3",
    "*e5",
    "*a5",
    "*f3",
    "*f5",
    "*b4",
    "*a2",
    "*e1",
]


def test_an_automatic_pass_is_taken_back_with_the_moves_around_it(client):
    """Counted by movers, not by ply parity: first's last move is three plies back."""
    alice, bob = Player(client, "alice"), Player(client, "bob")
    game_id = started_game(alice, bob, "wali")  # alice is first
    for text in WALI_PASS:
        mover = alice if client.get(f"/api/game/{game_id}").json()["turn"] == "white" else bob
        response = mover.post(f"/api/board/game/{game_id}/move/{text}")
        assert response.status_code == 200, response.text
    with alice.socket(game_id) as a:
        movers = receive(a, "state")["game"]["movers"]
        assert movers[-3:] == ["first", "second", "second"]
        ok(alice.post(f"/api/board/game/{game_id}/takeback/yes"))
        ok(bob.post(f"/api/board/game/{game_id}/takeback/yes"))
        while (state := receive(a, "state"))["ply"] != 20:
            pass
    game = state["game"]
    assert game["moves"] == WALI_PASS[:20]
    assert game["turn"] == "first"
    assert game["movers"] == movers[:20]
    assert "*b4" in game["legalMoves"]
