"""The tournaments page's Swiss form in Chromium: an account sets one up (a game and one of
its rule options, the clock, the rounds, the time between them, a start, casual, rating
limits, a password: its page asks it to join); a start
in the past is refused with the form's own words (in English, then in French for a French
visitor); made, the browser opens its page, and another visitor's open tournaments page
lists it without a reload. axe-core finds no violation on the page with the form open and
a refusal shown, in English on a desktop screen and in French on a phone."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.test_accessibility import LOCALES, SIZES, violations
from tests.server import Server

LONG_AGO = "2020-01-01T10:00"


def open_form(page: Any) -> Any:
    page.goto("/tournaments")
    page.locator("#swiss-open summary").click()
    form = page.locator("#swiss-create")
    expect(form).to_be_visible()
    expect(form.locator('select[name="variant"] option')).to_have_count(5)
    return form


def test_a_swiss_made_with_the_form_opens_its_page_and_is_listed(
    account: Any, new_context: Any, server: Server
) -> None:
    tag = str(time.monotonic_ns())[-5:]
    page, username = account(f"sf{tag}", locale="en-GB")
    viewer = new_context(locale="en-GB").new_page()  # a guest with the page open
    viewer.goto("/tournaments")
    expect(viewer.locator('[data-list="created"]')).to_be_visible()

    form = open_form(page)
    form.locator('input[name="name"]').fill(f"Swiss {tag}")
    form.locator('select[name="variant"]').select_option("jungle")
    form.locator('select[data-option="traps"]').select_option("opponent")
    form.locator('input[name="clockMinutes"]').fill("10")
    form.locator('input[name="clockIncrement"]').fill("5")
    form.locator('input[name="nbRounds"]').fill("5")
    form.locator('select[name="roundInterval"]').select_option("60")
    form.locator('input[name="rated"]').uncheck()
    form.locator('input[name="minRating"]').fill("1000")
    form.locator('input[name="maxRating"]').fill("2000")
    form.locator('input[name="password"]').fill("tuesday")
    chosen = form.locator('input[name="startsAt"]').input_value()  # ten minutes ahead
    form.locator('input[name="startsAt"]').fill(LONG_AGO)
    form.locator('button[type="submit"]').click()
    expect(page.locator("#swiss-error")).to_have_text(
        "The start must be from now to 30 days ahead."
    )
    assert "/tournaments" in page.url

    form.locator('input[name="startsAt"]').fill(chosen)
    form.locator('button[type="submit"]').click()
    page.wait_for_url("**/swiss/*")
    sid = page.url.rsplit("/", 1)[1]
    expect(page.locator("#name")).to_have_text(f"Swiss {tag}")
    made = page.request.get(f"/api/swiss/{sid}").json()
    assert (made["variant"], made["rules"]) == (
        "jungle",
        {"traps": "opponent", "repetition": "draw"},
    )
    assert made["clock"] == {"limit": 600, "increment": 5}
    assert (made["nbRounds"], made["roundInterval"], made["rated"]) == (5, 60, False)
    assert made["createdBy"] == username.lower()
    assert made["status"] == "created" and made["private"] is True
    assert (made["minRating"], made["maxRating"]) == ({"rating": 1000}, {"rating": 2000})
    # Its page asks the password to join.
    page.once("dialog", lambda dialog: dialog.accept("tuesday"))
    page.locator('[data-action="join"]').click()
    expect(page.locator('[data-action="withdraw"]')).to_be_visible()

    # The guest's page lists it among the upcoming without a reload (the lists are read
    # again every 5 s), linked to its page.
    line = viewer.locator(f'[data-list="created"] [data-swiss="{sid}"]')
    expect(line).to_be_visible(timeout=10_000)
    expect(line).to_contain_text("Swiss")
    expect(line).to_contain_text("5 rounds")
    expect(line.locator("a")).to_have_attribute("href", f"/swiss/{sid}")
    line.locator("a").click()
    viewer.wait_for_url(f"**/swiss/{sid}")
    expect(viewer.locator("#name")).to_have_text(f"Swiss {tag}")


def test_a_refusal_is_worded_in_french(account: Any) -> None:
    tag = str(time.monotonic_ns())[-5:]
    page, _ = account(f"sr{tag}", locale="fr-FR")
    form = open_form(page)
    expect(page.locator("#swiss-open summary")).to_have_text("Préparer un tournoi suisse")
    form.locator('input[name="startsAt"]').fill(LONG_AGO)
    form.locator('button[type="submit"]').click()
    expect(page.locator("#swiss-error")).to_have_text(
        "Le début doit être entre maintenant et dans 30 jours."
    )


@pytest.mark.parametrize(("lang", "size"), [("en", "desktop"), ("fr", "phone")])
def test_the_tournaments_page_with_the_swiss_form_open_has_no_axe_violation(
    account: Any, lang: str, size: str
) -> None:
    tag = str(time.monotonic_ns())[-5:]
    page, _ = account(f"sa{tag}", **SIZES[size], locale=LOCALES[lang])
    form = open_form(page)
    form.locator('select[name="variant"]').select_option("jungle")  # two rule options
    expect(form.locator("select[data-option]")).to_have_count(2)
    form.locator('input[name="startsAt"]').fill(LONG_AGO)
    form.locator('button[type="submit"]').click()
    expect(page.locator("#swiss-error")).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert violations(page) == []


def test_the_lobby_line_links_the_next_swiss(account: Any) -> None:
    """The lobby's line as it shows a Swiss (``GET /api/tournament/next`` answered with one
    made here: other tests' events may start sooner on the shared server)."""
    tag = str(time.monotonic_ns())[-5:]
    page, _ = account(f"sl{tag}", locale="en-GB")
    body = {"clock.limit": 300, "nbRounds": 7, "name": f"Next {tag}", "variant": "wali"}
    sid = page.request.post("/api/swiss/new/kodama", data=body).json()["id"]
    (line,) = [s for s in page.request.get("/api/swiss").json()["created"] if s["id"] == sid]
    page.route("**/api/tournament/next", lambda route: route.fulfill(json=line))
    page.goto("/")
    link = page.locator("[data-next-tournament]")
    expect(link).to_have_attribute("href", f"/swiss/{sid}")
    expect(link).to_contain_text(f"Next tournament: Next {tag}, Starts in 9:")
