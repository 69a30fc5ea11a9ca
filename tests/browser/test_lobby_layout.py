"""The lobby fits (bounding boxes, not the eye): at 1280×800 the form's Create button, quick
pairing and "play the computer" on the first screen; on a phone the open games within the
first 2,000 px; while waiting for an opponent the invite link on a phone's first screen.
The labels: bots by strength with a line on how they play, a 15-second game as "¼+0",
piece sets and "Anonymous" in words of the page's language."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .helpers import box_of

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
# Online bots in no particular order (the bot API's answer, routed in the page).
BOTS = [
    {"id": "b1", "username": "kodama-hard", "title": "BOT", "bot": {"games": ["dobutsu"]}},
    {"id": "b2", "username": "zeta-bot", "title": "BOT", "bot": {"games": ["dobutsu"]}},
    {"id": "b3", "username": "kodama-random", "title": "BOT", "bot": {"games": ["dobutsu"]}},
    {"id": "b4", "username": "kodama-medium", "title": "BOT", "bot": {"games": ["dobutsu"]}},
    {"id": "b5", "username": "kodama-easy", "title": "BOT", "bot": {"games": ["dobutsu"]}},
]


def with_bots(page) -> None:
    page.route(
        "**/api/bot/online",
        lambda route: route.fulfill(
            content_type="application/x-ndjson",
            body="".join(json.dumps(bot) + "\n" for bot in BOTS),
        ),
    )


def on_first_screen(page, selector: str, height: int) -> dict[str, Any]:
    box = box_of(page, selector)
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, (selector, box)
    return box


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_at_1280x800_create_pairing_and_the_computer_need_no_scrolling(
    new_context, output_dir, locale: str
):
    page = new_context(locale=locale, **DESKTOP).new_page()
    with_bots(page)
    page.goto("/")
    page.wait_for_selector(".pool-tile")
    page.wait_for_selector("[data-bot]")
    for selector in ("#create-button", "#pools .pool-grid", "#bot-list"):
        on_first_screen(page, selector, 800)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 1280
    # Bots weakest first, each with a line on how it plays; another bot after them.
    names = page.locator("[data-bot]").evaluate_all("els => els.map(e => e.dataset.bot)")
    assert names == ["kodama-random", "kodama-easy", "kodama-medium", "kodama-hard", "zeta-bot"]
    page.screenshot(path=output_dir / f"lobby-layout-1280x800-{locale}.png")
    if locale != "en-GB":
        return
    lines = page.locator("[data-bot] .bot-games").all_inner_texts()
    assert lines[0] == "Plays any legal move at random: for learning the rules."
    assert lines[3] == "Searches up to two seconds a move: a strong opponent."
    assert lines[4] == "plays Dōbutsu shōgi"


def test_on_a_phone_the_open_games_come_early(new_context, output_dir):
    page = new_context(**PHONE).new_page()
    page.goto("/")
    page.wait_for_selector(".pool-tile")
    page.wait_for_selector(".variant-card")
    top = page.evaluate(
        "() => document.getElementById('open-games').getBoundingClientRect().top + scrollY"
    )
    assert top < 2000, top
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    page.screenshot(path=output_dir / "lobby-layout-phone.png", full_page=True)


def test_on_a_phone_the_invite_link_shows_while_waiting(new_context, output_dir):
    page = new_context(**PHONE).new_page()
    made = page.request.post("/api/games", data={"variant": "jungle", "color": "first"})
    page.goto(f"/game/{made.json()['id']}")
    page.wait_for_selector("#invite-link")
    on_first_screen(page, "#invite-link", 844)
    on_first_screen(page, '[data-action="copy-invite"]', 844)
    page.screenshot(path=output_dir / "lobby-layout-invite-phone.png")


@pytest.mark.parametrize(
    ("locale", "anonymous", "sets"),
    [("en-GB", "Anonymous", ["Animals", "Yōkai"]), ("fr-FR", "Anonyme", ["Animaux", "Yōkaï"])],
)
def test_labels_in_words(new_context, locale: str, anonymous: str, sets: list[str]):
    page = new_context(locale=locale, **DESKTOP).new_page()
    made = page.request.post(
        "/api/games",
        data={"variant": "dobutsu", "color": "first", "clock": {"minutes": 0.25, "increment": 0}},
    )
    assert made.ok, made.text()
    game_id = made.json()["id"]
    page.goto(f"/game/{game_id}")
    page.wait_for_selector("#board .sq")
    # A 15-second clock as lichess writes it, never "0.25+0".
    assert page.locator("#title small").inner_text().startswith("¼+0")
    # The piece sets by name.
    assert page.locator("#piece-set option").all_inner_texts() == sets
    # The server's "Anonymous 4F2A" in the page's language.
    name = page.locator("#player-bottom .name").inner_text()
    assert name.startswith(f"{anonymous} ") and len(name) == len(anonymous) + 5, name
    # The lobby's open list, and the viewer's own name in the header.
    page.goto("/")
    row = page.locator(f'#open-games li:has(a[href="/game/{game_id}"]), #open-games li')
    row.first.wait_for()
    assert "¼+0" in page.locator("#open-games").inner_text()
    assert "0.25" not in page.locator("#open-games").inner_text()
    page.wait_for_function("() => document.getElementById('me').textContent.length > 0")
    assert f"{anonymous} " in page.locator("#me").inner_text()
