"""The puzzle page in Chromium: an account solves a puzzle by clicking its moves (the
opponent's replies played by the page), sees its rating change and goes on to the next one;
a guest's wrong move is refused, a hint names the square, giving up plays the solution out;
the daily puzzle; no axe-core violation."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from app.puzzles.data import DEFAULT_FILE, read
from tests.browser.test_accessibility import violations


def a_puzzle(plies: int) -> dict[str, Any]:
    """A puzzle of the committed set of this length whose solver moves are all on the board
    (no drop: clicked square to square)."""
    for puzzle in read(DEFAULT_FILE):
        if puzzle["plies"] == plies and not any("*" in m for m in puzzle["solution"][::2]):
            return puzzle
    raise AssertionError(f"no {plies}-ply puzzle without a drop")


def click_move(page: Any, move: str) -> None:
    page.locator(f'#board [data-square="{move[:2]}"]').click()
    page.locator(f'#board [data-square="{move[2:4]}"]').click()


def wait_for_turn(page: Any, at: int) -> None:
    page.wait_for_function(
        "at => window.kodama.state.phase === 'play' && window.kodama.state.at === at", arg=at
    )


def test_an_account_solves_a_puzzle_by_clicking_and_goes_on_to_the_next(
    account: Any, output_dir: Path
) -> None:
    page, _name = account("puzzler")
    puzzle = a_puzzle(3)
    page.goto(f"/training/{puzzle['id']}")
    expect(page.locator("#puzzle-rating")).to_contain_text("1500")
    wait_for_turn(page, 1)
    assert violations(page) == []
    click_move(page, puzzle["solution"][0])
    wait_for_turn(page, 3)  # the opponent's reply came
    expect(page.locator('#board [data-square="' + puzzle["solution"][1][2:4] + '"]')).to_have_class(
        re.compile(r"\blast\b")
    )
    click_move(page, puzzle["solution"][2])
    expect(page.locator("#puzzle-status")).to_have_text("Solved!")
    expect(page.locator("#puzzle-rating")).to_contain_text(re.compile(r"\(\+\d+\)"))
    page.screenshot(path=output_dir / "puzzle-solved.png")
    assert violations(page) == []
    page.locator("#puzzle-next").click()
    page.wait_for_url(re.compile(r"/training/(?!" + puzzle["id"] + r")\w+$"))
    page.wait_for_function("() => window.kodama.state.phase === 'play'")


def test_a_guest_is_refused_a_wrong_move_gets_a_hint_and_sees_the_solution(
    new_context: Any,
) -> None:
    page = new_context().new_page()
    puzzle = a_puzzle(5)
    page.goto(f"/training/{puzzle['id']}")
    wait_for_turn(page, 1)
    expect(page.locator("#puzzle-rating")).to_contain_text("Log in")
    state = page.evaluate("() => window.kodama.state.data.positions[1]")
    wrong = next(m for m in state["legalMoves"] if m != puzzle["solution"][0] and "*" not in m)
    click_move(page, wrong)
    expect(page.locator("#puzzle-status")).to_contain_text(f"{wrong} is not the move")
    page.locator("#puzzle-hint").click()
    expect(page.locator("#puzzle-hint-text")).to_contain_text(puzzle["solution"][0][:2])
    page.locator("#puzzle-give-up").click()
    expect(page.locator("#puzzle-status")).to_have_text("Here is the solution.")
    last = len(puzzle["solution"]) + 1
    page.wait_for_function("last => window.kodama.state.at === last", arg=last)
    expect(page.locator("#puzzle-next")).to_be_visible()
    assert violations(page) == []


def test_the_daily_puzzle_page_in_french(new_context: Any) -> None:
    page = new_context(locale="fr-FR").new_page()
    page.goto("/training/daily")
    page.wait_for_function("() => window.kodama.state.phase === 'play'")
    expect(page.locator("h1")).to_have_text("Problèmes")
    assert page.url.endswith("/training/daily")
    expect(page.locator('#site-nav a[href="/training"]')).to_have_text("Problèmes")
    assert violations(page) == []
    # After it, the next puzzle's own address.
    page.locator("#puzzle-give-up").click()
    expect(page.locator("#puzzle-status")).to_have_text("Voici la solution.")
    page.locator("#puzzle-next").click()
    page.wait_for_url(re.compile(r"/training/(?!daily)\w{5}$"))
