"""The site on a phone held upright (390×844, touch): nothing scrolls sideways, every header
link is reachable behind the menu button, a tap on the language switch changes the language,
and the lobby's three ways to play (quick pairing, the computer, a friend) are on its first
screen."""

from __future__ import annotations

import pytest

from .test_lobby_layout import with_bots

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}

# Where an element is drawn, and whether a tap at its centre lands on it.
SEEN_JS = """(el) => {
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return { top: r.top, bottom: r.bottom, left: r.left, right: r.right,
           hit: Boolean(hit && (hit === el || el.contains(hit))) };
}"""


def seen(locator) -> dict[str, float | bool]:
    box: dict[str, float | bool] = locator.evaluate(SEEN_JS)
    return box


def on_screen(locator, height: int = 844) -> None:
    box = seen(locator)
    assert box["hit"], box
    assert box["left"] >= 0 and box["right"] <= 390, box
    assert box["top"] >= 0 and box["bottom"] <= height, box


@pytest.mark.parametrize("path", ["/", "/rules", "/leaderboard", "/account", "/games"])
def test_no_page_scrolls_sideways_and_every_link_is_reachable(new_context, path: str):
    page = new_context(**PHONE).new_page()
    page.goto(path)
    page.wait_for_selector("header.site .lang-switch [data-lang]")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    links = page.locator("header.site nav a")
    assert links.count() == 7  # Rules, Leaderboard, Tournaments, TV, Puzzles, My games, Account
    button = page.locator("header.site .menu-button")
    on_screen(button)
    assert button.get_attribute("aria-expanded") == "false"
    button.tap()
    assert button.get_attribute("aria-expanded") == "true"
    for i in range(links.count()):
        on_screen(links.nth(i))
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    # Tapped again, the links hide.
    button.tap()
    assert not links.first.is_visible()


def test_a_tap_on_the_language_switch_changes_the_language(new_context):
    page = new_context(locale="en-GB", **PHONE).new_page()
    page.goto("/")
    french = page.locator('header.site .lang-switch [data-lang="fr"]')
    french.wait_for()
    on_screen(french)
    french.tap()
    page.wait_for_function("() => document.documentElement.lang === 'fr'")
    assert page.locator("#create-title").inner_text() == "Nouvelle partie"
    assert french.get_attribute("aria-pressed") == "true"


def test_the_three_ways_to_play_are_on_the_lobbys_first_screen(new_context, output_dir):
    page = new_context(**PHONE).new_page()
    with_bots(page)
    page.goto("/")
    page.wait_for_selector(".pool-tile")
    page.wait_for_selector("[data-bot]")
    page.wait_for_selector(".variant-card")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    # Quick pairing: a tile; the computer: a bot; a friend: the form's start and its note.
    on_screen(page.locator("#pools .pool-tile").first)
    on_screen(page.locator("#bot-list [data-bot]").first)
    on_screen(page.locator("#create-title"))
    on_screen(page.locator("#friend-note"))
    page.screenshot(path=output_dir / "phone-lobby.png")
