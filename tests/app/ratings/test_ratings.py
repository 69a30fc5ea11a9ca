"""Ratings change exactly once per rated game, from its GameEnded outbox row
(app/ratings/service.py), against the real databases: the right games, the right numbers."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.errors import ServiceError
from app.games import Identity
from app.games.terms import GameTerms
from app.ratings import glicko2
from app.ratings.service import DAY_MS, as_of, changes_of_game, perfs
from tests.app.accounts_and_streams import MATE, Account, services_of
from tests.app.conftest import Player

WIN_OF_NEW = 1741.6  # two new accounts, the first game won (lichess: 1500 -> 1742)


def started(client: TestClient, first: Any, second: Any, *, rated: bool = True) -> str:
    services = services_of(client)
    one, two = Identity(first.id, "one"), Identity(second.id, "two")
    game = client.portal.call(  # type: ignore[union-attr]
        lambda: services.games.setup.create_started(
            secrets.token_urlsafe(6),
            one,
            two,
            one,
            GameTerms("dobutsu", rated=rated),
        )
    )
    return str(game.id)


def play(client: TestClient, game_id: str, first: Any, second: Any, moves: tuple[str, ...]) -> None:
    services = services_of(client)
    players = (Identity(first.id, "one"), Identity(second.id, "two"))
    for n, move in enumerate(moves):
        client.portal.call(services.games.play.move, players[n % 2], game_id, move)  # type: ignore[union-attr]


def ratings(client: TestClient, player_id: str) -> dict[str, Any]:
    services = services_of(client)
    return dict(client.portal.call(perfs, services.games.sessions, player_id, services.games.now()))  # type: ignore[union-attr]


@pytest.fixture
def pair(client: TestClient) -> tuple[Account, Account]:
    return Account(client, "alice"), Account(client, "bob")


def test_a_rated_game_between_two_new_accounts_moves_both_by_242(client, pair) -> None:
    alice, bob = pair
    game_id = started(client, alice, bob)
    play(client, game_id, alice, bob, MATE)
    won, lost = ratings(client, alice.id)["dobutsu"], ratings(client, bob.id)["dobutsu"]
    assert won.rating.rating == pytest.approx(WIN_OF_NEW, abs=0.1)
    assert lost.rating.rating == pytest.approx(3000 - WIN_OF_NEW, abs=0.1)
    assert won.games == lost.games == 1
    assert won.rating.provisional
    changes = client.portal.call(changes_of_game, services_of(client).games.sessions, game_id)
    assert round(changes[alice.id].after - changes[alice.id].before) == 242
    assert round(changes[bob.id].after - changes[bob.id].before) == -242


def test_a_second_game_starts_from_the_first_ones_result(client, pair) -> None:
    alice, bob = pair
    play(client, started(client, alice, bob), alice, bob, MATE)
    # Colours swapped: bob (first) mates alice this time.
    second = started(client, bob, alice)
    play(client, second, bob, alice, MATE)
    after_one = glicko2.game(glicko2.Rating(), glicko2.Rating(), glicko2.WIN)
    expected_bob, expected_alice = glicko2.game(after_one[1], after_one[0], glicko2.WIN)
    assert ratings(client, bob.id)["dobutsu"].rating.rating == pytest.approx(expected_bob.rating)
    assert ratings(client, alice.id)["dobutsu"].rating.rating == pytest.approx(
        expected_alice.rating
    )
    assert ratings(client, alice.id)["dobutsu"].games == 2


def test_a_casual_game_changes_no_rating(client, pair) -> None:
    alice, bob = pair
    play(client, started(client, alice, bob, rated=False), alice, bob, MATE)
    assert ratings(client, alice.id) == {} and ratings(client, bob.id) == {}


def test_a_game_resigned_before_both_moved_changes_nothing(client, pair) -> None:
    alice, bob = pair
    game_id = started(client, alice, bob)
    play(client, game_id, alice, bob, MATE[:1])
    services = services_of(client)
    client.portal.call(services.games.play.resign, Identity(bob.id, "bob"), game_id)
    assert ratings(client, alice.id) == {} and ratings(client, bob.id) == {}


def test_an_aborted_game_changes_nothing(client, pair) -> None:
    alice, bob = pair
    game_id = started(client, alice, bob)
    services = services_of(client)
    client.portal.call(services.games.play.abort, Identity(alice.id, "alice"), game_id)
    assert ratings(client, alice.id) == {}


def test_only_games_between_two_accounts_are_rated(client) -> None:
    alice, visitor = Account(client, "alice"), Player(client, "visitor")
    anonymous = type("Anon", (), {"id": visitor.who.id})()
    services = services_of(client)
    client.portal.call(services.games.setup.ensure_player, Identity(visitor.who.id, "visitor"))
    with pytest.raises(ServiceError) as refused:
        started(client, alice, anonymous)
    assert refused.value.code == "game.rated_needs_account"
    play(client, started(client, alice, anonymous, rated=False), alice, anonymous, MATE)
    assert ratings(client, alice.id) == {}


def test_idle_days_widen_the_deviation_when_the_rating_is_read() -> None:
    class Row:
        rating, deviation, volatility, games, rated_ms = 1600.0, 60.0, 0.06, 12, 0

    now = as_of(Row(), 10 * DAY_MS + DAY_MS - 1)  # type: ignore[arg-type]
    assert now.rating == glicko2.idle(glicko2.Rating(1600, 60, 0.06), 10)
    assert as_of(Row(), DAY_MS - 1).rating == glicko2.Rating(1600, 60, 0.06)  # type: ignore[arg-type]
