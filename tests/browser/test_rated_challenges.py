"""Rated games outside the pools, in a real browser: an account ticks Rated in the lobby's New
game form, a second account takes the seat by the invite link, they play it out and both
ratings change (a guest sees Rated disabled with why, and the invite or a rated open
challenge's link refused with why); an
account challenges another from their profile, rated with a clock, and the challenged one —
on another page — sees it at once, accepts, and both land in the game; a declined challenge
is told to the challenger."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.app.accounts_and_streams import MATE
from tests.browser.helpers import Game, make_move, page_state, server_game, wait_started
from tests.browser.test_accessibility import violations


def perf_of(page: Any, username: str) -> dict[str, Any] | None:
    answer = page.context.request.get(f"/api/user/{username}")
    assert answer.ok
    found: dict[str, Any] | None = answer.json()["perfs"].get("dobutsu")
    return found


def test_a_rated_game_by_invite_link_changes_both_ratings(account: Any, new_context: Any) -> None:
    first, alice = account("Alice", locale="en-GB")
    second, bob = account("Bob", locale="en-GB")
    guest = new_context(locale="en-GB").new_page()
    # A guest's form: Rated disabled, and why.
    guest.goto("/")
    guest.wait_for_selector(".variant-card")
    expect(guest.locator("#rated-why")).to_be_visible()
    expect(guest.locator("#rated-why")).to_contain_text("accounts only")
    expect(guest.locator('input[name="rated"]')).to_be_disabled()

    first.goto("/")
    first.wait_for_selector(".variant-card")
    rated = first.locator('input[name="rated"]')
    expect(rated).to_be_enabled()
    expect(first.locator("#rated-why")).to_be_hidden()
    first.locator("#variant-dobutsu").check()
    first.locator('input[name="clock"][value="byoyomi"]').check()
    first.locator('input[name="color"][value="first"]').check()
    first.locator('input[name="public"]').uncheck()
    rated.check()
    first.locator("#create-button").click()
    first.wait_for_url("**/game/*")
    game_id = first.url.rsplit("/", 1)[1]
    invite = first.locator("#invite-link")
    expect(invite).to_be_visible()
    link = invite.input_value()
    stored = server_game(first, game_id)
    assert stored["rated"] is True and stored["clock"]["byoyomi"] == 30_000

    # The guest who opens the link is told the game is rated, and where to log in.
    guest.goto(link)
    expect(guest.locator("#message")).to_contain_text("only accounts can play it")
    expect(guest.locator('#message a[href="/account"]')).to_be_visible()
    assert server_game(guest, game_id)["status"] == "created"

    # So is one who opens a rated open challenge's link (an invite link of the challenge API).
    opened = first.request.post("/api/challenge/open", data={"variant": "dobutsu", "rated": True})
    assert opened.ok, opened.text()
    guest.goto(opened.json()["url"])
    expect(guest.locator("#terms")).to_contain_text("rated")
    expect(guest.locator("#message")).to_contain_text("only accounts can play it")

    second.goto(link)
    second.wait_for_url(f"**/game/{game_id}")
    for page in (first, second):
        wait_started(page)
    game = Game("dobutsu")
    for ply, move in enumerate(MATE):
        make_move(first if ply % 2 == 0 else second, game, move)
    for page in (first, second):
        expect(page.locator("#rating-changes li")).to_have_count(2)
    won, lost = perf_of(first, alice), perf_of(first, bob)
    assert won is not None and lost is not None
    assert (won["rating"], won["games"]) == (1742, 1)
    assert (lost["rating"], lost["games"]) == (1258, 1)


def challenge_from_profile(page: Any, username: str, *, rated: bool) -> str:
    """On ``username``'s profile, challenge them to dobutsu 3+2, first; the challenge id."""
    page.goto(f"/@/{username}")
    form = page.locator("#challenge-form")
    expect(form).to_be_visible()
    form.locator('select[name="variant"]').select_option("dobutsu")
    form.locator('input[name="clock"][value="clock"]').check()
    form.locator('input[name="minutes"]').fill("3")
    form.locator('input[name="increment"]').fill("2")
    form.locator('input[name="color"][value="first"]').check()
    if rated:
        form.locator('input[name="rated"]').check()
    form.locator("#challenge-button").click()
    page.wait_for_url("**/challenge/*")
    expect(page.locator("#message")).to_contain_text("Waiting for the answer")
    return str(page.url.rsplit("/", 1)[1])


def test_a_challenge_from_a_profile_is_seen_at_once_on_another_page_and_accepted(
    account: Any, new_context: Any, output_dir: Path
) -> None:
    first, alice = account("Alice", locale="en-GB")
    second, bob = account("Bob", locale="en-GB")
    # A guest may challenge too, casual only: Rated disabled, and why.
    guest = new_context(locale="en-GB").new_page()
    guest.goto(f"/@/{bob}")
    expect(guest.locator("#challenge-form")).to_be_visible()
    expect(guest.locator('#challenge-form input[name="rated"]')).to_be_disabled()
    expect(guest.locator("#challenge-form #rated-why")).to_be_visible()
    guest.locator("#challenge-section").screenshot(path=output_dir / "profile-challenge-form.png")
    # Nobody challenges themself.
    second.goto(f"/@/{bob}")
    expect(second.locator("#recent")).to_be_attached()
    second.wait_for_function("() => !document.getElementById('profile').hidden")
    expect(second.locator("#challenge-section")).to_be_hidden()

    second.goto("/games")  # a game list page: the site socket
    second.wait_for_load_state("networkidle")
    challenge_id = challenge_from_profile(first, bob, rated=True)
    notice = second.locator(f'[data-notice="{challenge_id}"]')
    expect(notice).to_contain_text(f"{alice} (1500?) challenges you")
    expect(notice).to_contain_text("3+2 · rated · you play second")
    assert violations(second) == []  # the box over the page, too
    second.screenshot(path=output_dir / "challenge-notice.png")
    notice.get_by_role("button", name="Accept").click()
    for page in (first, second):
        page.wait_for_url(f"**/game/{challenge_id}")
        wait_started(page)
    stored = server_game(first, challenge_id)
    assert stored["rated"] is True
    assert (stored["clock"]["initial"], stored["clock"]["increment"]) == (180_000, 2_000)
    assert page_state(first)["seat"] == "first"


def test_a_declined_challenge_is_told_to_the_challenger(account: Any) -> None:
    first, _ = account("Alice", locale="en-GB")
    second, bob = account("Bob", locale="en-GB")
    elsewhere = first.context.new_page()  # another page of the challenger's
    elsewhere.goto("/leaderboard")
    second.goto("/")  # the lobby: its own socket
    second.wait_for_selector(".variant-card")
    challenge_id = challenge_from_profile(first, bob, rated=False)
    notice = second.locator(f'[data-notice="{challenge_id}"]')
    expect(notice).to_contain_text("3+2 · casual")
    notice.get_by_role("button", name="Decline").click()
    expect(notice).to_have_count(0)
    expect(first.locator("#message")).to_contain_text("Declined")
    told = elsewhere.locator(f'[data-notice="{challenge_id}"]')
    expect(told).to_contain_text(f"{bob} declined your challenge")
    told.get_by_role("button", name="Close").click()
    expect(told).to_have_count(0)
    assert first.url.endswith(f"/challenge/{challenge_id}")
