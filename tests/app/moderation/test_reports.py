"""Reporting a player (docs/api.md, "Reports and moderation"): from a profile, a game or a
chat line, thanked, queued for the moderators; every refusal with its code, and the
reports' own rate limit on the injected clock."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.time import ManualClock
from tests.app.accounts_and_streams import assert_error
from tests.app.conftest import Player, receive, send, started_game
from tests.app.moderation.members import CHATTY, Member, name_moderator, queue, report

# What this module tests is the same on either database (tests/app/conftest.py).
pytestmark = pytest.mark.sqlite_only


@pytest.fixture
def web(make_client: Any) -> TestClient:
    client: TestClient = make_client(**CHATTY)
    return client


def chat_line(writer: Player, game_id: str, room: str, text: str) -> int:
    """The id of a line ``writer`` writes on the game's socket."""
    with writer.socket(game_id) as ws:
        receive(ws, "chatLines")
        send(ws, type="chat", room=room, text=text)
        line_id: int = receive(ws, "chat")["id"]
    return line_id


def test_an_account_reports_a_player_from_their_profile_and_the_moderators_see_it(web):
    alice, bob, mod = Member(web, "alice"), Member(web, "bob"), Member(web, "mod")
    name_moderator(web, mod)
    response = report(alice, "BOB", "cheat", text="  engine moves all game  ")
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["ok"] is True and "Thank you" in answer["message"]
    [queued] = queue(mod)
    assert queued["id"] == answer["id"]
    assert (queued["reporter"], queued["username"], queued["userId"]) == ("alice", "bob", bob.id)
    assert (queued["reason"], queued["text"]) == ("cheat", "engine moves all game")
    assert queued["gameId"] is None and queued["chatLineId"] is None
    assert queued["openAboutPlayer"] == 1 and queued["closedAt"] is None


def test_a_report_from_a_chat_line_names_its_game_and_the_moderators_read_the_line(web):
    alice, bob, mod = Member(web, "alice"), Member(web, "bob"), Member(web, "mod")
    name_moderator(web, mod)
    game_id = started_game(alice, bob)
    line_id = chat_line(bob, game_id, "player", "you are terrible")
    response = report(alice, "bob", chatLineId=line_id, text="insults")
    assert response.status_code == 200, response.text
    [queued] = queue(mod)
    assert (queued["gameId"], queued["chatLineId"]) == (game_id, line_id)
    assert queued["lineText"] == "you are terrible"


def test_a_report_from_a_game_names_it(web):
    alice, bob = Member(web, "alice"), Member(web, "bob")
    game_id = started_game(alice, bob)
    assert report(alice, "bob", "sandbag", gameId=game_id).status_code == 200
    assert_error(report(alice, "bob", "sandbag", gameId="nosuchgame"), 404, "game.not_found")


def test_guests_cannot_report(web):
    Member(web, "bob")
    guest = Player(web, "guest")
    assert_error(report(guest, "bob"), 401, "account.required")


def test_nobody_reports_themself_or_a_player_who_does_not_exist(web):
    alice = Member(web, "alice")
    assert_error(report(alice, "Alice"), 400, "report.self")
    assert_error(report(alice, "nobody"), 404, "user.not_found")
    assert_error(report(alice, "x" * 30), 404, "user.not_found")


def test_a_report_has_a_known_reason_and_a_short_text(web):
    alice = Member(web, "alice")
    Member(web, "bob")
    assert_error(report(alice, "bob", "rude"), 400, "report.invalid")
    assert_error(report(alice, "bob", text="x" * 501), 400, "report.invalid")
    assert_error(alice.post("/api/report", {"username": "bob"}), 400, "request.invalid")
    assert report(alice, "bob", "other", text="x" * 500).status_code == 200


def test_a_reported_line_must_be_the_players_and_one_the_reporter_could_read(web):
    alice, bob, carol = Member(web, "alice"), Member(web, "bob"), Member(web, "carol")
    game_id = started_game(alice, bob)
    players_line = chat_line(bob, game_id, "player", "between us")
    spectators_line = chat_line(carol, game_id, "spectator", "hello all")
    # carol watches: the players' room is not hers to read, nor to report
    assert_error(report(carol, "bob", chatLineId=players_line), 404, "chat.line_not_found")
    assert_error(report(alice, "bob", chatLineId=spectators_line), 400, "report.invalid")
    assert_error(report(alice, "bob", chatLineId=10**9), 404, "chat.line_not_found")
    other = started_game(Member(web, "dave"), Member(web, "erin"))
    assert_error(
        report(alice, "carol", chatLineId=spectators_line, gameId=other), 400, "report.invalid"
    )
    assert report(bob, "carol", chatLineId=spectators_line).status_code == 200


def test_an_account_sends_a_few_reports_an_hour(web, clock: ManualClock):
    alice = Member(web, "alice")
    Member(web, "bob")
    for _ in range(5):
        assert report(alice, "bob").status_code == 200
    refused = assert_error(report(alice, "bob"), 429, "report.too_many")
    assert refused["ratelimit"] == {"key": "report", "seconds": 720}
    # others still report; alice again once a report's time has passed
    assert report(Member(web, "carol"), "bob").status_code == 200
    # Only the limiter reads the time here: moved on at once, not second by second through
    # twelve minutes of the app's periodic work (each second's run of it costs the test).
    clock.jump(720_000)
    assert report(alice, "bob").status_code == 200
    assert_error(report(alice, "bob"), 429, "report.too_many")
