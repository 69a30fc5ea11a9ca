"""axe-core (bundled by axe-playwright-python) on every page, in English on a desktop screen
and in French on a phone: no violation of WCAG 2.0/2.1 A and AA (contrast included).

Pages: the lobby (with bots online), a game waiting for its opponent (the invite), a game
being played as a player (the opponent gone: the claim countdown) and as a spectator, a
finished game, the rules index and each game's rules, the account page (anonymous and
logged in), a profile, the leaderboard, "my games", an invite link already used, an open
challenge, and /docs."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
from axe_playwright_python.sync_playwright import Axe

from tests.browser.helpers import Game, make_move, open_game
from tests.server import Server

AXE = Axe()
OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    "resultTypes": ["violations"],
}
SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}
LOCALES = {"en": "en-GB", "fr": "fr-FR"}
VARIANTS = ["dobutsu", "gorogoro", "jungle", "yote", "wali"]
BOTS = [
    {"id": "b1", "username": "kodama-easy", "title": "BOT", "bot": {"games": VARIANTS}},
    {"id": "b2", "username": "kodama-random", "title": "BOT", "bot": {"games": ["dobutsu"]}},
]


def violations(page) -> list[str]:
    """Each violation as "rule: target summary", for a readable failure."""
    # Slides over (colours mid-way mislead the contrast check); looping ones never end.
    page.wait_for_function(
        "() => document.getAnimations().every(a => a.effect.getComputedTiming().endTime"
        " === Infinity)"
    )
    results: Any = AXE.run(page, options=OPTIONS)
    found = []
    for violation in results.response["violations"]:
        for node in violation["nodes"]:
            summary = " ".join(node.get("failureSummary", "").split())
            found.append(f"{violation['id']}: {node['target']} {summary}")
    return found


# Each language and each screen size, in two runs rather than all four pairs: what a page
# shows differs by language (its words) and by size (its layout), and one run loads every
# page (~30 s of CPU, mostly Chromium's; docs/decisions/accessibility.md). The French phone
# run is in test_accessibility_phone.py: a browser module stays on one worker
# (tests/conftest.py), so two modules let two workers take the two runs at once.
def test_every_page_has_no_axe_violation(account, new_context, server: Server):
    every_page_has_no_axe_violation(account, new_context, server, "en", "desktop")


def every_page_has_no_axe_violation(
    account, new_context, server: Server, lang: str, size: str
) -> None:
    """Every page in ``lang`` on a ``size`` screen: axe-core finds no violation."""
    options: dict[str, Any] = {**SIZES[size], "locale": LOCALES[lang]}
    found: dict[str, list[str]] = {}

    def check(page, name: str, ready: Callable[[], Any]) -> None:
        ready()
        found[name] = violations(page)

    # The lobby, bots online.
    page, _username = account("axe", **options)
    page.route(
        "**/api/bot/online",
        lambda route: route.fulfill(
            content_type="application/x-ndjson",
            body="".join(json.dumps(bot) + "\n" for bot in BOTS),
        ),
    )
    page.goto("/")
    check(page, "lobby", lambda: page.wait_for_selector("[data-bot]"))
    for url, name in (
        ("/account", "account"),
        (f"/@/{_username}", "profile"),
        ("/leaderboard", "leaderboard"),
        ("/games", "games"),
        ("/rules", "rules"),
        ("/docs", "docs"),
    ):
        page.goto(url)
        check(page, name, lambda: page.wait_for_load_state("networkidle"))
    for variant in VARIANTS:
        page.goto(f"/rules/{variant}")
        check(page, f"rules-{variant}", lambda: page.wait_for_selector(".board"))
    # Anonymous: the account page's forms.
    anonymous = new_context(**options).new_page()
    anonymous.goto("/account")
    check(anonymous, "account-anonymous", lambda: anonymous.wait_for_load_state("networkidle"))
    # A game waiting for its opponent: the invite panel.
    made = anonymous.request.post("/api/games", data={"variant": "jungle", "color": "first"})
    anonymous.goto(f"/game/{made.json()['id']}")
    check(anonymous, "game-waiting", lambda: anonymous.wait_for_selector("#invite-link"))
    # A yoté game: a jump, seen by a player and a spectator; then the opponent leaves.
    pages, watcher, game_id = open_game(new_context, "yote", **options)
    assert watcher is not None
    game = Game("yote")
    for text in ["*f5", "*f4", "f5f3"]:
        make_move(pages[game.mover], game, text)
    check(watcher, "game-spectator", lambda: watcher.wait_for_selector("#board .sq.jumped"))
    check(pages["second"], "game-player", lambda: pages["second"].wait_for_selector(".sq.last"))
    pages["first"].context.close()
    second = pages["second"]
    check(second, "game-claim", lambda: second.wait_for_selector("[data-action=claim-victory]"))
    # The game over: the end panel.
    second.locator('[data-action="resign"]').click()
    second.locator('[data-action="resign"]').click()
    check(second, "game-over", lambda: second.wait_for_selector("#replay:not([hidden])"))
    # An invite link already used, and an open challenge.
    used = new_context(**options).new_page()
    used.goto(made.json()["inviteUrl"])  # the seat is taken...
    used.wait_for_url("**/game/*")
    other = new_context(**options).new_page()
    other.goto(made.json()["inviteUrl"])  # ...so the link says so to the next one
    check(
        other,
        "invite-used",
        lambda: other.wait_for_function(
            "() => document.getElementById('message').textContent.trim().length > 0"
        ),
    )
    challenge = httpx.post(
        f"{server.base}/api/challenge/open", json={"variant": "wali"}, timeout=10
    ).json()
    used.goto(challenge["url"])
    check(
        used,
        "challenge",
        lambda: used.wait_for_function(
            "() => document.getElementById('message').textContent.trim().length > 0"
        ),
    )
    assert game_id
    bad = {name: found_here for name, found_here in found.items() if found_here}
    assert bad == {}, json.dumps(bad, indent=1, ensure_ascii=False)
