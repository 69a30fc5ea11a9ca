"""A bot author gets a rating without a second bot: berserk (unmodified) challenges a built-in
opponent — the server's own bots' process, really started — to a rated game, plays it out,
and both ratings count it."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import berserk
import httpx
import pytest

import engine
from tests.server import Server, account_token, running

LEVEL = "kodama-random"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    # The author answers kodama-random as fast as it moves, beyond the 10 moves a second a
    # game is allowed (a long game then met a 429): this test is about ratings, not limits.
    with running(
        tmp_path,
        "berserk-rated-builtin-Tq7Wm3Lx9Zc2Vb5N",
        KODAMA_BUILTIN_BOTS="true",
        KODAMA_RATELIMIT_MOVE_PER_S="1000",
    ) as srv:
        deadline = time.monotonic() + 90
        while LEVEL not in httpx.get(f"{srv.base}/api/bot/online", timeout=10).text:
            assert time.monotonic() < deadline, "the built-in bots never came online"
            time.sleep(0.1)  # polling another process, not making time pass
        yield srv


@pytest.mark.timeout(120)  # a stream that never ends fails here, not at the suite's bound
def test_a_bot_plays_a_builtin_opponent_rated_and_both_ratings_count_it(server: Server) -> None:
    token = account_token(server, "author", "bot:play,challenge:read,challenge:write")
    client: Any = berserk.Client(session=berserk.TokenSession(token), base_url=server.base)
    client.account.upgrade_to_bot()
    events = client.bots.stream_incoming_events()
    created = client.challenges.create(
        LEVEL, rated=True, variant="dobutsu", color="white", clock_limit=300, clock_increment=3
    )
    assert created["rated"] is True
    for event in events:  # the bot accepts: the game starts
        assert event["type"] != "challengeDeclined", event
        if event["type"] == "gameStart":
            assert event["game"]["id"] == created["id"]
            break

    game = engine.get_game("dobutsu")
    choose = random.Random(7)
    for line in client.bots.stream_game_state(created["id"]):
        state = line["state"] if line["type"] == "gameFull" else line
        if line["type"] == "gameFull":
            assert line["rated"] is True
        elif line["type"] != "gameState":
            continue
        if state["status"] != "started":
            break
        moves = state["moves"].split()
        if len(moves) % 2 == 0:  # white: the author's turn
            pos = game.start()
            for text in moves:
                pos = game.play(pos, text)
            client.bots.make_move(created["id"], choose.choice(game.legal_moves(pos)))

    for username in ("author", LEVEL):
        perf = client.users.get_public_data(username)["perfs"]["dobutsu"]
        assert perf["games"] == 1, username
