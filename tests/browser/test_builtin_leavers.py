"""A visitor who leaves a game against the computer does not keep the next one out: the
lobby's button shows the level busy while its one seat is taken, free again once the player
has closed the tab, and the bot claims the game once the grace period has passed; the next
visitor then plays that level. A server of its own with the built-in bots on, one seat for
kodama-random and short grace periods (3 s once moved): the test waits, bounded, for those
real moments."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from tests.browser.accounts import sign_in
from tests.browser.helpers import wait_for_ply, wait_started
from tests.server import Server, running

LEVEL = "kodama-random"
BUTTON = f'[data-bot="{LEVEL}"]'


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(
        tmp_path_factory.mktemp("builtin-leavers-server"),
        "leavers-Hq3v9Lm2Xc7Rt5Wz1Kp8Nd4Fg6Bs0Je",
        KODAMA_BUILTIN_BOTS="true",
        KODAMA_BUILTIN_SEATS='{"random": 1}',
        KODAMA_GONE_SECONDS="3",
        KODAMA_GONE_UNMOVED_SECONDS="2",
    ) as srv:
        _until(lambda: LEVEL in _online(srv), "the built-in bots are online", 90)
        yield srv


def _online(server: Server) -> str:
    try:
        return httpx.get(f"{server.base}/api/bot/online", timeout=10).text
    except httpx.HTTPError:
        return ""


def _until(condition, what: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.1)  # polling another process, not making time pass


def play_the_computer(page, rated: bool = False) -> str:
    """From the lobby, a no-clock dobutsu game as first against LEVEL (rated: the form's box
    ticked); its id, once the bot has answered the first move."""
    page.goto("/?game=dobutsu")
    if rated:
        page.locator('input[name="rated"]').check()
    page.locator('input[name="clock"][value="none"]').check()
    page.locator('input[name="color"][value="first"]').check()
    button = page.locator(BUTTON)
    # The lobby draws its buttons once its script has run: none yet is not an error.
    page.wait_for_function(
        f"() => {{ const b = document.querySelector('{BUTTON}'); return b && !b.disabled; }}"
    )
    button.click()
    page.wait_for_url("**/game/*")
    wait_started(page)
    page.locator('#board [data-square="b1"]').click()
    page.locator('#board [data-square="a2"]').click()
    wait_for_ply(page, 2)  # the bot answered
    return str(page.url.rsplit("/", 1)[1])


def test_a_leaver_frees_the_computer_for_the_next_visitor(server: Server, new_context) -> None:
    # The server first: its database is made (asyncio.run) before Playwright's loop runs.
    leaver = new_context().new_page()
    game_id = play_the_computer(leaver)

    nxt = new_context().new_page()
    nxt.goto("/?game=dobutsu")
    # The one seat is taken: busy, and the button says so.
    busy = nxt.locator(f"{BUTTON}[data-busy]")
    busy.wait_for()
    assert busy.is_disabled()
    assert "busy, try in a moment" in busy.inner_text()

    leaver.context.close()
    # Gone: the game holds no seat (read again within 5 s), and the bot claims it once the
    # 3 s of grace have passed (swept every second).
    nxt.wait_for_function(
        f"() => {{ const b = document.querySelector('{BUTTON}');"
        " return b && !b.disabled && !b.hasAttribute('data-busy'); }",
        timeout=15_000,
    )

    def ended() -> bool:
        game = httpx.get(f"{server.base}/api/games/{game_id}", timeout=10).json()["game"]
        return bool(game["status"] == "timeout")

    _until(ended, "the bot claimed the game", 15)
    game = httpx.get(f"{server.base}/api/games/{game_id}", timeout=10).json()["game"]
    assert game["result"] == {"winner": "second", "reason": "opponent_gone", "status": "timeout"}
    lobby = httpx.get(f"{server.base}/api/lobby", timeout=10).json()
    assert game_id not in [g["id"] for g in lobby["live"]]

    # The next visitor plays that level.
    second_game = play_the_computer(nxt)
    assert second_game != game_id


def test_an_account_plays_the_computer_rated_from_the_lobby(server: Server, new_context) -> None:
    context = new_context()
    username = sign_in(context, server.base, "rated")
    game_id = play_the_computer(context.new_page(), rated=True)
    game = httpx.get(f"{server.base}/api/games/{game_id}", timeout=10).json()["game"]
    assert game["rated"] is True
    page = context.pages[0]
    resign = page.locator('[data-action="resign"]')
    resign.click()  # the end changes both ratings
    resign.click()  # (a second click confirms)

    def rated_once() -> bool:
        perfs = httpx.get(f"{server.base}/api/user/{username}", timeout=10).json()["perfs"]
        return bool(perfs.get("dobutsu", {}).get("games") == 1)

    _until(rated_once, "the player's rating counts the game", 15)
    bot = httpx.get(f"{server.base}/api/user/{LEVEL}", timeout=10).json()["perfs"]["dobutsu"]
    assert bot["games"] >= 1 and bot["rating"] > 1500
