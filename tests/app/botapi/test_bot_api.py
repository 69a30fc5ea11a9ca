"""The bot and board API: game streams, moves and the other actions, the event stream, chat,
bots online, export, seeks, scopes and rate limits. Streams run with a short keep-alive."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.botapi.eventlines import GameEvent, OnlineBotOut
from app.botapi.exportmodels import GameExportOut
from app.botapi.models import ChatLineEvent, GameFullEvent, GameStateEvent, OpponentGoneEvent
from tests.app.accounts_and_streams import MATE, Account, Lines, assert_error, challenge, check
from tests.app.conftest import Player, move_at, receive, send, settle

# What this module tests is the same on either database (tests/app/conftest.py).
pytestmark = pytest.mark.sqlite_only

FAST = {"keepalive_seconds": 0.1}


@pytest.fixture
def fast(make_client: Any) -> TestClient:
    client: TestClient = make_client(**FAST)
    return client


def accounts(client: TestClient) -> tuple[Account, Account]:
    """alice (a person playing through a program: /api/board) and robot (a BOT)."""
    return Account(client, "alice"), Account(client, "robot", bot=True)


def start(alice: Account, robot: Account, **body: Any) -> str:
    """A game alice (white unless said) plays against robot, from an accepted challenge."""
    created = challenge(alice, "robot", **{"color": "white", **body})
    response = robot.post(f"/api/challenge/{created['id']}/accept")
    assert response.status_code == 200, response.text
    return str(created["id"])


def move(who: Account, kind: str, game_id: str, text: str, status: int = 200) -> Any:
    response = who.post(f"/api/{kind}/game/{game_id}/move/{text}")
    assert response.status_code == status, response.text
    return response


def export(client: TestClient, game_id: str) -> dict[str, Any]:
    client.cookies.clear()
    response = client.get(f"/api/game/{game_id}")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = check(GameExportOut, response.json())
    return data


# ---- a whole game ----------------------------------------------------------------------------
def test_a_whole_game_through_the_api_with_both_streams(fast):
    alice, robot = accounts(fast)
    game_id = start(alice, robot, clock={"limit": 300, "increment": 3})
    with (
        alice.stream(f"/api/board/game/stream/{game_id}") as a,
        robot.stream(f"/api/bot/game/stream/{game_id}") as r,
    ):
        mine, theirs = Lines(a), Lines(r)
        full = check(GameFullEvent, mine.next())
        assert full["type"] == "gameFull" and full["id"] == game_id
        assert full["variant"] == {"key": "dobutsu", "name": "Dōbutsu shōgi"}
        assert full["clock"] == {"initial": 300_000, "increment": 3000}
        # Accounts: their rating as of the start, provisional (lichess's shape).
        new = {"rating": 1500, "provisional": True}
        assert full["white"] == {"id": alice.id, "name": "alice", "title": None, **new}
        assert full["black"] == {"id": robot.id, "name": "robot", "title": "BOT", **new}
        assert full["initialFen"] == "gle/1c1/1C1/ELG f -"
        assert full["rules"] == {"ruleset": "dobutsu"}
        assert full["rated"] is False and full["speed"] == "blitz"
        state = full["state"]
        assert state["moves"] == "" and state["status"] == "started"
        assert state["legalMoves"] == ["b1a2", "b1c2", "b2b3", "c1c2"]
        assert state["turn"] == "white" and state["fen"] == full["initialFen"]
        assert (state["wtime"], state["btime"], state["winc"], state["binc"]) == (
            300_000,
            300_000,
            3000,
            3000,
        )
        assert check(GameFullEvent, theirs.next())["id"] == game_id

        for ply, text in enumerate(MATE, start=1):
            who, kind = (alice, "board") if ply % 2 else (robot, "bot")
            move(who, kind, game_id, text)
            for lines in (mine, theirs):
                line = check(GameStateEvent, lines.next("gameState"))
                assert line["moves"] == " ".join(MATE[:ply])
                assert line["ply"] == ply
        assert line["status"] == "mate" and line["winner"] == "white"
        assert line["reason"] == "checkmate" and line["legalMoves"] == []
        # the streams end after the final state
        assert [x for x in mine.rest() if x.get("type") == "gameState"] == []
        assert [x for x in theirs.rest() if x.get("type") == "gameState"] == []
    data = export(fast, game_id)
    assert data["status"] == "mate" and data["winner"] == "white"
    assert data["moves"] == " ".join(MATE)
    assert data["clock"] == {"initial": 300, "increment": 3, "totalTime": 420}
    assert data["players"]["black"]["user"]["title"] == "BOT"


def test_the_stream_of_a_finished_game_is_its_full_state_and_ends(client):
    alice, robot = accounts(client)
    game_id = start(alice, robot)
    alice.post(f"/api/board/game/{game_id}/resign")
    with robot.stream(f"/api/bot/game/stream/{game_id}") as r:
        lines = Lines(r).rest()
    assert len(lines) == 1
    full = check(GameFullEvent, lines[0])
    assert full["state"]["status"] == "resign" and full["state"]["winner"] == "black"


def test_empty_lines_keep_the_streams_alive(fast):
    alice, _robot = accounts(fast)
    with alice.stream("/api/stream/event") as response:
        lines = Lines(response)
        assert [lines.raw() for _ in range(3)] == ["", "", ""]


def test_the_event_stream_tells_of_games_starting_and_finishing(fast):
    alice, robot = accounts(fast)
    ongoing = start(alice, robot)  # before the stream opens: sent on opening
    with robot.stream("/api/stream/event") as r:
        events = Lines(r)
        first = check(GameEvent, events.next("gameStart"))
        assert first["game"]["id"] == ongoing and first["game"]["color"] == "black"
        assert first["game"]["opponent"] == {
            "id": alice.id,
            "username": "alice",
            "title": None,
            "rating": 1500,
        }
        assert first["game"]["isMyTurn"] is False
        game_id = start(alice, robot, color="black")
        event = check(GameEvent, events.next("gameStart"))
        assert event["game"]["id"] == game_id
        assert event["game"]["color"] == "white" and event["game"]["isMyTurn"] is True
        assert event["game"]["secondsLeft"] is None  # no clock
        robot.post(f"/api/bot/game/{game_id}/resign")
        finish = check(GameEvent, events.next("gameFinish"))
        assert finish["game"]["id"] == game_id
        assert finish["game"]["status"]["name"] == "resign"
        assert finish["game"]["winner"] == "black" and finish["game"]["reason"] == "resign"


def test_a_person_in_a_browser_plays_a_bot_on_the_api(fast):
    robot = Account(fast, "robot", bot=True)
    person = Player(fast, "person")
    created = person.post("/api/challenge/robot", {"variant": "dobutsu", "color": "white"}).json()
    robot.post(f"/api/challenge/{created['id']}/accept")
    game_id = created["id"]
    with robot.stream(f"/api/bot/game/stream/{game_id}") as r, person.socket(game_id) as ws:
        bot = Lines(r)
        assert bot.next("gameFull")["white"]["name"] == person.who.name
        assert receive(ws, "state")["game"]["status"] == "started"
        send(ws, type="move", move=MATE[0], ply=0)
        assert move_at(ws, 1)["move"] == MATE[0]
        assert bot.next("gameState")["moves"] == MATE[0]
        move(robot, "bot", game_id, MATE[1])
        assert move_at(ws, 2)["move"] == MATE[1]
        assert bot.next("gameState")["moves"] == " ".join(MATE[:2])


def test_the_browser_cookie_plays_through_the_board_routes_too(client):
    robot = Account(client, "robot", bot=True)
    person = Player(client, "person")
    created = person.post("/api/challenge/robot", {"variant": "dobutsu", "color": "white"}).json()
    robot.post(f"/api/challenge/{created['id']}/accept")
    response = person.post(f"/api/board/game/{created['id']}/move/{MATE[0]}")
    assert response.status_code == 200, response.text
    assert export(client, created["id"])["moves"] == MATE[0]


# ---- game actions and their refusals ---------------------------------------------------------
def test_move_refusals(client):
    alice, robot = accounts(client)
    carol = Account(client, "carol")
    game_id = start(alice, robot)
    assert_error(alice.post(f"/api/board/game/{game_id}/move/b2b4"), 422, "move.illegal")
    assert_error(alice.post(f"/api/board/game/{game_id}/move/zz99"), 400, "move.invalid")
    assert_error(alice.post(f"/api/board/game/{game_id}/move/{'a' * 17}"), 400, "move.invalid")
    assert_error(robot.post(f"/api/bot/game/{game_id}/move/b4b3"), 409, "game.not_your_turn")
    assert_error(carol.post(f"/api/board/game/{game_id}/move/b2b3"), 403, "game.not_player")
    assert_error(alice.post("/api/board/game/nothere/move/b2b3"), 404, "game.not_found")
    assert export(client, game_id)["ply"] == 0
    alice.post(f"/api/board/game/{game_id}/resign")
    assert_error(robot.post(f"/api/bot/game/{game_id}/move/b4b3"), 409, "game.over")
    assert_error(robot.post(f"/api/bot/game/{game_id}/resign"), 409, "game.over")


def test_abort_until_both_have_moved(client):
    alice, robot = accounts(client)
    game_id = start(alice, robot)
    assert robot.post(f"/api/bot/game/{game_id}/abort").json() == {"ok": True}
    assert export(client, game_id)["status"] == "aborted"
    game_id = start(alice, robot)
    move(alice, "board", game_id, MATE[0])
    move(robot, "bot", game_id, MATE[1])
    assert_error(alice.post(f"/api/board/game/{game_id}/abort"), 409, "game.not_abortable")
    assert export(client, game_id)["status"] == "started"


def test_draw_offers_and_answers(fast):
    alice, robot = accounts(fast)
    game_id = start(alice, robot)
    assert_error(alice.post(f"/api/board/game/{game_id}/draw/no"), 409, "draw.no_offer")
    assert_error(alice.post(f"/api/board/game/{game_id}/draw/maybe"), 400, "request.invalid")
    with robot.stream(f"/api/bot/game/stream/{game_id}") as r:
        lines = Lines(r)
        lines.next("gameFull")
        response = alice.post(f"/api/board/game/{game_id}/move/{MATE[0]}?offeringDraw=true")
        assert response.status_code == 200, response.text
        offered = [lines.next("gameState"), lines.next("gameState")]
        assert offered[-1]["wdraw"] is True and offered[-1]["bdraw"] is False
        assert robot.post(f"/api/bot/game/{game_id}/draw/no").status_code == 200
        assert lines.next("gameState")["wdraw"] is False
        assert robot.post(f"/api/bot/game/{game_id}/draw/yes").status_code == 200
        assert lines.next("gameState")["bdraw"] is True
        assert alice.post(f"/api/board/game/{game_id}/draw/yes").status_code == 200
        final = lines.next("gameState")
        assert final["status"] == "draw" and final["reason"] == "agreement"
        assert "winner" not in final


def test_claiming_victory_when_the_opponent_has_gone(make_client, clock):
    client = make_client(keepalive_seconds=0.1, gone_seconds=0.3, gone_unmoved_seconds=0.3)
    alice, robot = accounts(client)
    game_id = start(alice, robot)
    with alice.stream(f"/api/board/game/stream/{game_id}") as a:
        Lines(a).next("gameFull")
        assert_error(
            robot.post(f"/api/bot/game/{game_id}/claim-victory"), 409, "claim.opponent_present"
        )
    with robot.stream(f"/api/bot/game/stream/{game_id}") as r:
        lines = Lines(r)
        lines.next("gameFull")
        gone = check(OpponentGoneEvent, lines.next("opponentGone"))
        assert gone["gone"] is True and 0 <= gone["claimWinInSeconds"] <= 1
        with alice.stream(f"/api/board/game/stream/{game_id}") as a:
            Lines(a).next("gameFull")
            assert lines.next("opponentGone") == {"type": "opponentGone", "gone": False}
        assert lines.next("opponentGone")["gone"] is True
        assert_error(robot.post(f"/api/bot/game/{game_id}/claim-victory"), 409, "claim.too_early")
        clock.advance(299)
        assert_error(robot.post(f"/api/bot/game/{game_id}/claim-victory"), 409, "claim.too_early")
        clock.advance(1)
        assert robot.post(f"/api/bot/game/{game_id}/claim-victory").status_code == 200
        final = lines.next("gameState")
        assert final["status"] == "timeout" and final["winner"] == "black"


def test_claiming_a_draw(make_client, clock):
    client = make_client(gone_seconds=0.1, gone_unmoved_seconds=0.1)
    alice, robot = accounts(client)
    game_id = start(alice, robot)
    with robot.stream(f"/api/bot/game/stream/{game_id}") as r:
        Lines(r).next("gameFull")
        assert_error(robot.post(f"/api/bot/game/{game_id}/claim-draw"), 409, "claim.too_early")
        clock.advance(100)
        assert robot.post(f"/api/bot/game/{game_id}/claim-draw").status_code == 200
    data = export(client, game_id)
    assert data["status"] == "draw" and data["reason"] == "opponent_gone"


# ---- who may call what -----------------------------------------------------------------------
def test_bot_routes_are_for_bots_and_board_routes_for_the_others(client):
    alice, robot = accounts(client)
    game_id = start(alice, robot)
    for url in (f"/api/bot/game/{game_id}/move/b2b3", f"/api/bot/game/{game_id}/resign"):
        assert_error(alice.post(url), 403, "bot.required")
    assert_error(alice.get(f"/api/bot/game/stream/{game_id}"), 403, "bot.required")
    assert_error(robot.post(f"/api/board/game/{game_id}/abort"), 403, "bot.forbidden")
    assert_error(robot.get(f"/api/board/game/stream/{game_id}"), 403, "bot.forbidden")
    assert export(client, game_id)["status"] == "started"


def test_game_routes_need_their_scope_and_a_live_token(client):
    alice, robot = accounts(client)
    game_id = start(alice, robot)
    narrow = robot.new_token(("challenge:read",))
    client.cookies.clear()
    response = client.post(f"/api/bot/game/{game_id}/abort", headers=narrow)
    assert assert_error(response, 403, "token.scope")["missing"] == ["bot:play"]
    assert_error(client.get(f"/api/bot/game/stream/{game_id}", headers=narrow), 403, "token.scope")
    board_only = alice.new_token(("bot:play",))
    assert_error(
        client.post(f"/api/board/game/{game_id}/abort", headers=board_only), 403, "token.scope"
    )
    assert client.delete("/api/token", headers=robot.headers).status_code == 204
    assert_error(robot.post(f"/api/bot/game/{game_id}/abort"), 401, "token.invalid")
    assert export(client, game_id)["status"] == "started"


def test_only_a_player_streams_a_game_as_a_player(client):
    alice, robot = accounts(client)
    carol = Account(client, "carol")
    game_id = start(alice, robot)
    assert_error(carol.get(f"/api/board/game/stream/{game_id}"), 403, "game.not_player")
    assert_error(carol.get("/api/board/game/stream/nothere"), 404, "game.not_found")


# ---- the event stream: one per token ---------------------------------------------------------
def test_one_event_stream_per_token(fast):
    robot = Account(fast, "robot", bot=True)
    with robot.stream("/api/stream/event") as first:
        Lines(first).raw()
        response = robot.get("/api/stream/event")
        body = assert_error(response, 429, "ratelimit")
        assert body["ratelimit"]["key"] == "stream.event" and body["ratelimit"]["seconds"] >= 1
        other = robot.new_token(("bot:play",))  # another token of the same bot may
        fast.cookies.clear()
        with fast.stream("GET", "/api/stream/event", headers=other) as second:
            assert Lines(second).raw() == ""
    settle(fast)  # closed, and the server has seen it: a new one may open at once
    with robot.stream("/api/stream/event") as again:
        assert Lines(again).raw() == ""


def test_the_event_stream_needs_a_playing_scope(client):
    alice = Account(client, "alice", scopes=("challenge:write",))
    assert_error(alice.get("/api/stream/event"), 403, "token.scope")
    assert_error(Account(client, "bob").get("/api/stream/event?games=chess"), 400, "game.unknown")


# ---- bots online -----------------------------------------------------------------------------
def test_bots_with_an_event_stream_are_online(fast):
    alice, robot = accounts(fast)
    other = Account(fast, "other-bot", bot=True)

    def online() -> list[dict[str, Any]]:
        fast.cookies.clear()
        response = fast.get("/api/bot/online")
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("application/x-ndjson")
        return [check(OnlineBotOut, x) for x in Lines(response).rest()]

    assert online() == []
    with (
        robot.stream("/api/stream/event") as r,
        other.stream("/api/stream/event?games=dobutsu,wali") as o,
        alice.stream("/api/stream/event") as a,
    ):
        for response in (r, o, a):
            Lines(response).raw()
        assert online() == [
            {
                "id": robot.id,
                "username": "robot",
                "title": "BOT",
                "bot": {"games": ["dobutsu", "gorogoro", "jungle", "yote", "wali"]},
            },
            {
                "id": other.id,
                "username": "other-bot",
                "title": "BOT",
                "bot": {"games": ["dobutsu", "wali"]},
            },
        ]
    settle(fast)
    assert online() == []


# ---- chat ------------------------------------------------------------------------------------
def test_chat_reaches_players_streams_sockets_and_spectators_by_room(fast):
    alice, robot = accounts(fast)
    game_id = start(alice, robot)
    watcher = Player(fast, "watcher")
    with (
        robot.stream(f"/api/bot/game/stream/{game_id}") as r,
        fast.stream("GET", f"/api/game/{game_id}?format=ndjson") as s,
        watcher.socket(game_id) as ws,
    ):
        bot, spectator = Lines(r), Lines(s)
        bot.next("gameFull")
        spectator.next()
        receive(ws, "state")
        response = alice.form(
            f"/api/board/game/{game_id}/chat", {"room": "player", "text": " good luck "}
        )
        assert response.status_code == 200, response.text
        response = robot.post(
            f"/api/bot/game/{game_id}/chat", {"room": "spectator", "text": "hello <b>all</b>"}
        )
        assert response.status_code == 200, response.text
        line = check(ChatLineEvent, bot.next("chatLine"))
        assert line == {
            "type": "chatLine",
            "room": "player",
            "username": "alice",
            "text": "good luck",
        }
        assert bot.next("chatLine")["text"] == "hello <b>all</b>"
        # spectators see their room only
        seen = spectator.next("chatLine")
        assert seen["room"] == "spectator" and seen["username"] == "robot"
        chat = receive(ws, "chat")
        assert chat["room"] == "spectator" and chat["text"] == "hello <b>all</b>"
        assert isinstance(chat["ply"], int)
    history = robot.get(f"/api/bot/game/{game_id}/chat").json()
    assert [(x["room"], x["user"], x["text"]) for x in history] == [
        ("player", "alice", "good luck"),
        ("spectator", "robot", "hello <b>all</b>"),
    ]


def test_chat_refusals(client):
    alice, robot = accounts(client)
    carol = Account(client, "carol")
    game_id = start(alice, robot)
    url = f"/api/board/game/{game_id}/chat"
    assert_error(alice.post(url, {"room": "player", "text": "x" * 141}), 400, "chat.invalid")
    assert_error(alice.post(url, {"room": "player", "text": "   "}), 400, "chat.invalid")
    assert_error(alice.post(url, {"room": "player", "text": "a\nb"}), 400, "chat.invalid")
    assert_error(alice.post(url, {"room": "lobby", "text": "hi"}), 400, "request.invalid")
    assert_error(alice.post(url, {"text": "hi"}), 400, "request.invalid")
    assert_error(carol.post(url, {"room": "player", "text": "hi"}), 403, "game.not_player")
    assert_error(
        alice.post("/api/board/game/nothere/chat", {"room": "player", "text": "hi"}),
        404,
        "game.not_found",
    )
    assert alice.get(url).json() == []


# ---- export and spectators -------------------------------------------------------------------
def test_export_of_a_game_in_play(client):
    alice, robot = accounts(client)
    game_id = start(alice, robot, clock={"limit": 60, "increment": 0})
    move(alice, "board", game_id, MATE[0])
    data = export(client, game_id)
    assert data["id"] == game_id and data["status"] == "started" and data["reason"] is None
    assert data["moves"] == MATE[0] and data["ply"] == 1 and data["turn"] == "black"
    assert data["players"]["white"]["user"]["name"] == "alice"
    assert data["wtime"] == 60_000 and data["btime"] == 60_000
    assert data["legalMoves"] and data["winner"] is None
    client.cookies.clear()
    assert_error(client.get("/api/game/nothere"), 404, "game.not_found")
    assert_error(client.get("/api/game/nothere?format=ndjson"), 404, "game.not_found")
    assert_error(client.get(f"/api/game/{game_id}?format=pgn"), 400, "request.invalid")


def test_a_spectator_stream_follows_the_game_to_its_end(fast):
    alice, robot = accounts(fast)
    game_id = start(alice, robot)
    fast.cookies.clear()
    with (
        fast.stream("GET", f"/api/game/{game_id}", headers={"accept": "application/x-ndjson"}) as s,
        fast.stream("GET", f"/api/stream/game/{game_id}") as t,
    ):
        watch, other = Lines(s), Lines(t)
        first = check(GameExportOut, watch.next())
        assert first["id"] == game_id and first["moves"] == ""
        assert check(GameExportOut, other.next())["id"] == game_id
        for ply, text in enumerate(MATE, start=1):
            move(*((alice, "board") if ply % 2 else (robot, "bot")), game_id, text)
        states = [x for x in watch.rest() if x.get("type") == "gameState"]
        assert [s["ply"] for s in states] == [1, 2, 3, 4, 5]
        assert states[-1]["status"] == "mate"
        assert other.rest()[-1]["status"] == "mate"


# ---- seeks -----------------------------------------------------------------------------------
def test_two_seekers_are_paired(fast):
    alice, bob = Account(fast, "alice"), Account(fast, "bob")
    body = {"variant": "jungle", "time": 3, "increment": 1}  # no pool's clock: a lobby seek
    with alice.stream("/api/board/seek", method="POST", json=body) as a:
        waiting = Lines(a)
        assert waiting.raw() == ""  # still waiting: keep-alive
        lobby = fast.get("/api/lobby").json()["open"]
        assert [g["variant"] for g in lobby] == ["jungle"]
        with bob.stream("/api/board/seek", method="POST", json=body) as b:
            paired = Lines(b).rest()
        assert len(paired) == 1
        game_id = paired[0]["id"]
        assert waiting.rest() == [{"id": game_id}]
    game = export(fast, game_id)
    assert game["status"] == "started" and game["clock"]["initial"] == 180
    assert {game["players"]["white"]["user"]["name"], game["players"]["black"]["user"]["name"]} == {
        "alice",
        "bob",
    }


def test_a_seeker_takes_a_compatible_lobby_game_of_a_browser(fast):
    browser = Player(fast, "browser")
    other_clock = browser.create("dobutsu", clock={"minutes": 5, "increment": 0}, color="second")
    wrong_colour = browser.create("dobutsu", clock={"minutes": 3, "increment": 0}, color="first")
    good = browser.create("dobutsu", clock={"minutes": 3, "increment": 0}, color="second")
    alice = Account(fast, "alice")
    body = {"variant": "dobutsu", "time": 3, "increment": 0, "color": "white"}
    with alice.stream("/api/board/seek", method="POST", json=body) as a:
        assert Lines(a).rest() == [{"id": good["id"]}]
    game = export(fast, good["id"])
    assert game["players"]["white"]["user"]["id"] == alice.id
    for untouched in (other_clock, wrong_colour):
        assert export(fast, untouched["id"])["status"] == "created"


def test_a_seeker_finds_its_game_behind_many_that_do_not_fit(make_client):
    # 61 open games of one player and address: far beyond what anyone may have waiting.
    caps = {"max_open_games": 100, "max_open_games_per_ip": 100, "ratelimit_game_burst": 100}
    fast = make_client(**FAST, **caps)
    browser = Player(fast, "browser")
    for _ in range(60):  # older open games of the same game and minutes, another increment
        browser.create("dobutsu", clock={"minutes": 3, "increment": 1}, color="second")
    good = browser.create("dobutsu", clock={"minutes": 3, "increment": 0}, color="second")
    alice = Account(fast, "alice")
    body = {"variant": "dobutsu", "time": 3, "increment": 0}
    with alice.stream("/api/board/seek", method="POST", json=body) as a:
        # Paired at once: the first line is the game (a seek left waiting sends keep-alives).
        assert Lines(a).raw() == json.dumps({"id": good["id"]}, separators=(",", ":"))


def test_closing_a_seek_withdraws_it(fast):
    alice = Account(fast, "alice")
    with alice.stream("/api/board/seek", method="POST", json={"variant": "yote"}) as a:
        Lines(a).raw()
        game_id = fast.get("/api/lobby").json()["open"][0]["id"]
    settle(fast)  # the withdrawal runs detached from the closed request
    assert export(fast, game_id)["status"] == "aborted"
    assert fast.get("/api/lobby").json()["open"] == []


def test_seek_refusals(client):
    robot = Account(client, "robot", bot=True)
    alice = Account(client, "alice")
    assert_error(robot.post("/api/board/seek", {"variant": "dobutsu"}), 403, "bot.forbidden")
    assert_error(alice.post("/api/board/seek", {"variant": "draughts"}), 400, "game.unknown")
    assert_error(
        alice.post(
            "/api/board/seek", {"variant": "yote", "rated": True, "fen": "6/6/6/6/S5 s 11 12 - - 0"}
        ),
        400,
        "challenge.rated_position",
    )
    assert_error(
        alice.post("/api/board/seek", {"variant": "yote", "time": 0}), 400, "clock.invalid"
    )
    assert_error(
        alice.post("/api/board/seek", {"variant": "yote", "time": 1, "days": 1}),
        400,
        "request.invalid",
    )
    client.cookies.clear()
    assert client.get("/api/lobby").json()["open"] == []


@pytest.mark.parametrize("minutes", ["1e-300", "0.008", "NaN", "Infinity", "-Infinity"])
def test_a_seek_clock_below_one_second_once_rounded_or_not_a_number_is_refused(client, minutes):
    """``time`` is minutes, rounded to whole seconds: under half a second is no clock at all,
    and NaN or an infinity (Python's JSON reader takes them) cannot be rounded."""
    alice = Account(client, "alice")
    for response in (
        alice.client.post(
            "/api/board/seek",
            content=f'{{"variant": "yote", "time": {minutes}}}',
            headers={**alice.headers, "content-type": "application/json"},
        ),
        alice.form("/api/board/seek", {"variant": "yote", "time": minutes.lower()}),
    ):
        assert_error(response, 400, "clock.invalid")
    client.cookies.clear()
    assert client.get("/api/lobby").json()["open"] == []


# ---- rate limits -----------------------------------------------------------------------------
def test_moves_are_rate_limited(make_client):
    client = make_client(ratelimit_move_burst=2, ratelimit_move_per_s=0.01)
    alice, robot = accounts(client)
    game_id = start(alice, robot)
    move(alice, "board", game_id, MATE[0])
    move(robot, "bot", game_id, MATE[1])
    move(alice, "board", game_id, MATE[2])
    move(robot, "bot", game_id, MATE[3])
    body = assert_error(alice.post(f"/api/board/game/{game_id}/move/{MATE[4]}"), 429, "ratelimit")
    assert body["ratelimit"] == {"key": "move", "seconds": 100}
    assert export(client, game_id)["ply"] == 4  # the refused move was not played


def test_the_move_limit_counts_per_game_so_a_bot_plays_many_games_at_once(make_client):
    client = make_client(ratelimit_move_burst=2, ratelimit_move_per_s=0.01)
    alice, robot = accounts(client)
    games = [start(alice, robot) for _ in range(3)]
    for game_id in games:  # two moves each: six from one token, none refused
        for ply in range(4):
            move(
                alice if ply % 2 == 0 else robot,
                "board" if ply % 2 == 0 else "bot",
                game_id,
                MATE[ply],
            )
    # A third action in one game is over that game's budget.
    body = assert_error(alice.post(f"/api/board/game/{games[0]}/move/{MATE[4]}"), 429, "ratelimit")
    assert body["ratelimit"] == {"key": "move", "seconds": 100}
    assert export(client, games[0])["ply"] == 4


def test_the_address_bucket_counts_the_moves_of_every_game(make_client):
    client = make_client(ratelimit_move_burst=2, ratelimit_move_per_s=0.01, ratelimit_ip_factor=2)
    alice, robot = accounts(client)
    games = [start(alice, robot) for _ in range(2)]
    for game_id in games:  # the address's four: two moves by each player in two games
        move(alice, "board", game_id, MATE[0])
        move(robot, "bot", game_id, MATE[1])
    third = start(alice, robot)
    assert_error(alice.post(f"/api/board/game/{third}/move/{MATE[0]}"), 429, "ratelimit")
    assert export(client, third)["ply"] == 0


def test_streams_are_rate_limited(make_client):
    client = make_client(ratelimit_stream_burst=2, ratelimit_stream_per_s=0.01, **FAST)
    alice, robot = accounts(client)
    game_id = start(alice, robot)
    for _ in range(2):
        with robot.stream(f"/api/bot/game/stream/{game_id}") as r:
            Lines(r).next("gameFull")
    body = assert_error(robot.get(f"/api/bot/game/stream/{game_id}"), 429, "ratelimit")
    assert body["ratelimit"]["key"] == "stream"


# ---- the schema ------------------------------------------------------------------------------
def test_every_endpoint_is_in_the_openapi_schema_with_its_models(client):
    client.cookies.clear()
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    expected = {
        "/api/stream/event": ("get", "EventLine"),
        "/api/bot/online": ("get", "OnlineBotOut"),
        "/api/bot/game/stream/{game_id}": ("get", "GameStreamLine"),
        "/api/board/game/stream/{game_id}": ("get", "GameStreamLine"),
        "/api/bot/game/{game_id}/move/{move}": ("post", "DoneOut"),
        "/api/board/game/{game_id}/move/{move}": ("post", "DoneOut"),
        "/api/bot/game/{game_id}/chat": ("post", "DoneOut"),
        "/api/challenge": ("get", "ChallengesOut"),
        "/api/challenge/open": ("post", "ChallengeOut"),
        "/api/challenge/{username}": ("post", "ChallengeOut"),
        "/api/challenge/{challenge_id}/show": ("get", "ChallengeOut"),
        "/api/challenge/{challenge_id}/accept": ("post", "AcceptedOut"),
        "/api/challenge/{challenge_id}/decline": ("post", "DoneOut"),
        "/api/challenge/{challenge_id}/cancel": ("post", "DoneOut"),
        "/api/board/seek": ("post", "SeekLine"),
        "/api/game/{game_id}": ("get", "GameExportOut"),
        "/api/stream/game/{game_id}": ("get", "ExportLine"),
    }
    for path, (method, model) in expected.items():
        operation = paths[path][method]
        assert f"#/components/schemas/{model}" in str(operation["responses"]["200"]), path
        assert model in schema["components"]["schemas"]
    for action in ("abort", "resign", "draw/{accept}", "claim-victory", "claim-draw"):
        assert f"/api/bot/game/{{game_id}}/{action}" in paths
        assert f"/api/board/game/{{game_id}}/{action}" in paths
    body = paths["/api/challenge/{username}"]["post"]["requestBody"]["content"]
    assert set(body) == {"application/json", "application/x-www-form-urlencoded"}


def test_a_game_still_waiting_for_its_opponent_cannot_be_played(client):
    person = Player(client, "person")
    created = person.create("dobutsu")
    response = person.post(f"/api/board/game/{created['id']}/move/{MATE[0]}")
    assert_error(response, 409, "game.not_started")
    assert export(client, created["id"])["status"] == "created"


def test_the_players_room_reaches_a_players_browser(fast):
    robot = Account(fast, "robot", bot=True)
    person = Player(fast, "person")
    created = person.post("/api/challenge/robot", {"variant": "dobutsu", "color": "white"}).json()
    robot.post(f"/api/challenge/{created['id']}/accept")
    with person.socket(created["id"]) as ws:
        receive(ws, "state")
        response = robot.post(
            f"/api/bot/game/{created['id']}/chat", {"room": "player", "text": "have fun"}
        )
        assert response.status_code == 200, response.text
        chat = receive(ws, "chat")
        assert (chat["room"], chat["username"], chat["text"]) == ("player", "robot", "have fun")
        assert chat["ply"] == 0
