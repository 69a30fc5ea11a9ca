"""A Swiss's page in Chromium: two people join with its button (one withdraws and joins
again), a BOT account through berserk; its creator (the BOT) made it with berserk's
``create_swiss``. Round 1 starts: the page (a viewer's) shows the round, the board and the bye,
the standings; a player's own game is linked; its creator ends it and the page says so."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import expect

from tests.browser.test_arena import Bot, wait_for
from tests.server import Server


def test_a_swiss_page_shows_its_round_pairings_and_standings(account: Any, server: Server) -> None:
    tag = str(time.monotonic_ns())[-5:]
    (p1, n1), (p2, n2), (viewer, _) = (account(f"s{i}x{tag}", locale="en-GB") for i in (1, 2, 3))
    bot = Bot(server, f"sb{tag}_bot")
    made = bot.client.tournaments.create_swiss(
        "kodama-club",
        clockLimit=600,
        clockIncrement=0,
        nbRounds=1,
        name=f"Swiss {tag}",
        startsAt=int(time.time() * 1000) + 8_000,
        roundInterval=0,
    )
    sid = made["id"]
    bot.client.tournaments.join_swiss(sid)
    for page in (p1, p2):
        page.goto(f"/swiss/{sid}")
        expect(page.locator("#name")).to_have_text(f"Swiss {tag}")
        page.locator('[data-action="join"]').click()
        expect(page.locator('[data-action="withdraw"]')).to_be_visible()
    p2.locator('[data-action="withdraw"]').click()
    expect(p2.locator('[data-action="join"]')).to_be_visible()
    p2.locator('[data-action="join"]').click()
    expect(p2.locator('[data-action="withdraw"]')).to_be_visible()
    expect(p1.locator("#status")).to_contain_text("Round 1 in")
    viewer.goto(f"/swiss/{sid}")  # a player's page follows them to their game once paired

    wait_for(lambda: bot.client.tournaments.get_swiss(sid)["round"] == 1 or None)
    info = bot.client.tournaments.get_swiss(sid)
    (game,) = [r for r in info["rounds"] if r["board"]]
    (bye,) = [r["first"] for r in info["rounds"] if not r["board"]]
    expect(viewer.locator("#status")).to_have_text("Round 1 of 1", timeout=10_000)
    expect(viewer.locator('[data-board="1-1"]')).to_contain_text(
        f"{game['first']} – {game['second']}"
    )
    expect(viewer.locator('[data-bye="1"]')).to_contain_text(bye)
    expect(viewer.locator("#standings tbody tr")).to_have_count(3)
    expect(viewer.locator("#trf")).to_have_attribute("href", f"/swiss/{sid}.trf")
    # The person with the bye stays on the page (no game to follow them to) and has none;
    # a person in the game finds it linked from the page.
    person = {n1: p1, n2: p2}
    for name in (game["first"], game["second"]):
        if name in person:
            person[name].goto(f"/swiss/{sid}")
            link = person[name].locator("[data-my-game]")
            expect(link).to_have_attribute("href", f"/game/{game['gameId']}")

    bot.client.tournaments.terminate_swiss(sid)
    expect(viewer.locator("#status")).to_have_text("Finished", timeout=10_000)
    expect(viewer.locator('[data-action="join"], [data-action="withdraw"]')).to_have_count(0)
