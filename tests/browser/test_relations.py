"""Following a player in a real browser: an account follows another from their profile; once
the other has a page open the lobby's "Following" list shows them online, with a link to
their profile to challenge them; once their game starts, playing, with a Watch link that
opens it; their profile shows the online dot; unfollowed, the list is gone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.browser.helpers import page_state, wait_started

# The server's word on a player, read by the page: online once their instance has written
# their sockets (every second), and the game they play. Polled as Playwright polls (its
# predicate is not awaited: each poll starts a read when none is under way).
STATUS_JS = """([name, online, playing]) => {
  const w = window.__status;
  if (!w.reading) {
    w.reading = fetch(`/api/rel/status/${name}`).then((r) => r.json()).then((s) => {
      w.ok = s.online === online && (playing === null || s.playingId === playing);
      w.reading = null;
    });
  }
  return w.ok;
}"""


def wait_for_status(page: Any, name: str, online: bool, playing: str | None = None) -> None:
    page.evaluate("() => { window.__status = { ok: false, reading: null }; }")
    page.wait_for_function(STATUS_JS, arg=[name, online, playing], polling=200)


def test_a_followed_player_is_seen_online_then_playing_and_watched_from_the_lobby(
    account: Any, new_context: Any, output_dir: Path
) -> None:
    ann, _ = account("Ann", locale="en-GB")
    ben, ben_name = account("Ben", locale="en-GB")
    ben_id = ben_name.lower()
    errors: list[str] = []
    for page in (ann, ben):
        page.on("pageerror", lambda exc: errors.append(str(exc)))

    # Ben's profile, no page of his open: offline, and a Follow button.
    ann.goto(f"/@/{ben_name}")
    dot, button = ann.locator("#online-dot"), ann.locator("#follow-button")
    expect(dot).to_have_attribute("data-online", "false")
    expect(dot).to_have_attribute("aria-label", "Offline")
    expect(button).to_have_text("Follow")
    button.click()
    expect(button).to_have_text("Unfollow")
    expect(button).to_be_focused()

    # Ben opens the lobby: Ann's lobby lists him online, his profile to challenge him.
    ben.goto("/")
    expect(ben.locator("#connection")).to_have_class("connection open")
    wait_for_status(ann, ben_name, online=True)
    ann.goto("/")
    entry = ann.locator(f'#following [data-user="{ben_id}"]')
    expect(entry).to_have_attribute("data-online", "true")
    expect(entry.locator(".dot.online")).to_have_count(1)
    expect(entry.locator(".following-state")).to_have_text("online")
    expect(entry.locator("[data-challenge]")).to_have_attribute("href", f"/@/{ben_name}")
    expect(entry.locator("[data-watch]")).to_have_count(0)

    # Ben's game starts (a guest takes his invite): his page goes there; Ann's list says
    # playing, with a Watch link to it.
    made = ben.request.post("/api/games", data={"variant": "dobutsu", "color": "first"})
    assert made.ok, made.text()
    game_id, invite = made.json()["id"], str(made.json()["inviteUrl"]).rsplit("/", 1)[1]
    assert new_context().request.post(f"/api/invite/{invite}").ok
    ben.wait_for_url(f"**/game/{game_id}")
    wait_for_status(ann, ben_name, online=True, playing=game_id)
    ann.reload()
    expect(entry).to_have_attribute("data-playing", game_id)
    expect(entry.locator(".following-state")).to_have_text("playing")
    watch = entry.locator("[data-watch]")
    expect(watch).to_have_attribute("href", f"/game/{game_id}")
    ann.screenshot(path=output_dir / "lobby-following.png", full_page=True)
    watch.click()
    ann.wait_for_url(f"**/game/{game_id}")
    wait_started(ann)
    assert page_state(ann)["seat"] is None  # a spectator

    # His profile: the online dot; unfollowed from there, Ann's lobby has no list.
    ann.goto(f"/@/{ben_name}")
    expect(dot).to_have_attribute("data-online", "true")
    expect(dot).to_have_class("dot online")
    expect(dot).to_have_attribute("aria-label", "Online")
    ann.screenshot(path=output_dir / "profile-online.png")
    expect(button).to_have_text("Unfollow")
    button.click()
    expect(button).to_have_text("Follow")
    with ann.expect_response("**/api/rel/following/live") as read:
        ann.goto("/")
    assert read.value.json() == {"count": 0, "users": []}
    expect(ann.locator("#following")).to_be_hidden()
    # Ben's own profile: his dot, no button to follow himself.
    ben.goto(f"/@/{ben_name}")
    expect(ben.locator("#online-dot")).to_have_attribute("data-online", "true")
    expect(ben.locator("#follow-button")).to_have_count(0)
    assert errors == []


def test_a_guests_lobby_has_no_following_list_and_profiles_no_follow_button(
    account: Any, new_context: Any
) -> None:
    _, ben_name = account("Ben", locale="en-GB")
    guest = new_context(locale="en-GB").new_page()
    guest.goto(f"/@/{ben_name}")
    expect(guest.locator("#online-dot")).to_have_attribute("data-online", "false")
    expect(guest.locator("#follow-button")).to_have_count(0)
    with guest.expect_response("**/api/rel/following/live") as read:
        guest.goto("/")
    assert read.value.status == 401
    expect(guest.locator("#following")).to_be_hidden()
