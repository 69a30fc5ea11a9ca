"""The lichess endpoints bot clients call besides playing: token test, the games
being played, preferences, users, game exports (JSON, NDJSON, the text record), and the
lichess fields of clocks (``timeControl.show``, correspondence ``daysPerTurn``)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.botapi import exports
from app.botapi.eventlines import ChallengeOut
from app.botapi.exportmodels import LichessGameOut
from app.botapi.models import GameFullEvent
from app.games import record
from tests.app.accounts_and_streams import MATE, Account, Lines, assert_error, challenge, check
from tests.app.conftest import Player

# What this module tests is the same on either database (tests/app/conftest.py).
pytestmark = pytest.mark.sqlite_only

NDJSON = {"accept": "application/x-ndjson"}
JSON = {"accept": "application/json"}


def start(white: Account, black: Account, variant: str = "dobutsu", **body: Any) -> str:
    """A game white plays against black, from an accepted challenge."""
    created = challenge(white, black.username, variant=variant, color="white", **body)
    response = black.post(f"/api/challenge/{created['id']}/accept")
    assert response.status_code == 200, response.text
    return str(created["id"])


def play(white: Account, black: Account, game_id: str, moves: tuple[str, ...]) -> None:
    kinds = {w: "bot" if w.username.startswith("robot") else "board" for w in (white, black)}
    for ply, text in enumerate(moves):
        who = white if ply % 2 == 0 else black
        response = who.post(f"/api/{kinds[who]}/game/{game_id}/move/{text}")
        assert response.status_code == 200, response.text


def finished_game(white: Account, black: Account) -> str:
    game_id = start(white, black)
    play(white, black, game_id, MATE)
    return game_id


def get(client: TestClient, url: str, **headers: str) -> Any:
    client.cookies.clear()
    return client.get(url, headers=headers)


def post_text(client: TestClient, url: str, text: str, **headers: str) -> Any:
    """A body of plain text without a content type, as berserk and lichess-bot send."""
    client.cookies.clear()
    return client.post(url, content=text.encode(), headers=headers)


def ndjson_lines(response: Any) -> list[dict[str, Any]]:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/x-ndjson")
    return [check(LichessGameOut, json.loads(t)) for t in response.text.splitlines() if t]


# ---- tokens and account ----------------------------------------------------------------------
def test_token_test_answers_each_token_with_its_account_scopes_or_null(client):
    alice = Account(client, "alice", scopes=("board:play", "challenge:read"))
    revoked_headers = alice.new_token(("bot:play",))
    revoked = revoked_headers["authorization"].split()[1]
    client.cookies.clear()
    assert client.delete("/api/token", headers=revoked_headers).status_code == 204
    body = f"{alice.token},kdm_unknown,{revoked},lip_notours"
    response = post_text(client, "/api/token/test", body)
    assert response.status_code == 200, response.text
    assert response.json() == {
        alice.token: {"userId": alice.id, "scopes": "board:play,challenge:read", "expires": None},
        "kdm_unknown": None,
        revoked: None,
        "lip_notours": None,
    }
    # lichess-style clients also post it as a form field-less text/plain body.
    plain = post_text(client, "/api/token/test", alice.token, **{"content-type": "text/plain"})
    assert plain.json()[alice.token]["userId"] == alice.id


def test_token_test_refusals(client):
    assert_error(post_text(client, "/api/token/test", ""), 400, "request.invalid")
    assert_error(post_text(client, "/api/token/test", " , "), 400, "request.invalid")
    many = ",".join(f"kdm_{i}" for i in range(1001))
    assert_error(post_text(client, "/api/token/test", many), 400, "request.invalid")
    assert_error(post_text(client, "/api/token/test", "kdm_" + "x" * 300), 400, "request.invalid")


def test_now_playing_lists_the_games_in_play_with_my_turn_first(client):
    alice, bob, carol = Account(client, "alice"), Account(client, "bob"), Account(client, "carol")
    waiting = start(alice, bob)  # alice (white) to move
    theirs = start(alice, carol)
    play(alice, carol, theirs, MATE[:1])  # carol to move
    finished = finished_game(bob, alice)
    response = alice.get("/api/account/playing")
    assert response.status_code == 200, response.text
    playing = response.json()["nowPlaying"]
    assert [g["gameId"] for g in playing] == [waiting, theirs]
    first = playing[0]
    assert first["fullId"] == waiting and first["color"] == "white" and first["isMyTurn"]
    # a new account's rating as of the game's start (lichess's opponent.rating)
    assert first["opponent"] == {"id": bob.id, "username": "bob", "title": None, "rating": 1500}
    assert first["status"] == {"id": 20, "name": "started"}
    assert first["variant"] == {"key": "dobutsu", "name": "Dōbutsu shōgi"}
    assert first["source"] == "friend" and first["rated"] is False and first["lastMove"] == ""
    assert first["hasMoved"] is False and first["speed"] == "correspondence"
    assert playing[1]["isMyTurn"] is False and playing[1]["lastMove"] == MATE[0]
    assert finished not in [g["gameId"] for g in playing]
    assert [g["gameId"] for g in alice.get("/api/account/playing?nb=1").json()["nowPlaying"]] == [
        waiting
    ]
    assert_error(alice.get("/api/account/playing?nb=0"), 400, "request.invalid")
    bad = get(client, "/api/account/playing", authorization="Bearer kdm_nope")
    assert_error(bad, 401, "token.invalid")


def test_preferences_say_what_applies(client):
    alice = Account(client, "alice", scopes=())
    response = alice.get("/api/account/preferences")
    assert response.status_code == 200, response.text
    assert response.json() == {"prefs": {"challenge": 5}, "language": "en-US"}
    anonymous = Player(client, "anon")
    assert_error(anonymous.get("/api/account/preferences"), 401, "account.required")


# ---- users -------------------------------------------------------------------------------------
def test_public_data_of_a_user_counts_games_and_shows_the_game_on(client):
    alice, robot = Account(client, "Alice"), Account(client, "robot", bot=True)
    finished_game(alice, robot)  # alice wins
    on = start(robot, alice)
    response = get(client, "/api/user/ALICE")
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["id"] == alice.id and data["username"] == "Alice" and "title" not in data
    assert isinstance(data["createdAt"], int)
    # As lichess: ``all`` counts the games finished (not aborted); the one on is ``playing``.
    assert data["count"] == {"all": 1, "rated": 0, "win": 1, "loss": 0, "draw": 0, "playing": 1}
    assert data["playing"] == f"http://testserver/game/{on}"
    bot = get(client, "/api/user/robot").json()
    assert bot["title"] == "BOT" and bot["count"]["loss"] == 1
    assert_error(get(client, "/api/user/nobody"), 404, "user.not_found")
    assert_error(get(client, f"/api/user/{'x' * 30}"), 404, "user.not_found")


def test_an_anonymous_player_is_not_a_user(client):
    person = Player(client, "person")
    me = person.get("/api/me").json()
    assert_error(get(client, f"/api/user/{me['name']}"), 404, "user.not_found")


def test_users_by_name_in_the_order_asked(client):
    Account(client, "alice")
    robot = Account(client, "robot", bot=True)
    response = post_text(client, "/api/users", "robot, nobody,ALICE,robot")
    assert response.status_code == 200, response.text
    users = response.json()
    assert [u["username"] for u in users] == ["robot", "alice"]
    assert users[0] == {
        "id": robot.id,
        "username": "robot",
        "title": "BOT",
        "createdAt": users[0]["createdAt"],
    }
    assert_error(post_text(client, "/api/users", ""), 400, "request.invalid")
    many = ",".join(f"u{i}" for i in range(301))
    assert_error(post_text(client, "/api/users", many), 400, "request.invalid")


def test_users_status_online_and_playing(make_client):
    client = make_client(keepalive_seconds=0.1)
    alice, robot = Account(client, "alice"), Account(client, "robot", bot=True)
    game_id = start(alice, robot)
    with robot.stream("/api/stream/event") as response:
        Lines(response).next("gameStart")
        found = get(client, f"/api/users/status?ids={alice.id},{robot.id},nobody&withGameIds=true")
    assert found.status_code == 200, found.text
    assert found.json() == [
        {"id": alice.id, "name": "alice", "playing": True, "playingId": game_id},
        {
            "id": robot.id,
            "name": "robot",
            "title": "BOT",
            "online": True,
            "playing": True,
            "playingId": game_id,
        },
    ]
    assert_error(get(client, "/api/users/status?ids="), 400, "request.invalid")
    many = ",".join(str(i) for i in range(101))
    assert_error(get(client, f"/api/users/status?ids={many}"), 400, "request.invalid")


def test_current_game_of_a_user_is_the_one_on_else_the_last(client):
    alice, robot = Account(client, "alice"), Account(client, "robot", bot=True)
    assert_error(get(client, "/api/user/alice/current-game"), 404, "game.not_found")
    assert_error(get(client, "/api/user/nobody/current-game"), 404, "user.not_found")
    done = finished_game(alice, robot)
    last = get(client, "/api/user/alice/current-game", **JSON)
    assert last.status_code == 200, last.text
    assert check(LichessGameOut, last.json())["id"] == done
    on = start(robot, alice)
    now = get(client, "/api/user/alice/current-game", **JSON).json()
    assert now["id"] == on and now["status"] == "started" and now["moves"] == ""
    text = get(client, "/api/user/alice/current-game")
    assert text.headers["content-type"].startswith("application/x-chess-pgn")
    assert record.parse(text.text).tags["GameId"] == on


# ---- exports -------------------------------------------------------------------------------------
def test_game_export_as_lichess_json(client):
    alice, robot = Account(client, "alice"), Account(client, "robot", bot=True)
    game_id = start(alice, robot, clock={"limit": 180, "increment": 2})
    play(alice, robot, game_id, MATE)
    response = get(client, f"/game/export/{game_id}", **JSON)
    assert response.status_code == 200, response.text
    data = check(LichessGameOut, response.json())
    assert data["id"] == game_id and data["rated"] is False
    assert data["variant"] == "dobutsu" and data["perf"] == "dobutsu"
    assert data["speed"] == "blitz" and data["status"] == "mate" and data["winner"] == "white"
    assert data["source"] == "friend"
    # ratings as of the game's start, new and so provisional; a casual game: no ratingDiff
    assert data["players"] == {
        "white": {"user": {"name": "alice", "id": alice.id}, "rating": 1500, "provisional": True},
        "black": {
            "user": {"name": "robot", "id": robot.id, "title": "BOT"},
            "rating": 1500,
            "provisional": True,
        },
    }
    assert data["moves"] == " ".join(MATE)
    assert data["clock"] == {"initial": 180, "increment": 2, "totalTime": 260}
    assert data["initialFen"] == "gle/1c1/1C1/ELG f -"
    assert data["lastMoveAt"] >= data["createdAt"]
    assert "daysPerTurn" not in data and "pgn" not in data
    lean = get(client, f"/game/export/{game_id}?moves=false&pgnInJson=true", **JSON).json()
    assert "moves" not in lean
    assert record.parse(lean["pgn"]).moves == []
    assert_error(get(client, "/game/export/nothere", **JSON), 404, "game.not_found")
    assert_error(get(client, f"/game/export/{game_id}?moves=maybe", **JSON), 400, "request.invalid")


def test_game_export_as_a_text_record_reads_back(client):
    alice, robot = Account(client, "alice"), Account(client, "robot", bot=True)
    game_id = start(alice, robot, clock={"limit": 300, "increment": 3})
    play(alice, robot, game_id, MATE)
    response = get(client, f"/game/export/{game_id}")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/x-chess-pgn; charset=utf-8"
    text = response.text
    assert text.endswith("\n\n\n")
    found = record.parse(text)
    tags = found.tags
    assert list(tags)[:14] == list(record.TAG_ORDER)
    assert tags["Event"] == "Casual dobutsu game"
    assert tags["Site"] == f"http://testserver/game/{game_id}"
    assert tags["White"] == "alice" and tags["Black"] == "robot" and tags["BlackTitle"] == "BOT"
    assert tags["Result"] == "1-0" and tags["Termination"] == "Normal"
    assert tags["Variant"] == "dobutsu" and tags["Rules"] == "ruleset=dobutsu"
    assert tags["TimeControl"] == "300+3" and tags["FEN"] == "gle/1c1/1C1/ELG f -"
    assert tags["Reason"] == "checkmate"
    assert found.moves == list(MATE)
    assert "1. b1a2 b4c3 2. a2b1 a4b4 3. c1c2 1-0" in text
    exported = get(client, f"/game/export/{game_id}", **JSON).json()
    assert record.replay(found)[-1] == exported["lastFen"]
    # lichess's flags: no tags, or no moves.
    bare = get(client, f"/game/export/{game_id}?tags=false").text
    assert bare == "1. b1a2 b4c3 2. a2b1 a4b4 3. c1c2 1-0\n\n\n"
    assert record.parse(get(client, f"/game/export/{game_id}?moves=false").text).moves == []
    assert_error(get(client, "/game/export/nothere"), 404, "game.not_found")


def games_of(client: TestClient, query: str = "", **headers: str) -> list[str]:
    response = get(client, f"/api/games/user/alice{query}", **{**NDJSON, **headers})
    return [g["id"] for g in ndjson_lines(response)]


def test_games_of_a_user_with_lichess_filters(client, clock):
    alice, robot, bob = (
        Account(client, "alice"),
        Account(client, "robot", bot=True),
        Account(client, "bob"),
    )
    # A second apart: told apart by their times (each second moved runs the app's periodic work).
    first = finished_game(alice, robot)  # alice white, wins
    clock.advance(1_000)
    second = start(bob, alice, variant="jungle")  # alice black
    assert alice.post(f"/api/board/game/{second}/abort").status_code == 200
    clock.advance(1_000)
    third = finished_game(robot, alice)  # alice black, loses
    clock.advance(1_000)
    on = start(alice, bob, variant="yote")
    created = [first, second, third, on]
    times = [get(client, f"/game/export/{g}", **JSON).json()["createdAt"] for g in created]
    assert times == sorted(times) and len(set(times)) == 4

    assert games_of(client) == [third, second, first]  # finished only, newest first
    assert games_of(client, "?sort=dateAsc") == [first, second, third]
    assert games_of(client, "?ongoing=true") == [on, third, second, first]
    assert games_of(client, "?ongoing=true&finished=false") == [on]
    assert games_of(client, "?max=2") == [third, second]
    assert games_of(client, "?perfType=jungle,yote&ongoing=true") == [on, second]
    assert games_of(client, "?color=white") == [first]
    assert games_of(client, "?color=black") == [third, second]
    assert games_of(client, "?vs=ROBOT") == [third, first]
    assert games_of(client, "?vs=nobody") == []
    assert games_of(client, "?rated=true") == []
    assert games_of(client, "?rated=false") == [third, second, first]
    assert games_of(client, f"?since={times[1]}&until={times[2]}") == [third, second]
    lean = ndjson_lines(get(client, "/api/games/user/alice?moves=false&max=1", **NDJSON))
    assert "moves" not in lean[0]
    # Without the NDJSON Accept header: text records, two empty lines between them.
    text = get(client, "/api/games/user/alice?sort=dateAsc")
    assert text.status_code == 200
    assert text.headers["content-type"].startswith("application/x-chess-pgn")
    records = list(record.parse_many(text.text))
    assert [r.tags["GameId"] for r in records] == [first, second, third]
    assert [r.result for r in records] == ["1-0", "*", "1-0"]
    assert records[1].tags["Termination"] == "Abandoned" and records[1].moves == []

    assert_error(get(client, "/api/games/user/nobody", **NDJSON), 404, "user.not_found")
    assert_error(get(client, "/api/games/user/alice?perfType=blitz", **NDJSON), 400, "perf.unknown")
    assert_error(get(client, "/api/games/user/alice?max=0", **NDJSON), 400, "request.invalid")
    assert_error(get(client, "/api/games/user/alice?sort=best", **NDJSON), 400, "request.invalid")


def test_games_of_a_user_are_read_page_by_page(client, monkeypatch):
    monkeypatch.setattr(exports, "PAGE", 2)
    alice, robot = Account(client, "alice"), Account(client, "robot", bot=True)
    games = [finished_game(alice, robot) for _ in range(5)]
    assert sorted(games_of(client)) == sorted(games) and len(games_of(client)) == 5
    assert len(games_of(client, "?max=3")) == 3
    assert games_of(client, "?sort=dateAsc") == list(reversed(games_of(client)))


def test_export_by_ids_in_the_order_asked(client):
    alice, robot = Account(client, "alice"), Account(client, "robot", bot=True)
    first, second = finished_game(alice, robot), start(robot, alice)
    response = post_text(client, "/api/games/export/_ids", f"{second},nothere,{first}", **NDJSON)
    assert [g["id"] for g in ndjson_lines(response)] == [second, first]
    text = post_text(client, "/api/games/export/_ids", f"{first},{second}")
    assert text.headers["content-type"].startswith("application/x-chess-pgn")
    assert [r.tags["GameId"] for r in record.parse_many(text.text)] == [first, second]
    assert_error(post_text(client, "/api/games/export/_ids", ""), 400, "request.invalid")
    many = ",".join(f"g{i}" for i in range(301))
    assert_error(post_text(client, "/api/games/export/_ids", many), 400, "request.invalid")


# ---- lichess's clock fields ----------------------------------------------------------------------
def test_time_control_show_is_lichess_s_for_sub_minute_clocks(client):
    alice, robot = Account(client, "alice"), Account(client, "robot", bot=True)
    shown = {}
    for limit, increment in ((15, 0), (30, 0), (45, 1), (20, 1), (90, 0), (60, 0), (300, 3)):
        data = challenge(alice, "robot", clock={"limit": limit, "increment": increment})
        check(ChallengeOut, data)
        shown[limit] = data["timeControl"]["show"]
    assert shown == {
        15: "¼+0",
        30: "½+0",
        45: "¾+1",
        20: "0.33+1",
        90: "1.5+0",
        60: "1+0",
        300: "5+3",
    }
    quick = start(alice, robot, clock={"limit": 15, "increment": 0})
    assert record.parse(get(client, f"/game/export/{quick}").text).tags["TimeControl"] == "15+0"
    assert get(client, f"/game/export/{quick}", **JSON).json()["speed"] == "ultraBullet"


def test_a_correspondence_challenge_has_days_per_turn_and_no_clock(client):
    alice, robot = Account(client, "alice"), Account(client, "robot", bot=True)
    data = check(ChallengeOut, challenge(alice, "robot", days=3))
    assert data["timeControl"] == {"type": "correspondence", "daysPerTurn": 3}
    assert data["speed"] == "correspondence"
    unlimited = challenge(alice, "robot")
    assert unlimited["timeControl"] == {"type": "unlimited"}
    assert unlimited["speed"] == "correspondence"
    game_id = start(alice, robot, days=3)
    with robot.stream(f"/api/bot/game/stream/{game_id}") as response:
        full = check(GameFullEvent, Lines(response).next("gameFull"))
    assert full["daysPerTurn"] == 3 and full["clock"] is None
    assert full["speed"] == "correspondence"
    exported = get(client, f"/game/export/{game_id}", **JSON).json()
    assert exported["daysPerTurn"] == 3 and "clock" not in exported
    assert exported["speed"] == "correspondence"
    tags = record.parse(get(client, f"/game/export/{game_id}").text).tags
    assert tags["TimeControl"] == "-"
    no_days = start(alice, robot)
    with robot.stream(f"/api/bot/game/stream/{no_days}") as response:
        assert "daysPerTurn" not in Lines(response).next("gameFull")


def test_the_new_endpoints_are_in_the_openapi_schema_with_their_models(client):
    client.cookies.clear()
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    expected = {
        "/api/token/test": ("post", "TokenTestOut"),
        "/api/account/playing": ("get", "NowPlayingOut"),
        "/api/account/preferences": ("get", "PreferencesOut"),
        "/api/user/{username}": ("get", "UserOut"),
        "/api/users": ("post", "UserOut"),
        "/api/users/status": ("get", "UserStatusOut"),
        "/api/user/{username}/current-game": ("get", "LichessGameOut"),
        "/game/export/{game_id}": ("get", "LichessGameOut"),
        "/api/games/user/{username}": ("get", "LichessGameOut"),
        "/api/games/export/_ids": ("post", "LichessGameOut"),
    }
    for path, (method, model) in expected.items():
        operation = paths[path][method]
        assert f"#/components/schemas/{model}" in str(operation["responses"]["200"]), path
        assert model in schema["components"]["schemas"]
    for path in ("/api/token/test", "/api/users", "/api/games/export/_ids"):
        assert set(paths[path]["post"]["requestBody"]["content"]) == {"text/plain"}


def test_the_multi_game_exports_count_as_streams_in_the_rate_limits(make_client):
    client = make_client(ratelimit_stream_burst=2, ratelimit_stream_per_s=0.01)
    alice = Account(client, "alice")
    assert alice.get("/api/games/user/alice").status_code == 200
    ids = post_text(client, "/api/games/export/_ids", "nothere", **alice.headers)
    assert ids.status_code == 200 and ids.text == ""
    body = assert_error(alice.get("/api/games/user/alice"), 429, "ratelimit")
    assert body["ratelimit"]["key"] == "stream"
    refused = post_text(client, "/api/games/export/_ids", "nothere", **alice.headers)
    assert_error(refused, 429, "ratelimit")
    # A single game's export is not a stream.
    assert_error(get(client, "/game/export/nothere"), 404, "game.not_found")
