"""Reports and moderation in a real browser: a player reports a chat line; a moderator, named
with ``python -m app moderators add``, finds it on /mod with the line among the lines around
it, mutes the player, whose next line is refused and said so on their page, and warns them,
which their next page shows until they acknowledge it; a non-moderator and a guest are
refused the moderation page."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

from playwright.sync_api import expect

from tests.browser.helpers import wait_started
from tests.server import ROOT, Server


def name_moderator(server: Server, username: str) -> None:
    """As the site's operator does, against the server's database."""
    done = subprocess.run(
        [sys.executable, "-m", "app", "moderators", "add", username],
        cwd=ROOT,
        env=server.env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{username} is now a moderator\n"


def say(page: Any, text: str) -> None:
    box = page.locator("#chat-input")
    box.fill(text)
    box.press("Enter")


def line(page: Any, text: str) -> Any:
    return page.locator("#chat-log .chat-line", has_text=text)


def test_a_reported_line_reaches_the_moderator_who_mutes_and_warns(account, new_context, server):
    alice, alice_name = account("alice")
    bob, bob_name = account("bob")
    mod, mod_name = account("mod")
    name_moderator(server, mod_name)
    created = alice.context.request.post(
        "/api/games", data={"variant": "dobutsu", "color": "first", "clock": None}
    )
    assert created.ok, created.text()
    game_id, invite = created.json()["id"], created.json()["inviteUrl"]
    alice.goto(f"/game/{game_id}")
    bob.goto(invite)
    bob.wait_for_url(f"**/game/{game_id}")
    for page in (alice, bob):
        wait_started(page)

    say(alice, "good luck")
    expect(line(bob, "good luck")).to_have_count(1)
    say(bob, "you play like a potato")
    expect(line(alice, "potato")).to_have_count(1)
    # no menu on one's own lines
    expect(line(bob, "potato").locator(".chat-menu")).to_have_count(0)

    # alice reports the line from its menu
    line(alice, "potato").locator("summary").click()
    # (by the keyboard: the menu may open over the board's edge)
    line(alice, "potato").get_by_role("button", name=f"Report this line of {bob_name}").press(
        "Enter"
    )
    dialog = alice.locator("#report-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".report-line")).to_have_text("you play like a potato")
    expect(dialog.locator("select")).to_have_value("abuse")
    dialog.locator("textarea").fill("rude to me")
    dialog.get_by_role("button", name="Send the report").click()
    expect(dialog).to_contain_text("Thank you: the moderators will look at your report.")
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()

    # the moderator's queue, and the line in its context
    mod.goto("/mod")
    item = mod.locator("#queue li", has_text=f"{alice_name} reports {bob_name}")
    expect(item).to_contain_text("you play like a potato")
    item.get_by_role("button", name="Open").click()
    context = mod.locator("#context li")
    expect(context).to_have_count(2)
    expect(context.nth(0)).to_contain_text(f"{alice_name}: good luck")
    expect(mod.locator("#context li.reported")).to_contain_text(
        f"{bob_name}: you play like a potato"
    )
    expect(mod.locator("#report")).to_contain_text("rude to me")

    # muted for ten minutes: bob's next line is refused, and his page says so
    actions = mod.locator("#actions")
    actions.locator("textarea").fill("insults in the chat")
    actions.locator("input[name=minutes]").fill("10")
    actions.get_by_role("button", name="Mute the chat").click()
    expect(mod.locator("#message")).to_have_text("Done.")
    expect(mod.locator("#standing")).to_contain_text("Chat muted until")
    expect(mod.locator("#queue")).to_contain_text("No open report.")
    say(bob, "let me speak")
    expect(bob.locator("#chat")).to_contain_text("A moderator muted your chat for now")
    say(alice, "bye")  # comes after bob's line would have
    expect(line(bob, "bye")).to_have_count(1)
    expect(line(alice, "let me speak")).to_have_count(0)
    expect(line(bob, "let me speak")).to_have_count(0)

    # a warning: shown on bob's next page until he acknowledges it
    actions.locator("textarea").fill("Be kind to your opponents.")
    actions.get_by_role("button", name="Warn").click()
    expect(mod.locator(".mod-log")).to_contain_text("warn")  # logged, with its reason
    expect(mod.locator(".mod-log")).to_contain_text("Be kind to your opponents.")
    bob.goto("/leaderboard")
    banner = bob.locator(".warning-banner")
    expect(banner).to_contain_text("Be kind to your opponents.")
    banner.get_by_role("button", name="I understand").click()
    expect(banner).to_have_count(0)
    bob.reload()
    expect(bob.locator("h1")).to_have_text("Leaderboard")
    expect(bob.locator(".warning-banner")).to_have_count(0)


def test_the_moderation_page_is_refused_to_everyone_else(account, new_context):
    player, _name = account("plain")
    answer = player.goto("/mod")
    assert answer is not None and answer.status == 403
    expect(player.locator("#message")).to_have_text("This page is for moderators only.")
    expect(player.locator("#queue-section")).to_be_hidden()
    guest = new_context().new_page()
    answer = guest.goto("/mod")
    assert answer is not None and answer.status == 401
    expect(guest.locator("#message")).to_have_text("Sign in to a moderator's account to moderate.")
