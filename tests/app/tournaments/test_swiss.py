"""A Swiss of 7 players over 3 rounds played through the API on the injected clock: each
round paired as the stated system pairs it (app/tournaments/swisspairing.py, checked by hand
in test_swisspairing.py) from the results the API reports, a bye each round to a different
player, the next round as soon as the last game of a round ended, the standings with their
tiebreaks, the TRF export; late joins, withdrawals and the refusals."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from app.core.time import ManualClock
from app.tournaments.swisspairing import pair_round
from app.tournaments.swissstandings import Joined, Played, entrants, standings
from tests.app.accounts_and_streams import Account, assert_error, services_of
from tests.app.conftest import served_page
from tests.app.tournaments.arena import play_out
from tests.app.tournaments.test_arena import poster

TEAM = "kodama-club"


def swiss_info(player: Account, sid: str) -> dict[str, Any]:
    response = player.client.get(f"/api/swiss/{sid}")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def create(owner: Account, clock: ManualClock, **form: Any) -> dict[str, Any]:
    body = {
        "clock.limit": 180,
        "clock.increment": 0,
        "nbRounds": 3,
        "startsAt": clock.now_ms() + 60_000,
        "roundInterval": 0,
        **form,
    }
    response = owner.post(f"/api/swiss/new/{TEAM}", body)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def test_seven_players_three_rounds_paired_by_the_stated_system(
    client: TestClient, clock: ManualClock
) -> None:
    post = poster(clock)
    owner = Account(client, "organiser")
    names = ["anna", "boris", "cleo", "dmitri", "eva", "femi", "gus"]
    players = {n: Account(client, n) for n in names}
    made = create(owner, clock, name="Friday Swiss")
    sid = made["id"]
    assert (made["status"], made["round"], made["nbRounds"], made["teamId"]) == (
        "created", 0, 3, TEAM,
    )  # fmt: skip
    for p in players.values():
        assert post(p, f"/api/swiss/{sid}/join") == 200
    assert swiss_info(owner, sid)["nbPlayers"] == 7

    # The reference: the pure system fed with what the API reports (all rated 1500: the
    # ranking falls to the player ids).
    by_id = {p.id: p for p in players.values()}
    joined = [Joined(p.id, p.username, 1500, 0, False) for p in players.values()]
    played: list[Played] = []
    # The games' ends, by board: first wins, a draw, second wins.
    outcomes = ["first", None, "second"]
    byes = []
    clock.advance(60_000)  # the start: round 1
    for number in (1, 2, 3):
        now = swiss_info(owner, sid)
        assert (now["status"], now["round"], now["nbOngoing"]) == ("started", number, 3)
        expected = pair_round(entrants(standings(joined, played, number - 1), played))
        rows = [r for r in now["rounds"] if r["round"] == number]
        games = [(players[r["first"]].id, players[r["second"]].id) for r in rows if r["board"]]
        bye = [players[r["first"]].id for r in rows if not r["board"]]
        assert games == expected.pairs and bye == [expected.bye]
        byes.append(expected.bye)
        for board, row in enumerate(r for r in rows if r["board"]):
            first, second = players[row["first"]], players[row["second"]]
            assert swiss_info(owner, sid)["round"] == number  # waits for the last game
            play_out(post, row["gameId"], first, second, 6, outcomes[board])
            played.append(
                Played(number, board + 1, first.id, second.id, "finished", outcomes[board])
            )
        played.append(Played(number, 0, str(expected.bye), None, "finished", None))
    assert len(set(byes)) == 3

    over = swiss_info(owner, sid)
    assert (over["status"], over["round"], over["nbOngoing"]) == ("finished", 3, 0)
    assert "nextRound" not in over
    table = standings(joined, played, 3)
    with client.stream("GET", f"/api/swiss/{sid}/results") as response:
        lines = [json.loads(line) for line in response.iter_lines() if line]
    assert [
        (r["rank"], r["username"], r["points"], r["tieBreak"], r["buchholz"]) for r in lines
    ] == [
        (s.rank, by_id[s.player_id].username, s.points, s.sonneborn_berger, s.buchholz)
        for s in table
    ]
    assert sum(r["points"] for r in lines) == 3 * 3 + 3  # three games and a bye a round
    assert set(lines[0]) >= {"rank", "points", "tieBreak", "rating", "username", "performance"}

    ndjson = {**owner.headers, "accept": "application/x-ndjson"}
    with client.stream("GET", f"/api/swiss/{sid}/games", headers=ndjson) as response:
        ids = [json.loads(line)["id"] for line in response.iter_lines() if line]
    assert sorted(ids) == sorted(r["gameId"] for r in over["rounds"] if r["gameId"])

    trf = client.get(f"/swiss/{sid}.trf")
    assert trf.status_code == 200 and trf.headers["content-type"].startswith("text/plain")
    lines_trf = trf.text.splitlines()
    assert lines_trf[0] == "012 Friday Swiss"
    assert "092 Individual: Swiss-System" in lines_trf and "XXR 3" in lines_trf
    rows_trf = [line for line in lines_trf if line.startswith("001")]
    assert len(rows_trf) == 7
    numbers = {row[14:47].strip(): int(row[4:8]) for row in rows_trf}
    for row in rows_trf:  # TRF-16's columns
        me = row[14:47].strip()
        standing = next(s for s in table if by_id[s.player_id].username == me)
        assert float(row[80:84]) == standing.points and int(row[85:89]) == standing.rank
        for r in range(3):
            opponent, colour, code = (
                row[91 + 10 * r : 95 + 10 * r],
                row[96 + 10 * r],
                row[98 + 10 * r],
            )
            theirs, mine_colour, mine_code = standing.sheet[r + 1]
            if theirs is None:
                assert (opponent, colour, code) == ("0000", "-", "U")
            else:
                assert int(opponent) == numbers[by_id[theirs].username]
                assert (colour, code) == (mine_colour, mine_code)


def test_late_joins_withdrawals_and_refusals(client: TestClient, clock: ManualClock) -> None:
    post = poster(clock)
    owner = Account(client, "organiser")
    a, b, c, d, e = (Account(client, n) for n in ("anna", "boris", "cleo", "dmitri", "eva"))
    assert_error(owner.post(f"/api/swiss/new/{TEAM}", {"clock.limit": 180, "nbRounds": 0}),
                 400, "swiss.invalid_rounds")  # fmt: skip
    assert_error(owner.post(f"/api/swiss/new/{TEAM}", {"nbRounds": 3}), 400, "request.invalid")
    assert_error(owner.client.get("/api/swiss/nope"), 404, "swiss.not_found")
    assert_error(client.post("/api/swiss/nope/join"), 401, "account.required")
    sid = create(owner, clock, nbRounds=2)["id"]
    for p in (a, b, c, d):
        assert post(p, f"/api/swiss/{sid}/join") == 200
    assert post(d, f"/api/swiss/{sid}/withdraw") == 200  # before the start: gone
    assert swiss_info(owner, sid)["nbPlayers"] == 3
    assert_error(a.post(f"/api/swiss/{sid}/terminate"), 403, "swiss.not_yours")

    clock.advance(60_000)  # round 1: two of anna, boris, cleo play, one has the bye
    one = swiss_info(owner, sid)
    assert one["round"] == 1 and one["nbOngoing"] == 1
    assert post(e, f"/api/swiss/{sid}/join") == 200  # late: absent in round 1
    game = next(r for r in one["rounds"] if r["board"])
    by_name = {p.username: p for p in (a, b, c, e)}
    first, second = by_name[game["first"]], by_name[game["second"]]
    assert post(second, f"/api/swiss/{sid}/withdraw") == 200  # their game goes on
    play_out(post, game["gameId"], first, second, 6, "first")

    two = swiss_info(owner, sid)  # the last game ended: round 2 at once, without the withdrawn
    assert two["round"] == 2
    paired = {n for r in two["rounds"] if r["round"] == 2 for n in (r["first"], r["second"]) if n}
    assert paired == {"anna", "boris", "cleo", "eva"} - {second.username}
    eva = next(s for s in two["standings"] if s["username"] == "eva")
    # the round she missed counts nothing; on 0 points, the lowest, she has round 2's bye
    assert eva["points"] == 1
    assert [r["first"] for r in two["rounds"] if r["round"] == 2 and not r["board"]] == ["eva"]
    trf = client.get(f"/swiss/{sid}.trf").text
    eva_line = next(line for line in trf.splitlines() if "eva" in line)
    assert eva_line[91:99] == "0000 - Z"  # round 1: not paired
    assert_error(e.post(f"/api/swiss/{sid}/join"), 409, "swiss.finished")  # no round left
    assert post(owner, f"/api/swiss/{sid}/terminate") == 200
    assert swiss_info(owner, sid)["status"] == "finished"
    assert_error(owner.post(f"/api/swiss/{sid}/terminate"), 409, "swiss.finished")


def test_the_page_of_a_swiss(client: TestClient, clock: ManualClock) -> None:
    owner = Account(client, "organiser")
    sid = create(owner, clock)["id"]
    page = client.get(f"/swiss/{sid}")
    assert page.status_code == 200 and page.text == served_page("swiss.html")
    assert client.get("/swiss/nothere").status_code == 404
    assert client.get(f"/swiss/{sid}.trf").text.startswith("012 ")  # the export, not the page
    assert "me" not in swiss_info(owner, sid)
    assert owner.post(f"/api/swiss/{sid}/join").status_code == 200
    mine = owner.get(f"/api/swiss/{sid}").json()["me"]
    assert mine == {"withdrawn": False, "gameId": None}


def test_two_instances_never_start_a_round_twice(make_client: Any, clock: ManualClock) -> None:
    """Both instances tick on every turn of the clock; round 1 is paired once."""
    one, two = make_client(), make_client()
    post = poster(clock)
    owner = Account(one, "organiser")
    sid = create(owner, clock)["id"]
    for name in ("anna", "boris", "cleo", "dmitri"):
        assert post(Account(one, name), f"/api/swiss/{sid}/join") == 200
    clock.advance(60_000)
    seen = swiss_info(Account(two, "viewer"), sid)
    assert seen["round"] == 1 and len(seen["rounds"]) == 2 and seen["nbOngoing"] == 2
    # A tick that read the event before the round moved on starts nothing: the round
    # number moves only from the one it read, and the round's games are still on.
    swiss = services_of(two).swiss
    assert two.portal is not None
    assert two.portal.call(swiss.next_round, sid) is None
    assert len(two.portal.call(swiss.game_ids, sid)) == 2
