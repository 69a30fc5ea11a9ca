"""Takebacks with berserk (lichess's Python client, unmodified) against a real server: its
``board.offer_takeback`` / ``accept_takeback`` / ``decline_takeback`` and its game stream."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import berserk
import httpx
import pytest

from tests.app.accounts_and_streams import MATE
from tests.server import Server, running


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with running(
        tmp_path, "takeback-test-GPir7whS4nWziRAmEEX8qzmm8WaCXGOU", KODAMA_KEEPALIVE_SECONDS="0.2"
    ) as srv:
        yield srv


def board_client(server: Server, username: str) -> tuple[berserk.Client, str]:
    """An account and a board token made over HTTP, then berserk as a bot author uses it
    (and the token)."""
    password = "a long enough password"
    with httpx.Client(base_url=server.base, timeout=10) as anonymous:
        anonymous.post(
            "/api/account/register", json={"username": username, "password": password}
        ).raise_for_status()
        made = anonymous.post(
            "/api/token",
            data={
                "username": username,
                "password": password,
                "scopes": "board:play,challenge:read,challenge:write",
            },
        )
        made.raise_for_status()
    token = str(made.json()["token"])
    return berserk.Client(session=berserk.TokenSession(token), base_url=server.base), token


def states(stream: Iterator[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The gameState lines of a berserk game stream (the first line's state included)."""
    for event in stream:
        if event["type"] == "gameFull":
            yield event["state"]
        elif event["type"] == "gameState":
            yield event


def test_berserk_offers_accepts_and_declines_takebacks(server: Server):
    (alice, alice_token), (bob, _) = board_client(server, "Alice"), board_client(server, "Bob")
    # The challenge through our own API: berserk's challenge calls are in test_berserk.py.
    with httpx.Client(base_url=server.base, timeout=10) as http:
        created = http.post(
            "/api/challenge/bob",
            data={"variant": "dobutsu", "color": "white"},
            headers={"Authorization": f"Bearer {alice_token}"},
        )
        created.raise_for_status()
    game_id = created.json()["id"]
    bob.challenges.accept(game_id)

    seen = states(bob.board.stream_game_state(game_id))
    first = next(seen)
    assert (first["wtakeback"], first["btakeback"], first["ply"]) == (False, False, 0)
    alice.board.make_move(game_id, MATE[0])
    bob.board.make_move(game_id, MATE[1])
    alice.board.make_move(game_id, MATE[2])
    while (state := next(seen))["ply"] < 3:
        at_two = state
    assert at_two["ply"] == 2

    alice.board.offer_takeback(game_id)
    assert next(seen)["wtakeback"] is True
    bob.board.decline_takeback(game_id)
    declined = next(seen)
    assert (declined["wtakeback"], declined["ply"]) == (False, 3)

    alice.board.offer_takeback(game_id)
    assert next(seen)["wtakeback"] is True
    bob.board.accept_takeback(game_id)
    after = next(seen)
    assert after["ply"] == 2
    assert after["moves"] == " ".join(MATE[:2])
    assert after["fen"] == at_two["fen"]
    assert (after["wtakeback"], after["btakeback"]) == (False, False)

    # berserk's accept and offer are the same request (yes): with nothing to accept, bob
    # proposes; alice's decline (no) declines it.
    bob.board.accept_takeback(game_id)
    assert next(seen)["btakeback"] is True
    alice.board.decline_takeback(game_id)
    assert next(seen)["btakeback"] is False
    # A refusal reaches berserk as lichess's would: an error response, with our code.
    with pytest.raises(berserk.exceptions.ResponseError) as refused:
        alice.board.decline_takeback(game_id)
    assert refused.value.status_code == 409
    assert refused.value.cause["code"] == "takeback.no_offer"
