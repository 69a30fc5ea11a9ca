"""Blocking and the chat's safety in a real browser (docs/decisions/blocking-and-chat-safety.md):
a player blocked from a profile cannot challenge the blocker (the form says so), and a press
on Block is not lost to the profile drawing itself as it loads; a player blocked from a chat
line's menu no longer reaches the blocker's page, live or after a
reload, while a spectator still reads them; a mute in one click hides a person's lines on
that browser only; a line with an address stays plain text; an anonymous player's chat box
is disabled and says why."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.helpers import wait_started


def say(page: Any, text: str) -> None:
    box = page.locator("#chat-input")
    box.fill(text)
    box.press("Enter")
    expect(box).to_have_value("")  # cleared once the line came back from the server


def line(page: Any, text: str) -> Any:
    return page.locator("#chat-log .chat-line", has_text=text)


def play(first: Any, second: Any) -> str:
    """A game ``first`` created and ``second`` joined by its invite link, both on its page."""
    created = first.context.request.post(
        "/api/games", data={"variant": "dobutsu", "color": "first", "clock": None}
    )
    assert created.ok, created.text()
    game_id, invite = created.json()["id"], created.json()["inviteUrl"]
    first.goto(f"/game/{game_id}")
    second.goto(invite)
    second.wait_for_url(f"**/game/{game_id}")
    for page in (first, second):
        wait_started(page)
    return str(game_id)


def test_a_player_blocked_from_a_profile_cannot_challenge(account: Any) -> None:
    alice, alice_name = account("alice")
    bob, bob_name = account("bob")
    alice.goto(f"/@/{bob_name}")
    button = alice.locator("#block-button")
    expect(button).to_have_text("Block")
    button.click()
    expect(alice.locator("#block-button")).to_have_text("Unblock")
    expect(alice.locator("#message")).to_contain_text(f"You block {bob_name}")

    bob.goto(f"/@/{alice_name}")
    form = bob.locator("#challenge-button")
    expect(form).to_be_visible()
    form.click()
    expect(bob.locator("#challenge-error")).to_have_text("You cannot challenge this player.")
    assert bob.url.endswith(f"/@/{alice_name}")  # no challenge page: nothing was made

    alice.locator("#block-button").click()  # unblocked: the challenge goes
    expect(alice.locator("#block-button")).to_have_text("Block")
    bob.locator("#challenge-button").click()
    bob.wait_for_url("**/challenge/*")


def holder(held: list[Any]) -> Any:
    """A route handler that keeps each request it gets, unanswered, in ``held``. (Playwright
    takes a function of Python's, not ``held.append``.)"""

    def hold(route: Any) -> None:
        held.append(route)

    return hold


def test_a_block_pressed_while_the_profile_is_still_loading_is_not_lost(account: Any) -> None:
    """The profile draws itself as each of its requests comes back. The last one (the recent
    games) is held until the Block button is pressed, and lets go before it is released: the
    page's last draw falls between the two. The button must stay the same element, or the
    press and the release land on two buttons and no click happens."""
    alice, _ = account("alice")
    _, bob_name = account("bob")
    # The button needs the player and the relation: the relation comes back once the player
    # is in (the recent games are asked for then), so the button is drawn before the last draw.
    status: list[Any] = []
    games: list[Any] = []
    alice.route("**/api/rel/status/**", holder(status))
    alice.route("**/api/games/user/**", holder(games))
    with alice.expect_request("**/api/games/user/**"):
        alice.goto(f"/@/{bob_name}")
    status[0].continue_()
    button = alice.locator("#block-button")
    expect(button).to_have_text("Block")
    expect(alice.locator("#profile")).to_be_hidden()  # the recent games are not in yet
    button.hover()
    alice.mouse.down()
    assert len(games) == 1
    games[0].continue_()
    expect(alice.locator("#profile")).to_be_visible()  # drawn again, all of it
    alice.mouse.up()
    expect(button).to_have_text("Unblock")
    expect(alice.locator("#message")).to_contain_text(f"You block {bob_name}")


def test_a_blocked_players_lines_leave_the_blockers_page_and_reach_the_others(
    account: Any, new_context: Any
) -> None:
    alice, _ = account("alice")
    bob, bob_name = account("bob")
    carol, _ = account("carol")  # an account watching
    game_id = play(alice, bob)
    carol.goto(f"/game/{game_id}")
    wait_started(carol)

    say(bob, "see https://example.com/x for my openings")
    expect(line(alice, "example.com")).to_have_count(1)
    # An address stays the text it is: no link, on either page.
    for page in (alice, bob):
        expect(page.locator("#chat-log .chat-text a")).to_have_count(0)
        expect(
            page.locator("#chat-log .chat-text", has_text="https://example.com/x")
        ).to_have_count(1)

    # alice blocks bob from his line's menu.
    bob_line = line(alice, "example.com")
    bob_line.get_by_role("button", name=f"Mute {bob_name}").wait_for()
    bob_line.locator("summary").click()
    bob_line.get_by_role("button", name=f"Block {bob_name}").click()
    expect(alice.locator("#chat-note")).to_contain_text(f"You block {bob_name}")
    expect(line(alice, "example.com")).to_have_count(0)

    # bob writes in the spectators' room: carol reads it, alice never gets it.
    bob.locator("#chat-room-spectator").click()
    say(bob, "hello watchers")
    expect(line(carol, "hello watchers")).to_have_count(1)
    say(carol, "hi bob")
    alice.locator("#chat-room-spectator").click()
    expect(line(alice, "hi bob")).to_have_count(1)  # carol's line came after bob's
    expect(line(alice, "hello watchers")).to_have_count(0)
    # A reload: the kept lines she is sent hold none of his.
    alice.reload()
    wait_started(alice)
    alice.locator("#chat-room-spectator").click()
    expect(line(alice, "hi bob")).to_have_count(1)
    expect(line(alice, "hello watchers")).to_have_count(0)
    alice.locator("#chat-room-player").click()
    expect(line(alice, "example.com")).to_have_count(0)

    # A mute in one click: carol hides bob's lines on her page only.
    expect(line(carol, "hello watchers")).to_have_count(1)
    line(carol, "hello watchers").get_by_role("button", name=f"Mute {bob_name}").click()
    expect(line(carol, "hello watchers")).to_have_count(0)
    expect(line(carol, "hi bob")).to_have_count(1)
    unmute = carol.get_by_role("button", name=f"Unmute {bob_name}")
    carol.reload()  # kept in this browser
    wait_started(carol)
    expect(line(carol, "hi bob")).to_have_count(1)
    expect(line(carol, "hello watchers")).to_have_count(0)
    unmute.click()
    expect(line(carol, "hello watchers")).to_have_count(1)

    # An anonymous visitor reads, and the box says why it is disabled.
    guest = new_context().new_page()
    guest.goto(f"/game/{game_id}")
    wait_started(guest)
    expect(line(guest, "hello watchers")).to_have_count(1)
    expect(guest.locator("#chat-input")).to_be_disabled()
    expect(guest.locator("#chat-why")).to_contain_text("Only accounts write in the chat")
