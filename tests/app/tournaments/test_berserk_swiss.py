"""berserk's Swiss calls (the lichess Python client, unmodified) against a real server: a
Swiss created under a team id, read, joined by three BOT accounts whose round-1 game starts
through their event streams (the third has the bye); the results (NDJSON), the games, the
TRF; a withdrawal and the end by its creator (docs/api.md, "Swiss tournaments")."""

from __future__ import annotations

import time
from typing import Any

import berserk
import pytest

from tests.app.outbox.test_outbox_crash import TRY_GAME
from tests.app.tournaments.test_berserk_tournaments import Player, wait_for
from tests.server import Server, running


@pytest.fixture
def server(tmp_path: Any) -> Any:
    with running(tmp_path, "swiss-berserk-Hq3Zt8Lm2Kc7Vb5Xn9Rd4Pw6", None) as srv:
        yield srv


def test_berserk_creates_joins_and_reads_a_swiss(server: Server) -> None:
    org = Player(server, "organiser", bot=False, events=False)
    bots = [Player(server, name, bot=True) for name in ("alphabot", "bravobot", "charliebot")]
    made = org.client.tournaments.create_swiss(
        "kodama-club",
        clockLimit=180,
        clockIncrement=0,
        nbRounds=1,
        name="Bots Swiss",
        startsAt=int(time.time() * 1000) + 3_000,
        roundInterval=0,
        variant="dobutsu",
        rated=True,
    )
    sid = made["id"]
    assert made["name"] == "Bots Swiss" and made["clock"] == {"limit": 180, "increment": 0}
    assert made["startsAt"].year >= 2024  # berserk read lichess's ISO date as a datetime
    assert (made["nbRounds"], made["status"]) == (1, "created")
    for bot in bots:
        assert bot.client.tournaments.join_swiss(sid) is None
    assert org.client.tournaments.get_swiss(sid)["nbPlayers"] == 3

    def round_one() -> Any:
        found = org.client.tournaments.get_swiss(sid)
        return found if found["round"] == 1 else None

    info = wait_for(round_one)
    (game,) = [r for r in info["rounds"] if r["board"]]
    (bye,) = [r["first"] for r in info["rounds"] if not r["board"]]
    by_name = {b.client.account.get()["username"]: b for b in bots}
    first, second = by_name[game["first"]], by_name[game["second"]]
    assert first.event("gameStart")["game"]["id"] == game["gameId"]
    for ply, move in enumerate(TRY_GAME):
        (first if ply % 2 == 0 else second).api.make_move(game["gameId"], move)

    def over() -> Any:
        found = org.client.tournaments.get_swiss(sid)
        return found if found["status"] == "finished" else None

    assert wait_for(over)["nbOngoing"] == 0
    results = list(org.client.tournaments.stream_swiss_results(sid))
    assert [(r["rank"], r["points"]) for r in results] == [(1, 1.0), (2, 1.0), (3, 0.0)]
    assert results[2]["username"] == game["second"]
    assert {r["username"] for r in results[:2]} == {game["first"], bye}
    (top,) = org.client.tournaments.stream_swiss_results(sid, limit=1)
    assert top == results[0]
    games = list(org.client.tournaments.export_swiss_games(sid))
    assert [g["id"] for g in games] == [game["gameId"]]
    trf = org.client.tournaments.export_swiss_trf(sid)
    assert trf.startswith("012 Bots Swiss\n") and trf.count("\n001 ") == 3

    later = org.client.tournaments.create_swiss("kodama-club", clockLimit=60, clockIncrement=1,
                                                nbRounds=5)  # fmt: skip
    assert bots[0].client.tournaments.join_swiss(later["id"]) is None
    assert bots[0].client.tournaments.withdraw_swiss(later["id"]) is None
    assert org.client.tournaments.get_swiss(later["id"])["nbPlayers"] == 0
    with pytest.raises(berserk.exceptions.ResponseError) as refused:
        bots[1].client.tournaments.terminate_swiss(later["id"])
    assert refused.value.status_code == 403
    assert org.client.tournaments.terminate_swiss(later["id"]) is None
    assert org.client.tournaments.get_swiss(later["id"])["status"] == "finished"
