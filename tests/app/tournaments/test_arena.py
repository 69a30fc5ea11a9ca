"""An arena played to its end on the injected clock, through the API as its players use
it: the start, the waves (neighbours in the standings, never the last opponent while others
may come free), berserk, lichess's scoring checked against standings computed by hand, the
end (the games still on do not count) and the podium; the refusals."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from app.core.time import ManualClock
from app.games.terms import GameTerms
from app.games.timecontrol import TimeControl
from tests.app.accounts_and_streams import Account, assert_error, services_of
from tests.app.tournaments.arena import play_out


def poster(clock: ManualClock) -> Callable[[Account, str], int]:
    """A player's action, a second after the last one (a game's moves take time: its
    players' games are then told apart by when they started)."""

    def post(player: Account, path: str) -> int:
        clock.advance(1000)
        status: int = player.post(path).status_code
        return status

    return post


def info(player: Account, tid: str) -> dict[str, Any]:
    response = player.get(f"/api/tournament/{tid}")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def game_of(player: Account, tid: str) -> str:
    game_id = info(player, tid)["me"]["gameId"]
    assert game_id is not None
    return str(game_id)


def results(player: Account, tid: str) -> list[dict[str, Any]]:
    with player.stream(f"/api/tournament/{tid}/results?sheet=true") as response:
        assert response.status_code == 200
        return [json.loads(line) for line in response.iter_lines() if line]


def create(owner: Account, **form: Any) -> dict[str, Any]:
    body = {"clockTime": 3, "clockIncrement": 0, "minutes": 20, "waitMinutes": 1, **form}
    response = owner.post("/api/tournament", body)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def test_an_arena_is_paired_scored_and_finished_as_lichess_does(
    client: TestClient, clock: ManualClock
) -> None:
    post = poster(clock)
    owner = Account(client, "organiser")
    a, b, c, d = (Account(client, name) for name in ("anna", "boris", "cleo", "dmitri"))
    made = create(owner, name="Friday Arena")
    tid = made["id"]
    assert made["status"] == 10 and made["secondsToStart"] == 60 and made["nbPlayers"] == 0
    for player in (a, b, c, d):  # one second apart: the standings' order before any game
        assert post(player, f"/api/tournament/{tid}/join") == 200
    assert info(a, tid)["nbPlayers"] == 4

    clock.advance(56_000)  # started: the first wave pairs the standings' neighbours
    assert info(a, tid)["status"] == 20
    g1, g3 = game_of(a, tid), game_of(c, tid)
    assert game_of(b, tid) == g1 and game_of(d, tid) == g3
    # anna moves first and goes berserk: her clock is halved; once she moved, too late.
    assert post(a, f"/api/board/game/{g1}/berserk") == 200
    game = client.portal.call(services_of(client).games.reads.get, g1)  # type: ignore[union-attr]
    assert (game.first_ms, game.second_ms) == (90_000, 180_000)
    play_out(post, g1, a, b, 20, "first")  # anna: 2 + 1 (berserk, 20 plies)
    assert_error(b.post(f"/api/board/game/{g1}/berserk"), 400, "game.berserk")
    # anna and boris just played each other: they wait while others may come free.
    assert info(a, tid)["me"]["gameId"] is None
    play_out(post, g3, c, d, 30, None)  # cleo 1, dmitri 1

    # anna 3, cleo 1, dmitri 1 (joined later), boris 0: anna-cleo and dmitri-boris.
    g_ac = game_of(a, tid)
    assert game_of(c, tid) == g_ac
    g_db = game_of(d, tid)
    assert game_of(b, tid) == g_db
    play_out(post, g_ac, a, c, 30, "first")  # anna 2 (a second win: on fire next)
    play_out(post, g_db, d, b, 10, None)  # a draw in 5 moves each: nothing

    # anna 5; dmitri 1 (performance 1500) above cleo 1 (1250); boris 0.
    g_da = game_of(d, tid)
    assert game_of(a, tid) == g_da
    g_bc = game_of(b, tid)
    assert game_of(c, tid) == g_bc
    play_out(post, g_da, d, a, 30, "second")  # anna on fire: 4
    play_out(post, g_bc, b, c, 30, None)  # both after a draw, no win between: nothing

    standing = info(a, tid)["standing"]["players"]
    assert [(p["name"], p["score"], p["sheet"]["scores"]) for p in standing] == [
        ("anna", 9, "423"),
        ("cleo", 1, "001"),
        ("dmitri", 1, "001"),
        ("boris", 0, "000"),
    ]
    assert standing[0]["sheet"]["fire"] is True
    # The next wave is on; its games do not count once the arena is over (ended early by its
    # creator here: by the clock, they would have ended, by time, before the arena did).
    on = game_of(a, tid)
    assert_error(b.post(f"/api/tournament/{tid}/terminate"), 403, "tournament.not_yours")
    assert post(owner, f"/api/tournament/{tid}/terminate") == 200
    over = info(owner, tid)
    assert over["status"] == 30 and over["isFinished"]
    assert [p["name"] for p in over["podium"]] == ["anna", "cleo", "dmitri"]
    play_out(post, on, *((a, c) if game_of_first(client, on) == a.id else (c, a)), 4, "first")
    lines = results(owner, tid)
    assert [(r["rank"], r["username"], r["score"], r["performance"], r["sheet"]["scores"])
            for r in lines] == [
        (1, "anna", 9, 2000, "423"),
        (2, "cleo", 1, 1333, "001"),
        (3, "dmitri", 1, 1333, "001"),
        (4, "boris", 0, 1333, "000"),
    ]  # fmt: skip
    ndjson = {**owner.headers, "accept": "application/x-ndjson"}
    with client.stream("GET", f"/api/tournament/{tid}/games", headers=ndjson) as response:
        games = [json.loads(line)["id"] for line in response.iter_lines() if line]
    assert set(games) == {g1, g3, g_ac, g_db, g_da, g_bc, on, game_of_other(client, on, tid)}
    lists = owner.get("/api/tournament").json()
    assert tid in [t["id"] for t in lists["finished"]]


def game_of_other(client: TestClient, on: str, tid: str) -> str:
    """The other game of the last wave."""
    services = services_of(client)
    ids = client.portal.call(services.tournaments.game_ids, tid)  # type: ignore[union-attr]
    return str(ids[-1] if ids[-2] == on else ids[-2])


def game_of_first(client: TestClient, game_id: str) -> str:
    game = client.portal.call(services_of(client).games.reads.get, game_id)  # type: ignore[union-attr]
    return str(game.first_id)


def test_refusals_and_private_arenas(client: TestClient, clock: ManualClock) -> None:
    post = poster(clock)
    owner, other = Account(client, "organiser"), Account(client, "guest1")
    assert_error(owner.post("/api/tournament", {"clockTime": 3, "minutes": 0}), 400,
                 "tournament.invalid")  # fmt: skip
    assert_error(owner.post("/api/tournament", {"clockTime": 3, "minutes": 20, "variant": "go"}),
                 400, "tournament.invalid")  # fmt: skip
    # A rating limit that is not a number is the form's refusal, not a server error.
    assert_error(owner.post("/api/tournament", {"clockTime": 3, "minutes": 20,
                            "conditions.minRating.rating": "high"}), 400,
                 "tournament.invalid")  # fmt: skip
    made = create(owner, password="sesame", **{"conditions.maxRating.rating": 1400})
    tid = made["id"]
    assert made["private"] is True and made["maxRating"] == {"rating": 1400}
    assert_error(other.post(f"/api/tournament/{tid}/join"), 403, "tournament.password")
    # The password right, the rating (1500) above the limit.
    assert_error(other.post(f"/api/tournament/{tid}/join?password=sesame"), 403,
                 "tournament.rating")  # fmt: skip
    assert_error(owner.get("/api/tournament/nope"), 404, "tournament.not_found")
    open_one = create(owner, minutes=2)["id"]  # (short: each second of the clock runs the app)
    assert post(other, f"/api/tournament/{open_one}/join") == 200
    assert post(other, f"/api/tournament/{open_one}/withdraw") == 200  # before the start: gone
    assert info(other, open_one)["nbPlayers"] == 0
    # The lobby's next arena is the next public one.
    assert owner.get("/api/tournament/next").json()["id"] == open_one
    # Its time over, an arena ends by itself.
    clock.advance(3 * 60_000)
    assert info(other, open_one)["status"] == 30
    assert_error(other.post(f"/api/tournament/{open_one}/join"), 409, "tournament.finished")
    assert_error(owner.post(f"/api/tournament/{open_one}/terminate"), 409, "tournament.finished")


def test_two_instances_never_pair_one_player_twice(make_client: Any, clock: ManualClock) -> None:
    """Both instances' waves run on every turn of the clock; each player is in one game."""
    one, two = make_client(), make_client()
    post = poster(clock)
    owner = Account(one, "organiser")
    made = create(owner, waitMinutes=1)
    players = [Account(one, name) for name in ("anna", "boris", "cleo", "dmitri", "eva", "femi")]
    for player in players:
        assert post(player, f"/api/tournament/{made['id']}/join") == 200
    clock.advance(60_000)  # both start it and run waves
    pairs: dict[str, list[str]] = {}
    for player in players:
        pairs.setdefault(game_of(player, made["id"]), []).append(player.username)
    assert len(pairs) == 3 and all(len(names) == 2 for names in pairs.values())
    seen_from_two = two.get(f"/api/tournament/{made['id']}").json()
    assert {d["id"] for d in seen_from_two["duels"]} == set(pairs)
    # A wave that read the players before the other's games were in (another instance's,
    # say) inserts nothing: the marks are conditional.
    arenas = services_of(two).tournaments
    assert two.portal is not None
    tour = two.portal.call(arenas.get, made["id"])
    terms = GameTerms(tour.variant, dict(tour.rules), TimeControl(180_000, 0), rated=True)
    a, b = (p.id for p in players[:2])
    assert two.portal.call(arenas._insert_pairs, tour, terms, [(a, b)], {}) == []
    assert len(two.portal.call(arenas.game_ids, made["id"])) == 3
