"""berserk (the lichess Python client, unmodified) against a real server: rated games between
two BOT accounts, then the rating methods of docs/api.md's "Client compatibility" table —
``users.get_rating_history``, ``users.get_leaderboard``, ``users.get_public_data``'s
``perfs`` — and the players' ratings in ``gameFull``."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import berserk
import pytest

import engine
from app.ratings import glicko2
from tests.app.accounts_and_streams import MATE
from tests.server import Server, account_token, running

BOT_SCOPES = "bot:play,challenge:read,challenge:write"
# Two new players alternating wins leave provisional (RD <= 110) after their 17th game.
GAMES = 17


@pytest.fixture(params=["sqlite", "postgres"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    url = request.getfixturevalue("postgres_url") if request.param == "postgres" else None
    with running(
        tmp_path,
        "berserk-ratings-Zq8VmC2xLkR5tW9bNa3pYe7uHs1dGf4J",
        url,
        KODAMA_KEEPALIVE_SECONDS="0.2",
        # GAMES challenges, their games and streams, as fast as the machine goes
        KODAMA_RATELIMIT_CHALLENGE_BURST="200",
        KODAMA_RATELIMIT_GAME_BURST="200",
        KODAMA_RATELIMIT_STREAM_BURST="200",
        KODAMA_RATELIMIT_MOVE_BURST="1000",
    ) as srv:
        yield srv


def bot(server: Server, username: str) -> Any:
    """A BOT account's berserk client, as a bot author makes one."""
    token = account_token(server, username, BOT_SCOPES)
    client = berserk.Client(session=berserk.TokenSession(token), base_url=server.base)
    client.account.upgrade_to_bot()  # type: ignore[no-untyped-call]
    return client


def line_of(stream: Iterator[dict[str, Any]], kind: str) -> dict[str, Any]:
    for _ in range(20):
        found = next(stream)
        if found["type"] == kind:
            return found
    raise AssertionError(f"no {kind} line")


def rated_mate(white: Any, black: Any, white_name: str, black_name: str) -> dict[str, Any]:
    """A rated dobutsu game white wins by MATE; its gameFull. The last ``gameState`` (the end)
    is read before returning, so the ratings have been counted."""
    created = white.challenges.create(
        black_name, rated=True, variant="dobutsu", color="white", clock_limit=300, clock_increment=3
    )
    assert created["rated"] is True
    black.bots.accept_challenge(created["id"])
    stream = white.bots.stream_game_state(created["id"])
    full = line_of(stream, "gameFull")
    assert full["rated"] is True
    assert (full["white"]["name"], full["black"]["name"]) == (white_name, black_name)
    for ply, move in enumerate(MATE):
        (white if ply % 2 == 0 else black).bots.make_move(created["id"], move)
        state = line_of(stream, "gameState")
    assert state["status"] == "mate" and state["winner"] == "white"
    return full


def test_rated_bot_games_reach_the_rating_methods_of_berserk(server: Server) -> None:
    alpha, bravo = bot(server, "alpha"), bot(server, "bravo")
    began = datetime.datetime.now(datetime.UTC).date()
    fulls = []
    for n in range(GAMES):  # each wins every other game, as white
        if n % 2 == 0:
            fulls.append(rated_mate(alpha, bravo, "alpha", "bravo"))
        else:
            fulls.append(rated_mate(bravo, alpha, "bravo", "alpha"))

    # gameFull: each player's rating as of the game's start; provisional while it is
    first = fulls[0]
    for side in ("white", "black"):
        assert first[side]["rating"] == glicko2.DEFAULT_RATING
        assert first[side]["provisional"] is True
    second = fulls[1]  # bravo (white) lost the first game, alpha won it
    assert second["white"]["rating"] < glicko2.DEFAULT_RATING < second["black"]["rating"]

    # users.get_public_data: perfs of the game played rated, as of now; none of the others
    perfs = {name: alpha.users.get_public_data(name)["perfs"] for name in ("alpha", "bravo")}
    for perf in perfs.values():
        assert set(perf) == {"dobutsu"}
        assert perf["dobutsu"]["games"] == GAMES
        assert perf["dobutsu"]["rd"] <= glicko2.PROVISIONAL_DEVIATION
        assert "prov" not in perf["dobutsu"]
    # alpha won the odd count of games: the 17th (alpha white) the last
    assert perfs["alpha"]["dobutsu"]["rating"] > perfs["bravo"]["dobutsu"]["rating"]
    last = fulls[-1]
    assert last["white"]["name"] == "alpha"
    assert last["white"]["provisional"] is True  # RD 111 after 16 games: the 17th ends it
    assert last["white"]["rating"] < perfs["alpha"]["dobutsu"]["rating"]  # it won that one

    # users.get_rating_history: one entry per game; one point today, the rating now
    history = alpha.users.get_rating_history("alpha")
    names = [engine.get_game(g).name for g in engine.game_ids()]
    assert [entry["name"] for entry in history] == names
    points = {game: entry["points"] for game, entry in zip(engine.game_ids(), history, strict=True)}
    (point,) = points.pop("dobutsu")  # all on one UTC day (or two, over midnight: the last)
    day = datetime.date(point.year, point.month + 1, point.day)  # lichess's months from 0
    assert began <= day <= datetime.datetime.now(datetime.UTC).date()
    assert point.rating == perfs["alpha"]["dobutsu"]["rating"]
    assert list(points.values()) == [[]] * 4

    # users.get_leaderboard(perf_type, count): both, best first; other games have no one
    board = alpha.users.get_leaderboard("dobutsu", count=10)
    assert [u["username"] for u in board] == ["alpha", "bravo"]
    assert board[0]["title"] == "BOT"
    assert board[0]["perfs"]["dobutsu"]["rating"] == perfs["alpha"]["dobutsu"]["rating"]
    assert board[1]["perfs"]["dobutsu"]["progress"] == perfs["bravo"]["dobutsu"]["prog"]
    assert alpha.users.get_leaderboard("jungle") == []
    with pytest.raises(berserk.exceptions.ResponseError) as refused:
        alpha.users.get_leaderboard("chess")
    assert refused.value.status_code == 400
    assert refused.value.cause["code"] == "perf.unknown"
