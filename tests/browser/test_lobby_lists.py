"""The lobby's lists in a real browser (two or more contexts): a seek's rating range shown and
a joiner outside it not offered Join (and refused by the server); one's own seek marked and
cancelled from the list; the filter by game, kept across a reload; one's own live game
offered as Resume, not Watch."""

from __future__ import annotations

from typing import Any


def _entry(page: Any, game_id: str) -> Any:
    return page.locator(f'#open-games li[data-game="{game_id}"]')


def _lobby(new_context: Any) -> Any:
    page = new_context(locale="en-GB").new_page()
    page.goto("/")
    page.wait_for_selector("#open-games .note, #open-games .game-list")
    return page


def test_a_seeks_range_is_shown_and_a_joiner_outside_it_is_not_offered_join(account, new_context):
    alice, _ = account("Alice", locale="en-GB")
    alice.goto("/")
    alice.wait_for_selector("#range-fields:not([hidden])")  # an account's form has a range
    alice.check("#variant-jungle")
    alice.fill("input[name=rangeLow]", "1600")
    alice.fill("input[name=rangeHigh]", "1900")
    alice.click("#create-button")
    alice.wait_for_url("**/game/*")
    game_id = alice.url.rsplit("/", 1)[1]
    visitor = _lobby(new_context)  # anonymous: counts as 1500
    entry = _entry(visitor, game_id)
    entry.wait_for()
    assert "rating 1600–1900" in entry.inner_text()
    assert "(1500?)" in entry.inner_text()  # a new account's rating, provisional
    assert "casual" in entry.inner_text()
    join = entry.get_by_role("button", name="Join")
    assert join.is_disabled()
    assert "outside its range" in entry.inner_text()
    refused = visitor.request.post(f"/api/games/{game_id}/join")
    assert refused.status == 403 and refused.json()["code"] == "seek.out_of_range"
    # A visitor's own form has no range (a range is for accounts' seeks).
    assert visitor.locator("#range-fields").is_hidden()


def test_ones_own_seek_is_marked_and_cancelled_from_the_list(new_context):
    page = _lobby(new_context)
    made = page.request.post("/api/games", data={"variant": "yote", "color": "first"})
    assert made.status == 201, made.text()
    game_id = made.json()["id"]
    entry = _entry(page, game_id)
    entry.wait_for()
    assert "Yours" in entry.inner_text()
    assert entry.locator("[data-join]").count() == 0
    other = _lobby(new_context)
    _entry(other, game_id).get_by_role("button", name="Join").wait_for()
    entry.get_by_role("button", name="Cancel").click()
    entry.wait_for(state="detached")
    _entry(other, game_id).wait_for(state="detached")
    assert page.request.get(f"/api/games/{game_id}").json()["game"]["status"] == "aborted"


def test_the_filter_hides_a_game_from_both_lists_and_is_kept(new_context):
    creator = _lobby(new_context)
    made = creator.request.post("/api/games", data={"variant": "wali", "color": "first"})
    game_id = made.json()["id"]
    page = _lobby(new_context)
    _entry(page, game_id).wait_for()
    page.uncheck('[data-filter="wali"]')
    _entry(page, game_id).wait_for(state="detached")
    page.reload()
    page.wait_for_selector("#open-games .note, #open-games .game-list")
    assert not page.locator('[data-filter="wali"]').is_checked()
    assert _entry(page, game_id).count() == 0
    page.check('[data-filter="wali"]')
    _entry(page, game_id).wait_for()


def test_ones_own_live_game_is_resume_and_anothers_is_watch(new_context):
    # No lobby page open while the seek is joined: a creator's page would go to the game.
    first = new_context(locale="en-GB").new_page()
    made = first.request.post("/api/games", data={"variant": "dobutsu", "color": "first"})
    game_id = made.json()["id"]
    second = new_context().new_page()
    assert second.request.post(f"/api/games/{game_id}/join").ok
    first.goto("/")
    link = first.locator(f'#live-games a[href="/game/{game_id}"]')
    link.wait_for()
    assert link.inner_text() == "Resume"
    watcher = _lobby(new_context)
    other = watcher.locator(f'#live-games a[href="/game/{game_id}"]')
    other.wait_for()
    assert other.inner_text() == "Watch"
