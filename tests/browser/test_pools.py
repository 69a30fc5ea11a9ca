"""Quick pairing in real browsers: two people (two contexts, two identities) click the same
pool tile on the lobby page; the tile says it is searching, the pool's next round pairs
them, and both pages land in the same started game, seated against each other; a tile's
count of players waiting is pushed to every lobby as it changes; a guest and an account
clicking one tile meet in a casual game."""

from __future__ import annotations

import re
import time

from .helpers import page_state, server_game

POOL = "gorogoro-10+5"
GAME_URL = re.compile(r"/game/([A-Za-z0-9_-]+)$")


def test_two_players_click_the_same_pool_tile_and_land_in_the_same_game(new_context):
    pages = [new_context().new_page() for _ in range(2)]
    for page in pages:
        page.goto("/")
        page.locator(f'[data-pool="{POOL}"]').wait_for()
        page.locator("#connection.open").wait_for()
    first, second = pages
    first.locator(f'[data-pool="{POOL}"]').click()
    first.locator(f'[data-pool="{POOL}"][aria-pressed="true"]').wait_for()
    first.locator(".pool-timer").filter(has_text=re.compile(r"^0:\d\d$")).wait_for()
    second.locator(f'[data-pool="{POOL}"]').click()
    for page in pages:
        page.wait_for_url(GAME_URL, timeout=15_000)
    ids = [GAME_URL.search(page.url)[1] for page in pages]  # type: ignore[index]
    assert ids[0] == ids[1]
    for page in pages:
        page.wait_for_function("() => window.kodama.page.game !== null")
    states = [page_state(page) for page in pages]
    assert {state["status"] for state in states} == {"started"}
    assert {state["seat"] for state in states} == {"first", "second"}  # one seat each


def test_a_tiles_waiting_count_is_pushed_as_it_changes(new_context):
    pool = "wali-5+3"
    watcher, seeker = (new_context().new_page() for _ in range(2))
    # The watcher's timers never run: what changes its tile is the lobby socket's message.
    start = time.time()
    watcher.clock.install(time=start)
    watcher.clock.pause_at(start + 1)
    for page in (watcher, seeker):
        page.goto("/")
        page.locator("#connection.open").wait_for()
    tile = watcher.locator(f'[data-pool="{pool}"] .pool-waiting')
    tile.filter(has_text=re.compile(r"^0 ")).wait_for()
    seeker.locator(f'[data-pool="{pool}"]').click()
    tile.filter(has_text=re.compile(r"^1 ")).wait_for(timeout=5_000)
    seeker.locator(f'[data-pool="{pool}"]').click()  # stops searching
    tile.filter(has_text=re.compile(r"^0 ")).wait_for(timeout=5_000)


def test_a_guest_and_an_account_on_one_tile_are_paired_in_a_casual_game(new_context, account):
    pool = "jungle-3+2"
    member, _username = account("pooler")
    guest = new_context().new_page()
    for page in (member, guest):
        page.goto("/")
        page.locator("#connection.open").wait_for()
    member.locator(f'[data-pool="{pool}"]').click()
    member.locator(".pool-timer").filter(has_text=re.compile(r"^0:\d\d$")).wait_for()
    guest.locator(f'[data-pool="{pool}"] .pool-waiting').filter(
        has_text=re.compile(r"^1 ")
    ).wait_for()  # the account's search, which the guest can meet
    guest.locator(f'[data-pool="{pool}"]').click()
    # The account's rated search meets the guest's casual one after 5 s without a rated
    # opponent (pairing.py CASUAL_AFTER_MS): a few seconds of the server's real clock.
    for page in (member, guest):
        page.wait_for_url(GAME_URL, timeout=15_000)
    ids = [GAME_URL.search(page.url)[1] for page in (member, guest)]  # type: ignore[index]
    assert ids[0] == ids[1]
    member.wait_for_function("() => window.kodama.page.game !== null")
    assert page_state(member)["seat"] in ("first", "second")
    game = server_game(member, ids[0])
    assert game["status"] == "started" and game["rated"] is False
