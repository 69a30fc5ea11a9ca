"""Byo-yomi and correspondence in real browsers: the lobby form makes them, a byo-yomi clock
shows its periods and counts them down until the server's flag, a correspondence game shows
its deadline and is listed under "Your turn" in the lobby of the player to move.

The byo-yomi game runs on the real server clock (1 s of main time, then 2 periods of 2 s):
the test waits, bounded, for what the page shows and for the server's flag."""

from __future__ import annotations

import re
from typing import Any

from .helpers import Game, make_move, server_game, wait_started

SHORT_BYOYOMI = {"minutes": 1 / 60, "increment": 0, "byoyomi": 2, "periods": 2}


def two_players(new_context: Any, **body: Any) -> tuple[Any, Any, str]:
    """first created the game (through the API) and opened it; second joined by invite."""
    first = new_context().new_page()
    created = first.context.request.post(
        "/api/games", data={"variant": "dobutsu", "color": "first", **body}
    )
    assert created.ok, created.text()
    data = created.json()
    first.goto(f"/game/{data['id']}")
    second = new_context().new_page()
    second.goto(data["inviteUrl"])
    second.wait_for_url(f"**/game/{data['id']}")
    for page in (first, second):
        wait_started(page)
    return first, second, data["id"]


def test_a_byoyomi_clock_shows_its_periods_and_flags_after_the_last(new_context: Any) -> None:
    first, second, game_id = two_players(new_context, clock=SHORT_BYOYOMI)
    clock = first.locator('.clock[data-side="first"]')
    assert re.fullmatch(r"1\.0 \+ 2×2s", clock.first.inner_text().strip())
    game = Game("dobutsu")
    make_move(first, game, "b1a2")
    make_move(second, game, "b4c3")  # both have moved: first's clock runs
    # The main second runs out, then the periods count down one by one on the page...
    first.wait_for_function(
        """() => [...document.querySelectorAll('.clock[data-side="first"]')]
              .some(el => el.dataset.periods === "1" && / · 1×2s$/.test(el.textContent))""",
        timeout=8_000,
    )
    # ... and the server flags once the last one has run out (1 s + 2 × 2 s).
    for page in (first, second):
        page.wait_for_function(
            "() => window.kodama.page.game.status === 'outoftime'", timeout=10_000
        )
    stored = server_game(first, game_id)
    assert stored["result"] == {"winner": "second", "reason": "outoftime", "status": "outoftime"}
    assert (stored["clock"]["first"], stored["clock"]["firstPeriods"]) == (0, 0)
    assert stored["clock"]["secondPeriods"] == 2
    assert first.locator('.clock[data-side="first"]').first.get_attribute("data-periods") == "0"


def test_the_lobby_form_makes_byoyomi_and_correspondence_games(new_context: Any) -> None:
    page = new_context().new_page()
    page.goto("/")
    page.wait_for_selector(".variant-card")
    page.locator('input[name="clock"][value="byoyomi"]').check()
    assert page.locator("#increment-field").is_hidden()
    page.locator('input[name="minutes"]').fill("5")
    page.locator('input[name="periods"]').fill("3")
    page.locator('input[name="byoyomi"]').fill("30")
    page.locator("#create-button").click()
    page.wait_for_url("**/game/*")
    game_id = page.url.rsplit("/", 1)[1]
    stored = server_game(page, game_id)
    assert (stored["clock"]["initial"], stored["clock"]["byoyomi"]) == (300_000, 30_000)
    assert stored["clock"]["periods"] == 3
    page.wait_for_function("() => document.body.innerText.includes('5+3×30s')")
    page.wait_for_function(
        """() => [...document.querySelectorAll('.clock[data-side="first"]')]
              .some(el => el.textContent === "5:00 + 3×30s")"""
    )
    page.goto("/")
    page.wait_for_selector(".variant-card")
    page.locator('input[name="clock"][value="days"]').check()
    assert page.locator("#byoyomi-fields").is_hidden()
    page.locator('select[name="days"]').select_option("5")
    page.locator("#create-button").click()
    page.wait_for_url("**/game/*")
    stored = server_game(page, page.url.rsplit("/", 1)[1])
    assert stored["daysPerTurn"] == 5 and stored["clock"] is None


def test_a_correspondence_game_is_listed_under_your_turn(new_context: Any) -> None:
    first, second, game_id = two_players(new_context, days=3)
    # The game page tells the player to move how long is left, in days and hours.
    first.wait_for_function(
        "() => /2 d 23 h left to move/.test(document.querySelector('.deadline')?.textContent)"
    )
    first.goto("/")
    entry = first.locator(f'#your-turn .your-turn-game[data-game="{game_id}"]')
    entry.wait_for()
    assert first.locator("#your-turn").is_visible()
    assert re.search(r"2 d 23 h left", entry.inner_text())
    entry.get_by_role("link").click()
    first.wait_for_url(f"**/game/{game_id}")
    # Not the second player's turn: nothing listed for them.
    second.goto("/")
    second.wait_for_selector(".variant-card")
    second.wait_for_load_state("networkidle")
    assert second.locator("#your-turn").is_hidden()
    assert second.locator(".your-turn-game").count() == 0
