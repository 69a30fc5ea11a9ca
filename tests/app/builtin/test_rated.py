"""A built-in opponent is an account: an account's rated challenge to it makes a rated game,
and both ratings change when it ends (the bots' process accepts rated challenges:
tests/bots/test_builtin.py; here the test accepts with the bot's token)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.ratings import glicko2
from tests.app.accounts_and_streams import MATE, Account, services_of
from tests.app.builtin.test_leavers import NoProcess
from tests.app.conftest import receive

WON, LOST = glicko2.game(glicko2.Rating(), glicko2.Rating(), glicko2.WIN)


def test_an_account_plays_a_builtin_opponent_rated(client: TestClient, clock) -> None:
    author = Account(client, "author")
    bots = NoProcess(services_of(client).accounts, "http://unused", clock, levels=["medium"])
    assert client.portal is not None
    tokens = client.portal.call(bots.ensure_accounts)
    bot = {"authorization": f"Bearer {tokens['kodama-medium']}"}
    created = author.post(
        "/api/challenge/kodama-medium", {"variant": "dobutsu", "rated": True, "color": "white"}
    )
    assert created.status_code == 200, created.text
    assert created.json()["rated"] is True
    game_id = created.json()["id"]
    client.cookies.clear()
    assert client.post(f"/api/challenge/{game_id}/accept", headers=bot).status_code == 200
    assert client.get(f"/api/games/{game_id}").json()["game"]["rated"] is True

    client.cookies.clear()
    with client.websocket_connect(f"/ws/game/{game_id}") as spectator:
        receive(spectator, "state")
        for n, move in enumerate(MATE):  # the author (white) mates
            if n % 2 == 0:
                answer = author.post(f"/api/board/game/{game_id}/move/{move}")
            else:
                client.cookies.clear()
                answer = client.post(f"/api/bot/game/{game_id}/move/{move}", headers=bot)
            assert answer.status_code == 200, answer.text
        told = receive(spectator, "ratings", limit=40)["ratings"]
    assert told["first"]["before"] == 1500 and told["first"]["after"] == round(WON.rating)
    assert told["second"]["before"] == 1500 and told["second"]["after"] == round(LOST.rating)
    perfs = client.get("/api/user/kodama-medium").json()["perfs"]["dobutsu"]
    assert perfs["rating"] == round(LOST.rating) and perfs["games"] == 1
    perfs = client.get("/api/user/author").json()["perfs"]["dobutsu"]
    assert perfs["rating"] == round(WON.rating) and perfs["games"] == 1
