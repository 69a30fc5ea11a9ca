"""The pages about players in a real browser: a rated game between two accounts played to
its end in two contexts — both end panels, after a reload too, and both profiles show
Glicko-2's exact change (computed here with app/ratings/glicko2.py); the leaderboard lists
an established player with 10 rated games and not one with 9; "my games" for an anonymous
player; the page of no player; French throughout."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from app.ratings import glicko2
from tests.app.accounts_and_streams import MATE
from tests.browser.helpers import Game, make_move, wait_started
from tests.browser.test_ui import ENGLISH_ONLY_JS


def change_text(name: str, before: glicko2.Rating, after: glicko2.Rating) -> str:
    old, new = round(before.rating), round(after.rating)
    mark = "?" if after.provisional else ""
    return f"{name}: {old} → {new}{mark} ({'+' if new > old else ''}{new - old})"


def test_a_rated_game_shows_the_exact_glicko2_change_in_both_end_panels_and_profiles(
    account: Any, output_dir: Path
) -> None:
    first, alice = account("Alice", locale="en-GB")
    second, bob = account("Bob", locale="en-GB")
    errors: list[str] = []
    for page in (first, second):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    made = first.request.post(
        "/api/games", data={"variant": "dobutsu", "color": "first", "rated": True}
    )
    assert made.status == 201, made.text()
    game_id = made.json()["id"]
    joined = second.request.post(f"/api/games/{game_id}/join")
    assert joined.ok, joined.text()
    for page in (first, second):
        page.goto(f"/game/{game_id}")
        wait_started(page)
    # Before: both new, 1500 and provisional, on each player's label.
    expect(first.locator("#player-bottom .rating")).to_have_text("1500?")
    expect(first.locator("#player-top .rating")).to_have_text("1500?")
    expect(first.locator("#rating-changes li")).to_have_count(0)

    game = Game("dobutsu")
    for ply, move in enumerate(MATE):
        make_move(first if ply % 2 == 0 else second, game, move)
    won, lost = glicko2.game(glicko2.Rating(), glicko2.Rating(), glicko2.WIN)
    expected = [
        change_text(alice, glicko2.Rating(), won),
        change_text(bob, glicko2.Rating(), lost),
    ]
    assert expected == [f"{alice}: 1500 → 1742? (+242)", f"{bob}: 1500 → 1258? (-242)"]
    # Live: the ratings message reaches both end panels.
    for page in (first, second):
        expect(page.locator("#rating-changes li")).to_have_text(expected)
    first.screenshot(path=output_dir / "rated-game-end.png")
    # After a reload: the state carries the change.
    second.reload()
    expect(second.locator("#rating-changes li")).to_have_text(expected)
    expect(second.locator("#player-bottom .rating")).to_have_text("1500?")  # as of the start

    # Both profiles: the new rating, one rated game, the chart's point, the game's change.
    for page, name, after, diff in ((first, alice, won, "+242"), (second, bob, lost, "-242")):
        page.goto(f"/@/{name}")
        perf = page.locator('[data-perf="dobutsu"]')
        expect(perf.locator("[data-rating]")).to_have_text(f"{round(after.rating)}?")
        expect(perf.locator("[data-games]")).to_have_text("1")
        point = page.locator('[data-history="dobutsu"] circle')
        expect(point).to_have_count(1)
        assert point.get_attribute("data-rating") == str(round(after.rating))
        chart = page.locator('[data-history="dobutsu"] svg[role="img"]')
        assert chart.get_attribute("aria-labelledby") == "chart-dobutsu-title"
        row = page.locator(f'#recent tr[data-game="{game_id}"]')
        expect(row).to_contain_text(diff)
        expect(row).to_contain_text("Won" if diff == "+242" else "Lost")
        expect(row.locator(f'a[href="/game/{game_id}"]')).to_have_text("Replay")
        expect(page.locator("#record")).to_contain_text("rated: 1")
    first.screenshot(path=output_dir / "profile.png", full_page=True)
    # The opponent's name links to their profile.
    second.locator(f'#recent a[href="/@/{alice}"]').click()
    expect(second.locator("h1")).to_have_text(alice)
    assert errors == []


def test_the_leaderboard_lists_10_rated_games_and_not_9(
    account: Any, server: Any, output_dir: Path
) -> None:
    page, ten = account("Ten", locale="en-GB")
    _, nine = account("Nine")
    # Ratings as ten and nine rated games would have left them, both settled (RD 60):
    # written straight into the server's database (playing 19 games would show nothing more).
    now = int(time.time() * 1000)
    with sqlite3.connect(Path(server.env["KODAMA_DATA_DIR"]) / "kodama.sqlite3") as db:
        for name, games in ((ten, 10), (nine, 9)):
            db.execute(
                "INSERT INTO ratings (player_id, variant, rating, deviation, volatility, games,"
                " rated_ms) VALUES (?, 'jungle', 2400, 60, 0.06, ?, ?)",
                (name.lower(), games, now),
            )
    page.goto("/")
    page.locator('header.site a[href="/leaderboard"]').click()
    board = page.locator('[data-board="jungle"]')
    row = board.locator(f'tr[data-user="{ten.lower()}"]')
    expect(row).to_be_visible()
    expect(row.locator("[data-rating]")).to_have_text("2400")
    expect(board.locator(f'tr[data-user="{nine.lower()}"]')).to_have_count(0)
    page.screenshot(path=output_dir / "leaderboard.png", full_page=True)
    row.locator("a").click()
    expect(page.locator("h1")).to_have_text(ten)
    expect(page.locator('[data-perf="jungle"] [data-rating]')).to_have_text("2400")
    expect(page.locator('[data-perf="jungle"] [data-games]')).to_have_text("10")


def test_my_games_for_an_anonymous_player_and_the_page_of_no_player(new_context: Any) -> None:
    page = new_context(locale="fr-FR").new_page()
    made = page.request.post("/api/games", data={"variant": "jungle", "color": "first"})
    assert made.status == 201
    body = made.json()
    other = new_context().new_page()
    other.goto(body["inviteUrl"])
    other.wait_for_url(f"**/game/{body['id']}")
    page.goto("/games")
    row = page.locator(f'tr[data-game="{body["id"]}"]')
    expect(row).to_contain_text("En cours")
    expect(row.locator("a")).to_have_text("Ouvrir")
    expect(page.locator("#about")).to_contain_text("Sans compte")
    assert page.evaluate(ENGLISH_ONLY_JS) == []
    row.locator("a").click()
    page.wait_for_url(f"**/game/{body['id']}")

    missing = page.goto("/@/x404404")
    assert missing is not None and missing.status == 404
    expect(page.locator("h1")).to_have_text("Joueur introuvable")
    expect(page.locator("#about")).to_contain_text("« x404404 »")
    assert page.evaluate(ENGLISH_ONLY_JS) == []
