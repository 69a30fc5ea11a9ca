"""The challenge page (/challenge/{id}) in a real browser: an open challenge's links seat the
two people who open them, and both pages go to the game once it starts."""

from __future__ import annotations

import httpx

from tests.browser.helpers import page_state, wait_started
from tests.server import Server


def test_an_open_challenges_links_seat_two_people(new_context, server: Server):
    created = httpx.post(
        f"{server.base}/api/challenge/open", json={"variant": "dobutsu"}, timeout=10
    ).json()
    white = new_context().new_page()
    white.goto(created["urlWhite"])
    white.wait_for_function(
        "() => document.getElementById('message').textContent.includes('Waiting')"
    )
    assert white.url.endswith(f"/challenge/{created['id']}?color=white")
    black = new_context().new_page()
    black.goto(created["urlBlack"])
    for page in (black, white):  # the second to come goes at once; the first on its next poll
        page.wait_for_url(f"**/game/{created['id']}")
        wait_started(page)
    assert page_state(white)["seat"] == "first"
    assert page_state(black)["seat"] == "second"


def test_an_open_challenges_name_is_its_heading(new_context, server: Server):
    created = httpx.post(
        f"{server.base}/api/challenge/open",
        json={"variant": "wali", "name": "<b>Wali</b> night"},
        timeout=10,
    ).json()
    page = new_context().new_page()
    page.goto(created["url"])
    page.wait_for_function(
        "() => document.getElementById('heading').textContent === '<b>Wali</b> night'"
    )
    assert page.locator("#heading b").count() == 0  # shown as text, not markup


def test_a_missing_challenge_says_so(new_context):
    page = new_context().new_page()
    page.goto("/challenge/nothere")
    page.wait_for_function(
        "() => document.getElementById('message').textContent.includes('no such challenge')"
    )
