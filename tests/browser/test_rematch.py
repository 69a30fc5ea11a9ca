"""Rematch in real browsers: two accounts play a rated game to its end while a spectator
watches; one offers a rematch from the end panel, the other sees it and accepts; all three
pages land on the new game, the colours swapped, still rated, with the same clock."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.app.accounts_and_streams import MATE
from tests.browser.helpers import Game, make_move, page_state, server_game, wait_started


def test_the_players_rematch_and_everyone_moves_to_the_new_game(
    account: Any, new_context: Any, output_dir: Path
) -> None:
    first, alice = account("Alice", locale="en-GB")
    second, bob = account("Bob", locale="en-GB")
    watcher = new_context(locale="en-GB").new_page()
    errors: list[str] = []
    for page in (first, second, watcher):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    made = first.request.post(
        "/api/games",
        data={
            "variant": "dobutsu",
            "color": "first",
            "rated": True,
            "public": False,
            "clock": {"minutes": 5, "increment": 3},
        },
    )
    assert made.status == 201, made.text()
    old_id = made.json()["id"]
    token = made.json()["inviteUrl"].rsplit("/", 1)[1]
    assert second.request.post(f"/api/invite/{token}").ok
    for page in (first, second, watcher):
        page.goto(f"/game/{old_id}")
        wait_started(page)
    game = Game("dobutsu")
    for ply, move in enumerate(MATE):
        make_move(first if ply % 2 == 0 else second, game, move)
    for page in (first, second, watcher):
        page.wait_for_function("() => window.kodama.page.game.result !== null")

    # The end panel: a Rematch button for the players only.
    offer = first.locator("#rematch button", has_text="Rematch")
    expect(offer).to_be_visible()
    expect(watcher.locator("#rematch")).to_be_hidden()
    offer.click()
    expect(first.locator("#rematch")).to_contain_text("You offered a rematch")
    expect(second.locator("#rematch")).to_contain_text(f"{alice} (first) offers a rematch")
    expect(watcher.locator("#rematch")).to_contain_text("offers a rematch")
    second.screenshot(path=str(output_dir / "rematch-offered.png"))

    second.locator("#rematch button", has_text="Accept the rematch").click()
    pattern = re.compile(r".*/game/(?!" + re.escape(old_id) + r"$)[^/]+$")
    for page in (first, second, watcher):
        page.wait_for_url(pattern)
        wait_started(page)
    new_id = first.url.rsplit("/", 1)[1]
    assert second.url.endswith(f"/game/{new_id}") and watcher.url.endswith(f"/game/{new_id}")
    assert page_state(first)["seat"] == "second"
    assert page_state(second)["seat"] == "first"
    assert page_state(watcher)["seat"] is None
    new = server_game(first, new_id)
    assert new["rated"] is True
    assert (new["players"]["first"]["name"], new["players"]["second"]["name"]) == (bob, alice)
    assert (new["clock"]["initial"], new["clock"]["increment"]) == (300_000, 3000)
    assert new["public"] is False
    expect(second.locator("#player-bottom .who")).to_contain_text(bob)
    second.screenshot(path=str(output_dir / "rematch-started.png"))
    # The old game's page, opened now, links to the rematch instead of moving on.
    watcher.goto(f"/game/{old_id}")
    link = watcher.locator("#rematch a", has_text="Go to the rematch")
    expect(link).to_have_attribute("href", f"/game/{new_id}")
    assert watcher.url.endswith(f"/game/{old_id}")
    assert errors == []
