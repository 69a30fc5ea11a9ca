"""A finished game's computer review in Debian's Chromium: a spectator asks for it from the
game page, sees its place in the queue or its progress, then the evaluation graph under the
board, each player's accuracy, the marked moves with the better move (a click goes to the
position) and the marks in the move list; a player who opens the game later sees the same
review; no axe-core violation on the page with its review, in English and French."""

from __future__ import annotations

import pytest

from tests.browser.helpers import Game, make_move, open_game, wait_for_ply
from tests.browser.test_accessibility import OPTIONS, violations

# Dōbutsu: first walks its lion to the last rank; second's third move lets it (the review
# marks it), and its first too.
MOVES = ["b1c2", "b4a3", "c2c3", "a3a2", "c3c4"]


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_a_spectator_asks_for_the_review_and_everyone_sees_it(new_context, locale: str):
    pages, _, game_id = open_game(new_context, "dobutsu", spectator=False)
    game = Game("dobutsu")
    for move in MOVES:
        make_move(pages[game.mover], game, move)
    watcher = new_context(locale=locale).new_page()
    watcher.goto(f"/game/{game_id}")
    wait_for_ply(watcher, len(MOVES))
    panel = watcher.locator("#computer-review")
    ask = panel.locator('button[data-review="ask"]')
    ask.wait_for()
    ask.click()
    graph = panel.locator("svg.eval-graph")
    graph.wait_for(timeout=60_000)  # the queue's place and the progress are shown meanwhile
    assert graph.get_attribute("role") == "img"
    assert graph.get_attribute("aria-label")
    assert panel.locator(".review-players li").count() == 2
    marked = panel.locator('button[data-review="ply"]')
    assert marked.count() >= 1
    # The move list carries the marks, named in each move's label.
    judged = watcher.locator("#moves .mv .judgment")
    assert judged.count() == marked.count()
    first_mark = marked.first
    first_mark.click()
    shown = watcher.evaluate("() => window.kodama.page.review.shown()")
    mark_ply = int(first_mark.get_attribute("data-ply") or "0")
    assert shown == mark_ply
    label = watcher.locator(f'#moves .mv[data-ply="{mark_ply}"]').get_attribute("aria-label")
    assert label and ("better" in label or "meilleur" in label)
    # A click on the graph's start shows the start.
    graph.click(position={"x": 1, "y": 20})
    assert watcher.evaluate("() => window.kodama.page.review.shown()") == 0
    assert violations(watcher) == [], OPTIONS
    # A player opening the game afterwards sees the same review at once.
    player = pages["second"]
    player.reload()
    player.locator("#computer-review svg.eval-graph").wait_for()
    assert player.locator("#moves .mv .judgment").count() == judged.count()
