"""The moderators' side (docs/api.md, "Reports and moderation"): the queue and a report's
context, each action's effect (dismiss, warn, mute for a time, chat to themselves only,
hide a line, close the account), the audit log, and every refusal to anyone else."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.core.time import ManualClock
from tests.app.accounts_and_streams import assert_error
from tests.app.conftest import Player, receive, send, started_game
from tests.app.games.test_ws_protocol import exchange, only_error
from tests.app.moderation.members import CHATTY, Member, name_moderator, queue, report


@pytest.fixture
def web(make_client: Any) -> TestClient:
    # (no game here ends for want of a first move while the clock is moved on)
    client: TestClient = make_client(**CHATTY, first_move_seconds=10**6)
    return client


@pytest.fixture
def people(web: TestClient) -> tuple[Member, Member, Member]:
    """alice and bob, and the moderator mod."""
    return Member(web, "alice"), Member(web, "bob"), name_moderator(web, Member(web, "mod"))


def say(ws: Any, text: str, room: str = "player") -> list[dict[str, Any]]:
    return exchange(ws, type="chat", room=room, text=text)


def said(ws: Any, text: str, room: str = "player") -> int:
    """The id of the line written, as it comes back (after the lines others wrote
    meanwhile); a refusal fails the test."""
    send(ws, type="chat", room=room, text=text)
    for _ in range(20):
        message = ws.receive_json()
        assert message["type"] != "error", message
        if message["type"] == "chat" and message["text"] == text:
            line_id: int = message["id"]
            return line_id
    raise AssertionError(f"{text!r} did not come back")


def ok(response: Any) -> Any:
    assert response.status_code == 200, response.text
    return response.json()


def act(mod: Player, path: str, reason: str = "house rules", **body: Any) -> Any:
    return mod.post(f"/api/mod/{path}", {"reason": reason, **body})


def log(mod: Player, username: str | None = None) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = ok(
        mod.get("/api/mod/log" + (f"?username={username}" if username else ""))
    )["entries"]
    return entries


# ---- who may --------------------------------------------------------------------------------
ROUTES = [
    ("get", "/api/mod/reports"),
    ("get", "/api/mod/reports/1"),
    ("post", "/api/mod/reports/1/dismiss"),
    ("post", "/api/mod/users/alice/warn"),
    ("post", "/api/mod/users/alice/mute"),
    ("post", "/api/mod/users/alice/restrict"),
    ("post", "/api/mod/users/alice/close"),
    ("post", "/api/mod/chat/1/hide"),
    ("get", "/api/mod/log"),
]


def test_the_moderators_pages_and_actions_are_refused_to_everyone_else(web, people):
    alice, _bob, mod = people
    guest = Player(web, "guest")
    body = {"reason": "x", "minutes": 5, "on": True}
    for method, path in ROUTES:
        for who, status, code in ((guest, 401, "account.required"), (alice, 403, "mod.required")):
            answer = who.get(path) if method == "get" else who.post(path, body)
            assert_error(answer, status, code)
    # and by API token, too: a token of an account that moderates nothing
    assert_error(alice.account.get("/api/mod/reports"), 403, "mod.required")
    assert ok(mod.account.get("/api/mod/reports")) == {"reports": []}
    assert guest.get("/mod").status_code == 401
    assert alice.get("/mod").status_code == 403
    page = mod.get("/mod")
    assert page.status_code == 200 and "mod.js" in page.text


# ---- reading a report -----------------------------------------------------------------------
def test_a_report_shows_the_line_among_the_lines_around_it_and_the_players_recent_games(
    web, people
):
    alice, bob, mod = people
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as a, bob.socket(game_id) as b:
        for ws in (a, b):
            receive(ws, "chatLines")
        ids = [said(a if i % 2 else b, f"line {i}") for i in range(8)]
    reported = ids[6]  # bob's
    report_id = ok(report(alice, "bob", chatLineId=reported, text="rude"))["id"]
    details = ok(mod.get(f"/api/mod/reports/{report_id}"))
    assert details["username"] == "bob" and details["reporter"] == "alice"
    assert [line["id"] for line in details["around"]] == ids[1:8]  # five before, one after
    assert [line["text"] for line in details["around"]][5] == "line 6"
    assert [g["id"] for g in details["recentGames"]] == [game_id]
    assert details["recentGames"][0]["first"] == "alice"
    assert [line["text"] for line in details["recentLines"]] == [
        "line 6",
        "line 4",
        "line 2",
        "line 0",
    ]
    assert details["standing"] == {
        "mutedUntil": None,
        "chatToThemselves": False,
        "moderator": False,
    }
    assert details["log"] == []
    assert_error(mod.get("/api/mod/reports/999"), 404, "report.not_found")


# ---- acting ---------------------------------------------------------------------------------
def test_dismissing_closes_the_report_once_and_is_logged_with_its_reason(web, people):
    alice, bob, mod = people
    report_id = ok(report(alice, "bob"))["id"]
    assert_error(act(mod, f"reports/{report_id}/dismiss", reason="  "), 400, "mod.reason")
    assert_error(act(mod, f"reports/{report_id}/dismiss", reason="x" * 501), 400, "mod.reason")
    assert_error(mod.post(f"/api/mod/reports/{report_id}/dismiss", {}), 400, "request.invalid")
    assert ok(act(mod, f"reports/{report_id}/dismiss", reason="nothing wrong")) == {"ok": True}
    assert queue(mod) == []
    assert_error(act(mod, f"reports/{report_id}/dismiss"), 409, "report.closed")
    assert_error(act(mod, "reports/999/dismiss"), 404, "report.not_found")
    details = ok(mod.get(f"/api/mod/reports/{report_id}"))
    assert details["outcome"] == "dismiss" and details["closedAt"] is not None
    [entry] = log(mod)
    assert (entry["moderator"], entry["action"], entry["username"]) == ("mod", "dismiss", "bob")
    assert log(mod, "BOB") == [entry] and log(mod, "alice") == []
    assert_error(mod.get("/api/mod/log?username=nobody"), 404, "user.not_found")
    assert (entry["userId"], entry["reason"], entry["reportId"]) == (
        bob.id,
        "nothing wrong",
        report_id,
    )


def test_a_warned_player_sees_the_warning_until_they_acknowledge_it(web, people):
    alice, bob, mod = people
    report_id = ok(report(alice, "bob"))["id"]
    assert_error(act(mod, "users/nobody/warn"), 404, "user.not_found")
    assert ok(act(mod, "users/bob/warn", reason="Be kind in the chat.", reportId=report_id))
    [warning] = ok(bob.get("/api/account/warnings"))["warnings"]
    assert warning["text"] == "Be kind in the chat."
    assert ok(alice.get("/api/account/warnings")) == {"warnings": []}
    assert ok(Player(web, "guest").get("/api/account/warnings")) == {"warnings": []}
    assert_error(
        alice.post(f"/api/account/warnings/{warning['id']}/seen"), 404, "warning.not_found"
    )
    assert_error(
        Player(web, "guest").post(f"/api/account/warnings/{warning['id']}/seen"),
        401,
        "account.required",
    )
    assert ok(bob.post(f"/api/account/warnings/{warning['id']}/seen")) == {"ok": True}
    assert ok(bob.get("/api/account/warnings")) == {"warnings": []}
    assert ok(bob.post(f"/api/account/warnings/{warning['id']}/seen")) == {"ok": True}
    # the action answered the report: it is closed, as warned
    assert queue(mod) == []
    assert ok(mod.get(f"/api/mod/reports/{report_id}"))["outcome"] == "warn"
    assert [e["action"] for e in log(mod, "bob")] == ["warn"]


def test_an_action_answers_only_a_report_about_the_same_player(web, people):
    alice, _bob, mod = people
    report_id = ok(report(alice, "bob"))["id"]
    assert_error(act(mod, "users/alice/warn", reportId=report_id), 400, "report.invalid")
    assert_error(act(mod, "users/alice/warn", reportId=999), 404, "report.not_found")
    assert len(queue(mod)) == 1
    assert ok(alice.get("/api/account/warnings")) == {"warnings": []}  # nothing was done


def test_a_muted_player_s_lines_are_refused_until_the_mute_ends(web, people, clock: ManualClock):
    alice, bob, mod = people
    game_id = started_game(alice, bob)
    assert_error(act(mod, "users/bob/mute", minutes=-1), 400, "request.invalid")
    # A minute's mute: each second the clock is moved on runs the app's periodic work.
    muted = ok(act(mod, "users/bob/mute", minutes=1))
    assert muted["until"] == clock.now_ms() + 60_000
    with bob.socket(game_id) as b:
        receive(b, "chatLines")
        error = only_error(say(b, "let me talk"), "chat.muted")
        assert error["until"] == muted["until"]
        clock.advance(60_000)
        said(b, "back again")
        ok(act(mod, "users/bob/mute", minutes=60))
        only_error(say(b, "and again"), "chat.muted")
        assert ok(act(mod, "users/bob/mute", minutes=0))["until"] is None
        said(b, "unmuted")
    # the bot/board API's chat refuses it too
    ok(act(mod, "users/bob/mute", minutes=5))
    answer = bob.account.post(f"/api/board/game/{game_id}/chat", {"room": "player", "text": "hi"})
    assert_error(answer, 403, "chat.muted")
    assert [e["action"] for e in log(mod, "bob")] == ["mute", "unmute", "mute", "mute"]
    assert log(mod, "bob")[0]["until"] == clock.now_ms() + 300_000


def test_a_player_whose_chat_is_theirs_only_sees_their_lines_and_nobody_else_does(web, people):
    alice, bob, mod = people
    carol = Member(web, "carol")
    game_id = started_game(alice, bob)
    ok(act(mod, "users/bob/restrict", on=True))
    with alice.socket(game_id) as a, bob.socket(game_id) as b, carol.socket(game_id) as c:
        for ws in (a, b, c):
            receive(ws, "chatLines")
        said(b, "only I see this", "spectator")
        # alice's line comes to everyone, bob's to nobody else: the next line they get
        send(a, type="chat", room="spectator", text="hello")
        assert receive(a, "chat")["text"] == "hello"
        assert receive(c, "chat")["text"] == "hello"
        assert receive(b, "chat")["text"] == "hello"
    with alice.socket(game_id) as a, bob.socket(game_id) as b:
        assert [x["text"] for x in receive(a, "chatLines")["lines"]] == ["hello"]
        assert [x["text"] for x in receive(b, "chatLines")["lines"]] == ["only I see this", "hello"]
    read = ok(alice.account.get(f"/api/board/game/{game_id}/chat"))
    assert [x["text"] for x in read] == ["hello"]
    # lifted: bob's next lines reach everyone (the earlier one stays his)
    ok(act(mod, "users/bob/restrict", on=False))
    with alice.socket(game_id) as a, bob.socket(game_id) as b:
        receive(a, "chatLines")
        receive(b, "chatLines")
        said(b, "now you hear me", "spectator")
        assert receive(a, "chat")["text"] == "now you hear me"
    assert [e["action"] for e in log(mod, "bob")] == ["untroll", "troll"]


def test_a_hidden_line_is_removed_from_the_pages_and_from_the_kept_chat(web, people):
    alice, bob, mod = people
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as a, bob.socket(game_id) as b:
        receive(a, "chatLines")
        receive(b, "chatLines")
        line_id = said(b, "something vile")
        assert receive(a, "chat")["id"] == line_id
        said(a, "what?")
        report_id = ok(report(alice, "bob", chatLineId=line_id))["id"]
        assert ok(act(mod, f"chat/{line_id}/hide", reportId=report_id)) == {"ok": True}
        assert receive(a, "chatHidden")["id"] == line_id
        assert receive(b, "chatHidden")["id"] == line_id
    with alice.socket(game_id) as a:
        assert [x["text"] for x in receive(a, "chatLines")["lines"]] == ["what?"]
    assert [x["text"] for x in ok(bob.account.get(f"/api/board/game/{game_id}/chat"))] == ["what?"]
    # the moderators still read it, marked
    details = ok(mod.get(f"/api/mod/reports/{report_id}"))
    assert [(x["text"], x["hidden"]) for x in details["around"]] == [
        ("something vile", True),
        ("what?", False),
    ]
    assert details["outcome"] == "hide"
    assert_error(act(mod, "chat/999999/hide"), 404, "chat.line_not_found")
    [entry] = log(mod)
    assert (entry["action"], entry["chatLineId"], entry["username"]) == ("hide", line_id, "bob")


def test_closing_an_account_ends_its_tokens_and_is_logged(web, people):
    alice, bob, mod = people
    report_id = ok(report(alice, "bob", "cheat"))["id"]
    assert ok(bob.account.get("/api/account"))["username"] == "bob"
    assert ok(act(mod, "users/bob/close", reason="engine use", reportId=report_id)) == {"ok": True}
    assert_error(bob.account.get("/api/account"), 401, "token.invalid")
    assert_error(act(mod, "users/bob/close"), 409, "account.closed")
    assert ok(mod.get(f"/api/mod/reports/{report_id}"))["outcome"] == "close"
    [entry] = log(mod)
    assert (entry["action"], entry["reason"], entry["userId"]) == ("close", "engine use", bob.id)
