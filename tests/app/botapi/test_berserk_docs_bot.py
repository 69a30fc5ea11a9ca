"""docs/bots.md's berserk bot, extracted as printed, run against a real server through the
page's walk-through: its own challenge shows in its event stream (only the challenged may
accept it), a challenge from another account is accepted, and its game is played to its end
with the move limit small enough that the bot meets 429s and waits them out."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import berserk
import httpx
import pytest

import engine
from tests.app.botapi.test_berserk import Player, choose, export, lines
from tests.server import ROOT, Server, running

MAX_PLIES = 24  # then the opponent resigns (on its own turn): the game stays short


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(
        tmp_path_factory.mktemp("berserk-docs-bot"),
        "berserk-docs-bot-Hk4pQ8zW2mNc6vRt1yLb9sXe3uJa7dFg",
        KODAMA_KEEPALIVE_SECONDS="0.5",
        # Two moves at once, then two a second: a bot that answers at once meets a 429.
        KODAMA_RATELIMIT_MOVE_PER_S="2",
        KODAMA_RATELIMIT_MOVE_BURST="2",
    ) as srv:
        yield srv


def docs_bot() -> str:
    """The Python block under docs/bots.md's "A small Python bot" heading, as is."""
    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    section = text.split("## A small Python bot", 1)[1]
    found = re.search(r"```python\n(.*?)```", section, re.S)
    assert found is not None, "no python block in the section"
    return found.group(1)


def patiently(call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """The test's own player waits out its 429s too, as long as the server's Retry-After
    says (the wait the rate limit needs)."""
    while True:
        try:
            return call(*args, **kwargs)
        except berserk.exceptions.ResponseError as error:
            if error.status_code != 429:
                raise
            time.sleep(float(error.response.headers["Retry-After"]))


def pick(rules: Any, fen: str, legal: list[str], ply: int, rng: random.Random) -> str:
    """The opponent's move: none that ends the game before ply 10 (the bot moves often enough
    to meet the rate limit), then one that wins at once if there is one."""
    if ply >= 10:
        return choose(rules, fen, legal, rng)
    pos = rules.from_text(fen)
    quiet = [m for m in legal if rules.result(rules.play(pos, m)) is None]
    return rng.choice(quiet or legal)


def test_the_bot_of_the_docs_survives_the_walk_through(server, tmp_path: Path):
    code = docs_bot()
    bot = Player(server, "docbot", bot=True, events=False)
    alpha = Player(server, "alpha", bot=True)
    script = tmp_path / "docs_bot.py"
    script.write_text(code, encoding="utf-8")
    env = {**os.environ, "KODAMA_TOKEN": bot.token, "KODAMA_URL": server.base}
    log_path = tmp_path / "bot.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, str(script)], env=env, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT
        )
    try:
        # Step 5: the bot's token challenges someone; its event stream carries that challenge
        # too, whose challenger is the bot (accepting it would be 403 challenge.not_yours).
        sent = httpx.post(
            f"{server.base}/api/challenge/alpha",
            headers={"Authorization": f"Bearer {bot.token}"},
            data={"variant": "dobutsu", "clock.limit": "60", "clock.increment": "1"},
            timeout=30,
        )
        assert sent.status_code == 200, sent.text
        alpha.event("challenge", sent.json()["id"])
        # Another account challenges the bot, which accepts and plays the game to its end.
        created = patiently(
            alpha.client.challenges.create, "docbot", rated=False, variant="dobutsu"
        )
        game_id = created["id"]
        alpha.event("gameStart", game_id)
        stream = alpha.client.bots.stream_game_state(game_id)
        full = lines(stream, "gameFull")
        color = "white" if full["white"]["id"] == alpha.id else "black"
        state = full["state"]
        rng = random.Random(10)
        rules = engine.get_game("dobutsu")
        while state["status"] == "started":
            if state["turn"] == color:
                ply = len(state["moves"].split())
                if ply >= MAX_PLIES:
                    patiently(alpha.client.bots.resign_game, game_id)
                else:
                    move = pick(rules, state["fen"], state["legalMoves"], ply, rng)
                    patiently(alpha.client.bots.make_move, game_id, move)
            state = lines(stream, "gameState")
        assert export(server, game_id)["status"] not in ("started", "created")
        assert process.poll() is None, log_path.read_text()
        assert log_path.read_text() == ""  # no traceback: nothing went wrong on its side
        # The limit bit in this game: both players answer at once, so each is refused its
        # third move within half a second of the first (the access log has both players').
        refused = rf'"POST /api/bot/game/{game_id}/move/\S+ HTTP/1.1" 429'
        assert re.search(refused, server.log.read_text()), server.log_tail()
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_the_answers_and_the_draw_offer_the_bot_pages_show(server):
    """docs/bots.md's walk-through answers (an account's id is its username in lower case, a
    new account's ``perfs`` is empty) and its way for a berserk bot to offer a draw."""
    mine = Player(server, "MyBot", bot=True, events=False)
    rival = Player(server, "rival", bot=True)
    account = httpx.get(
        f"{server.base}/api/account", headers={"Authorization": f"Bearer {mine.token}"}, timeout=30
    ).json()
    assert account == {
        "id": "mybot",
        "username": "MyBot",
        "title": "BOT",
        "createdAt": account["createdAt"],
        "perfs": {},
    }
    created = patiently(mine.client.challenges.create, "rival", rated=False, variant="dobutsu")
    game = created["id"]
    assert created["challenger"]["id"] == "mybot" and created["destUser"]["id"] == "rival"
    patiently(rival.client.bots.accept_challenge, game)
    rival.event("gameStart", game)
    # As printed: the token's session, a requests.Session, posts to the bot route.
    for player in (mine, rival):
        session = berserk.TokenSession(player.token)
        session.post(f"{server.base}/api/bot/game/{game}/draw/yes").raise_for_status()
    exported = export(server, game)
    assert exported["status"] == "draw"
    # GET /api/game/{id}: the users' rating keys are there, and null (docs/api.md).
    white = exported["players"]["white"]["user"]
    assert white["id"] in ("mybot", "rival")
    assert white["rating"] is None and white["provisional"] is None
