""" "Claim victory" while the opponent is away: shown at once, disabled with a countdown to
the moment the server allows the claim (presence's goneSince + the state's claimGrace), then
enabled; a claim made then ends the game. A server of its own with short grace periods
(2 s before the opponent has moved): the test waits, bounded, for that real moment."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.browser.helpers import Game, make_move, open_game, page_state
from tests.server import Server, running


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(
        tmp_path_factory.mktemp("claims-server"),
        "claims-Zq1p8vX2m4TnR7yLwK9cH3dF6gJ0sB5e",
        KODAMA_GONE_SECONDS="4",
        KODAMA_GONE_UNMOVED_SECONDS="2",
    ) as srv:
        yield srv


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_claim_victory_counts_down_then_ends_the_game(new_context, locale: str):
    pages, watcher, _ = open_game(new_context, "dobutsu", spectator=True, locale=locale)
    assert watcher is not None
    first = pages["first"]
    game = Game("dobutsu")
    make_move(first, game, "b2b3")  # first has moved; second has not: 2 s of grace
    pages["second"].context.close()
    victory = first.locator('[data-action="claim-victory"]')
    victory.wait_for()
    # Disabled at once, with the seconds left (the 2 s grace, rounded up: the page's idea
    # of the server's clock lags by the messages' transit), both buttons.
    assert victory.is_disabled()
    assert first.locator('[data-action="claim-draw"]').is_disabled()
    text = victory.inner_text()
    word = "dans" if locale == "fr-FR" else "in"
    found = re.search(rf"{word} (\d+) s", text)
    assert found, text
    assert 1 <= int(found.group(1)) <= 3
    # A spectator is never offered a claim.
    assert watcher.locator('[data-action="claim-victory"]').count() == 0
    # Enabled once the server allows it (a bounded wait for the real moment), no countdown.
    first.wait_for_function(
        "() => { const b = document.querySelector('[data-action=\"claim-victory\"]');"
        " return b && !b.disabled; }",
        timeout=6_000,
    )
    assert first.locator("[data-claim-left]").count() == 0
    victory.click()
    first.wait_for_function("() => window.kodama.page.game.status === 'timeout'")
    assert page_state(first)["result"]["reason"] == "opponent_gone"
