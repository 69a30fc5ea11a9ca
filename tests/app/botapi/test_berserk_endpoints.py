"""berserk (the lichess Python client, unmodified) against a real server: every berserk method
of docs/api.md's "Client compatibility (endpoints)" table, with its result."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import berserk
import pytest
import requests

from app.games import record
from tests.app.accounts_and_streams import MATE
from tests.server import Server, account_token, running

SCOPES = "bot:play,board:play,challenge:read,challenge:write"


@pytest.fixture(params=["sqlite", "postgres"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    url = request.getfixturevalue("postgres_url") if request.param == "postgres" else None
    with running(
        tmp_path,
        "berserk-endpoints-aJqIvsmUfgX8qu0KjlVcgiO1b1ZkghcG",
        url,
        KODAMA_KEEPALIVE_SECONDS="0.2",
    ) as srv:
        yield srv


def token_of(server: Server, username: str) -> str:
    return account_token(server, username, SCOPES)


def client_of(server: Server, token: str) -> Any:
    """berserk's client, as a bot author makes one. Typed loosely: berserk's own types say
    "str or dict" for every export, as its format is chosen at run time."""
    return berserk.Client(session=berserk.TokenSession(token), base_url=server.base)


def test_berserk_reads_accounts_users_and_exports(server: Server) -> None:
    alice_token, robot_token = token_of(server, "alice"), token_of(server, "robot")
    alice, robot = client_of(server, alice_token), client_of(server, robot_token)
    robot.account.upgrade_to_bot()

    # account.get, account.get_preferences, oauth.test_tokens
    me = alice.account.get()
    assert me["username"] == "alice" and isinstance(me["createdAt"], datetime.datetime)
    assert alice.account.get_preferences() == {"prefs": {"challenge": 5}, "language": "en-US"}
    tested = alice.oauth.test_tokens(alice_token, "kdm_unknown")
    assert tested[alice_token]["userId"] == me["id"] and tested["kdm_unknown"] is None
    assert "board:play" in tested[alice_token]["scopes"].split(",")

    # A finished game and one on, between alice (white) and the bot. The challenges are
    # made with a plain JSON post here: berserk's own challenge bodies are in test_berserk.py.
    def game(color: str) -> str:
        made = requests.post(
            f"{server.base}/api/challenge/robot",
            json={"variant": "dobutsu", "color": color, "clock": {"limit": 300, "increment": 3}},
            headers={"Authorization": f"Bearer {alice_token}"},
            timeout=10,
        )
        made.raise_for_status()
        game_id: str = made.json()["id"]
        robot.bots.accept_challenge(game_id)
        return game_id

    done = game("white")
    for ply, move in enumerate(MATE):
        if ply % 2 == 0:
            alice.board.make_move(done, move)
        else:
            robot.bots.make_move(done, move)
    on = game("black")

    # games.get_ongoing
    ongoing = alice.games.get_ongoing(count=5)
    assert [g["gameId"] for g in ongoing] == [on]
    assert ongoing[0]["color"] == "black" and ongoing[0]["opponent"]["username"] == "robot"

    # users.get_public_data, users.get_by_id, users.get_realtime_statuses
    public = alice.users.get_public_data("ROBOT")
    assert public["username"] == "robot" and public["title"] == "BOT"
    assert isinstance(public["createdAt"], datetime.datetime)
    assert public["count"]["loss"] == 1 and public["count"]["playing"] == 1
    assert [u["username"] for u in alice.users.get_by_id("robot", "nobody", "alice")] == [
        "robot",
        "alice",
    ]
    statuses = alice.users.get_realtime_statuses(me["id"], with_game_ids=True)
    assert statuses == [{"id": me["id"], "name": "alice", "playing": True, "playingId": on}]

    # games.export, as JSON and as the text record
    exported = alice.games.export(done)
    assert exported["id"] == done and exported["status"] == "mate"
    assert exported["winner"] == "white" and exported["moves"] == " ".join(MATE)
    assert isinstance(exported["lastMoveAt"], datetime.datetime)
    assert exported["clock"] == {"initial": 300, "increment": 3, "totalTime": 420}
    text = alice.games.export(done, as_pgn=True)
    assert record.parse(text).moves == list(MATE)
    assert record.parse(alice.games.export(done, as_pgn=True, moves=False)).moves == []

    # games.export_by_player: NDJSON and text, with lichess's filters
    mine = list(alice.games.export_by_player("alice", ongoing=True, finished=True))
    assert [g["id"] for g in mine] == [on, done]
    assert [g["id"] for g in alice.games.export_by_player("alice", color="white")] == [done]
    assert list(alice.games.export_by_player("alice", rated=True)) == []
    assert [g["id"] for g in alice.games.export_by_player("alice", perf_type="dobutsu")] == [done]
    records = list(alice.games.export_by_player("alice", as_pgn=True, ongoing=True))
    assert [record.parse(r).tags["GameId"] for r in records] == [on, done]

    # games.export_multi, games.export_ongoing_by_player
    assert [g["id"] for g in alice.games.export_multi(done, on)] == [done, on]
    texts = list(alice.games.export_multi(on, done, as_pgn=True))
    assert [record.parse(t).tags["GameId"] for t in texts] == [on, done]
    (current,) = list(alice.games.export_ongoing_by_player("alice"))
    assert current["id"] == on and current["status"] == "started"
    (current_text,) = list(alice.games.export_ongoing_by_player("alice", as_pgn=True))
    assert record.parse(current_text).tags["GameId"] == on

    # Refusals reach berserk as its ResponseError with our status and code.
    with pytest.raises(berserk.exceptions.ResponseError) as refused:
        alice.users.get_public_data("nobody")
    assert refused.value.status_code == 404
    with pytest.raises(berserk.exceptions.ResponseError) as refused:
        alice.games.export("nothere")
    assert refused.value.status_code == 404
