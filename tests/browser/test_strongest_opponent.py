"""The lobby's strongest opponent per game, marked in the list of bots: perfect play for
Dōbutsu (while a table serves the chosen rules), Fairy-Stockfish for Gorogoro, the hard level
for the rest; its line says what it is and its rating from the site's games; a click
challenges it. The bot API and the seats are answered by the browser's own routes; axe finds
no violation."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.browser.test_accessibility import OPTIONS

ALL = ["dobutsu", "gorogoro", "jungle", "yote", "wali"]
BOTS = [
    {"id": "b1", "username": "kodama-easy", "title": "BOT", "bot": {"games": ALL}},
    {"id": "b2", "username": "kodama-hard", "title": "BOT", "bot": {"games": ALL}},
    {"id": "b3", "username": "kodama-fairy", "title": "BOT", "bot": {"games": ALL[:2]}},
    {"id": "b4", "username": "kodama-perfect", "title": "BOT", "bot": {"games": ["dobutsu"]}},
]


def seat(name: str, perfs: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"username": name, "seats": 4, "taken": 0, "free": 4, "perfs": perfs, **extra}


SEATS = [
    seat("kodama-easy", {}),
    seat("kodama-hard", {"jungle": {"rating": 1654, "games": 1, "prov": True}}),
    seat("kodama-fairy", {"gorogoro": {"rating": 2301, "games": 57, "prov": False}}),
    seat(
        "kodama-perfect",
        {"dobutsu": {"rating": 2210, "games": 40, "prov": False}},
        rulesets=["dobutsu"],
    ),
]


def lobby(new_context: Any, locale: str = "en-GB") -> tuple[Any, list[str]]:
    page = new_context(locale=locale).new_page()
    challenged: list[str] = []
    page.route(
        "**/api/bot/online",
        lambda route: route.fulfill(
            content_type="application/x-ndjson",
            body="".join(json.dumps(bot) + "\n" for bot in BOTS),
        ),
    )
    page.route("**/api/builtin/seats", lambda route: route.fulfill(json=SEATS))

    def challenge(route: Any) -> None:
        challenged.append(route.request.url.rsplit("/", 1)[1])
        route.fulfill(json={"id": "c1", "status": "created", "challenger": None})

    page.route(re.compile(r".*/api/challenge/kodama-[a-z]+$"), challenge)
    page.route(
        "**/api/challenge/c1/show",
        lambda route: route.fulfill(json={"id": "c1", "status": "created"}),
    )
    page.goto("/?game=dobutsu")
    return page, challenged


def test_the_strongest_opponent_of_each_game_with_its_rating(new_context: Any) -> None:
    page, challenged = lobby(new_context)
    marked = page.locator("#bot-list [data-strongest]")
    expect(marked).to_have_attribute("data-bot", "kodama-perfect")
    expect(marked).to_have_count(1)
    line = marked.locator(".bot-kind")
    expect(line).to_have_text("★ Perfect play from the solved table · rated 2210")
    # In words for a screen reader: for which game, and from how many rated games.
    expect(marked).to_contain_text("The strongest opponent for Dōbutsu shōgi")
    expect(marked).to_contain_text("Rated 2210 in Dōbutsu shōgi, from 40 rated games")
    # The list keeps every opponent, weakest first, the others with their usual line.
    names = page.locator("#bot-list [data-bot]").evaluate_all("els => els.map(e => e.dataset.bot)")
    assert names == ["kodama-easy", "kodama-hard", "kodama-fairy", "kodama-perfect"]
    expect(page.locator('[data-bot="kodama-hard"] .bot-games')).to_have_text(
        "Searches up to two seconds a move: a strong opponent."
    )
    page.wait_for_load_state("networkidle")
    assert violations(page) == []

    # No table for the Yōkaï rules, and Fairy-Stockfish plays default rules only.
    page.select_option('select[data-option="ruleset"]', "yokai")
    expect(marked).to_have_attribute("data-bot", "kodama-hard")
    expect(line).to_have_text("★ Kodama hard · not yet rated")
    perfect = page.locator('#bot-list [data-bot="kodama-perfect"]')
    expect(perfect).to_be_disabled()
    expect(perfect).to_contain_text("no solved table for these rules here")
    page.select_option('select[data-option="ruleset"]', "dobutsu")
    expect(marked).to_have_attribute("data-bot", "kodama-perfect")

    page.locator(".variant-card", has_text="Gorogoro").click()
    expect(marked).to_have_attribute("data-bot", "kodama-fairy")
    expect(line).to_have_text("★ Fairy-Stockfish · rated 2301")

    page.locator(".variant-card", has_text="Jungle").click()
    expect(marked).to_have_attribute("data-bot", "kodama-hard")
    expect(line).to_have_text("★ Kodama hard · rated 1654?")
    expect(marked).to_contain_text("Rated 1654? in Dou shou qi (Jungle), from 1 rated game")

    # A click challenges it, as any of the list.
    page.locator(".variant-card", has_text="Dōbutsu").click()
    marked.click()
    expect(page.locator("#bot-status")).to_contain_text("kodama-perfect")
    assert challenged == ["kodama-perfect"]


def test_in_french(new_context: Any) -> None:
    page, _ = lobby(new_context, "fr-FR")
    line = page.locator("#bot-list [data-strongest] .bot-kind")
    expect(line).to_have_text("★ Jeu parfait d'après la table résolue · classement 2210")
    expect(page.locator("#bot-list [data-strongest]")).to_contain_text("sur 40 parties classées")


@pytest.mark.parametrize(
    "options",
    [
        {"viewport": {"width": 1280, "height": 800}, "locale": "fr-FR"},
        {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
    ],
)
def test_the_mark_takes_no_more_room(new_context: Any, options: dict[str, Any]) -> None:
    """The lobby's first screen is full (tests/browser/test_phone.py, test_lobby_layout.py):
    the strongest's line replaces its usual one, and the list is no taller for it."""
    heights = []
    for seats in (SEATS, []):
        page = new_context(**options).new_page()
        page.route(
            "**/api/bot/online",
            lambda route: route.fulfill(
                content_type="application/x-ndjson",
                body="".join(json.dumps(bot) + "\n" for bot in BOTS),
            ),
        )
        page.route("**/api/builtin/seats", answer(seats))
        with page.expect_response("**/api/builtin/seats"):
            page.goto("/?game=dobutsu")
        expect(page.locator("#bot-list [data-bot]")).to_have_count(len(BOTS))
        expect(page.locator("#bot-list [data-strongest]")).to_have_count(1 if seats else 0)
        heights.append(page.locator("#bot-list").evaluate("e => e.offsetHeight"))
        page.close()
    assert heights[0] <= heights[1], heights


def answer(rows: list[dict[str, Any]]) -> Any:
    return lambda route: route.fulfill(json=rows)


def violations(page: Any) -> list[str]:
    results: Any = Axe().run(page, options=OPTIONS)
    return [
        f"{v['id']}: {node['target']}"
        for v in results.response["violations"]
        for node in v["nodes"]
    ]
