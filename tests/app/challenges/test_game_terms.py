"""A challenge's terms reach its game unchanged: the ``GameTerms`` the challenge was made
with is the one ``create_started`` receives, and the started game is played by it, its
proposer seated by the colour they asked."""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from fastapi.testclient import TestClient

import engine
from app.challenges.terms import Terms
from app.db.models import Challenge
from app.games.terms import GameTerms
from app.games.timecontrol import TimeControl
from tests.app.accounts_and_streams import Account, challenge, services_of

POSITION = "gle/1c1/LC1/E1G f -"  # dobutsu: the first player's chick has taken the other's


def _canonical(variant: str, rules: dict[str, str], text: str) -> str:
    game = engine.get_game(variant, **rules)
    return str(game.to_text(game.from_text(text)))


CASES = [
    (  # a Fischer clock, rated, every rule option not the default
        {
            "variant": "jungle",
            "rules": {"traps": "opponent", "repetition": "tiebreak"},
            "clock": {"limit": 300, "increment": 5},
            "rated": True,
            "color": "white",
        },
        GameTerms(
            "jungle",
            {"traps": "opponent", "repetition": "tiebreak"},
            TimeControl(300_000, 5_000),
            rated=True,
        ),
    ),
    (  # byo-yomi, from a position, the rule option given
        {
            "variant": "dobutsu",
            "rules": {"ruleset": "yokai"},
            "clock": {"limit": 60, "increment": 0, "byoyomi": 10, "periods": 3},
            "color": "black",
            "fen": POSITION,
        },
        GameTerms(
            "dobutsu",
            {"ruleset": "yokai"},
            TimeControl(60_000, 0, 10_000, 3),
            initial_fen=_canonical("dobutsu", {"ruleset": "yokai"}, POSITION),
        ),
    ),
    (  # correspondence, rated, the rule options left to their defaults
        {"variant": "jungle", "days": 3, "rated": True, "color": "random"},
        GameTerms(
            "jungle", {"traps": "any", "repetition": "draw"}, TimeControl(days=3), rated=True
        ),
    ),
]


@pytest.mark.parametrize(("body", "expected"), CASES, ids=["fischer", "byoyomi", "days"])
def test_a_challenges_terms_reach_its_game_unchanged(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, body: dict[str, Any], expected: GameTerms
):
    alice, bob = Account(client, "alice"), Account(client, "bob")
    services = services_of(client)
    setup = services.games.setup
    real = setup.create_started
    received: list[GameTerms] = []

    async def spy(*args: Any, **kwargs: Any) -> Any:
        received.append(inspect.signature(real).bind(*args, **kwargs).arguments["terms"])
        return await real(*args, **kwargs)

    monkeypatch.setattr(setup, "create_started", spy)
    created = challenge(alice, "bob", **body)
    accepted = bob.post(f"/api/challenge/{created['id']}/accept")
    assert accepted.status_code == 200, accepted.text

    portal = client.portal
    assert portal is not None
    stored = portal.call(_challenge, services, created["id"])
    assert received == [expected] == [Terms.of(stored).game]
    game = portal.call(services.games.reads.get, created["id"])
    assert GameTerms.of_game(game) == expected
    # The colour: the challenger sits where they asked (random: where it fell, as told).
    color = body["color"] if body["color"] != "random" else stored.final_color
    assert color in ("white", "black")
    assert (game.first_id, game.second_id) == (
        (alice.id, bob.id) if color == "white" else (bob.id, alice.id)
    )


async def _challenge(services: Any, challenge_id: str) -> Challenge:
    async with services.challenges.sessions() as session:
        found: Challenge | None = await session.get(Challenge, challenge_id)
    assert found is not None
    return found
