"""A person in a real browser plays a bot: the bot (``python -m bots.random``, a process of
its own) is listed under "Play the computer", the person's click challenges it, it accepts,
and the game is played to its end, the person clicking moves on the board."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.conftest import LAUNCH_ARGS, ensure_chromium
from tests.browser.helpers import Game, page_state, parse
from tests.server import ROOT, Server, running

from .test_bot_games import check_played_out, register_bot

playwright_sync = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(
        tmp_path_factory.mktemp("browser-bot"), "browser-bot-bgtppQ2Z-vbrPRbaC0lF7DLBCeBgF5lv"
    ) as srv:
        yield srv


@pytest.fixture(scope="module")
def bot(server: Server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``mybot`` registered over the API and played by the example bot's process."""
    token = register_bot(server.base, "mybot")
    log = tmp_path_factory.mktemp("bot-log") / "bot.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "bots.random", "--server", server.base, "--seed", "1"],
            cwd=ROOT,
            env={**os.environ, "KODAMA_BOT_TOKEN": token},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        yield "mybot"
    finally:
        process.terminate()
        process.wait(timeout=30)
        print(Path(log).read_text(encoding="utf-8", errors="replace"))


def click_move(page: Any, game: Game, text: str) -> None:
    """A dobutsu move by clicks: the piece (on the board or in hand), then its square.
    (tests/browser/helpers.make_move waits for an exact ply, which a bot replying at once
    can overtake.)"""
    move = parse(text)
    if move["drop"]:
        page.locator(f'.play [data-hand="{move["drop"]}"][data-side="first"]').click()
    else:
        page.locator(f'#board [data-square="{move["origin"]}"]').click()
    page.locator(f'#board [data-square="{move["to"]}"]').click()


def test_a_person_challenges_the_bot_from_the_lobby_and_plays_it_to_the_end(
    server: Server, bot: str
) -> None:
    rng = random.Random(5)
    with playwright_sync.sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=str(ensure_chromium()), headless=True, args=LAUNCH_ARGS
        )
        try:
            context = browser.new_context(base_url=server.base)
            context.set_default_timeout(20_000)
            page = context.new_page()
            page.goto("/?game=dobutsu")
            page.check('input[name="color"][value="first"]')
            page.check('input[name="clock"][value="none"]')
            button = page.locator(f'#bot-list [data-bot="{bot}"]')
            button.wait_for()  # the lobby lists the bots with an event stream open
            button.click()
            page.wait_for_url("**/game/*")
            game_id = page.url.rsplit("/", 1)[1]
            page.wait_for_function(
                "() => { const g = window.kodama && window.kodama.page.game;"
                " return g && g.status === 'started'; }"
            )
            assert page_state(page)["seat"] == "first"
            game = Game("dobutsu")
            for _ in range(300):
                state = page_state(page)
                for move in state["moves"][len(game.moves) :]:
                    game.play(move)  # the bot's replies, checked by the engine
                if state["status"] != "started":
                    break
                if game.mover == "first":
                    click_move(page, game, rng.choice(game.game.legal_moves(game.pos)))
                page.wait_for_function(
                    """n => { const p = window.kodama.page, g = p.game;
                      return (g.moves.length > n && !p.awaiting) || g.status !== 'started'; }""",
                    arg=len(game.moves),
                )
            assert game.result is not None, "the game did not end"
            assert page_state(page)["status"] != "started"
        finally:
            browser.close()
    exported = httpx.get(f"{server.base}/api/game/{game_id}").json()
    assert {exported["players"][c]["user"]["name"] for c in ("white", "black")} >= {bot}
    assert exported["moves"].split() == game.moves
    check_played_out(exported)
