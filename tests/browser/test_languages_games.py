"""A whole game of each of the five games played in each shipped language, in Chromium
(test_languages.py checks every page): the page says the language, no English word is left
and no text overflows at the end; Dōbutsu's moves are written in the Japanese notation,
chosen on the game page, and its downloaded record names it. A module of its own, so that
another worker takes it beside the page sweeps."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bots.players import AlphaBetaPlayer
from tests.browser.helpers import Game, make_move, open_game, wait_for_ply
from tests.browser.test_accessibility import SIZES
from tests.browser.test_languages import (
    LOCALES,
    OVERFLOW_JS,
    SHIPPED,
    VARIANTS,
    english_words,
    fonts,  # noqa: F401
)

# The first player is the computer searching two plies deep, the second plays at random:
# each game ends in the first player's win, in 17 (jungle) to 47 (wali) plies. Jungle's
# random moves had drawn by the 100-move rule. Each game has a new player (its table,
# history and shuffle start empty) on no clock: the same moves on every run, whichever
# games a worker played before.
THINKING_S = 60.0  # never reached at two plies: the depth ends the search


def next_move(game: Game, first: AlphaBetaPlayer, rng: random.Random) -> str:
    if game.mover == "first":
        return first.choose(game.game, game.pos, THINKING_S)
    moves: list[str] = sorted(game.game.legal_moves(game.pos))
    return rng.choice(moves)


def switch_to(page: Any, lang: str) -> None:
    page.locator(f'header.site .lang-switch [data-lang="{lang}"]').click()
    page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("lang", SHIPPED)
def test_a_whole_game_in_the_language(new_context, lang: str, variant: str) -> None:
    pages, _, game_id = open_game(
        new_context, variant, spectator=False, locale=LOCALES[lang], **SIZES["desktop"]
    )
    switch_to(pages["second"], lang)  # its browser speaks English: the switch
    game, first, rng = Game(variant), AlphaBetaPlayer(max_depth=2, seed=0), random.Random(variant)
    if variant == "dobutsu":
        # The Japanese notation, chosen on the game page beside the standard one.
        pages["first"].locator('#prefs select[data-pref="notation"]').select_option("japanese")
    while game.result is None:
        make_move(pages[game.mover], game, next_move(game, first, rng))
        assert len(game.moves) < 400, "the game did not end"
    data = ["Kodama", "Anonymous"]
    for side, page in pages.items():
        wait_for_ply(page, len(game.moves))
        page.wait_for_selector('[data-record="download"]')
        assert page.evaluate("() => document.documentElement.lang") == lang
        assert english_words(page, lang, data) == [], side
        assert page.evaluate(OVERFLOW_JS) == [], side
    if variant == "dobutsu":
        first = pages["first"]
        shown_moves = first.locator("#moves button.mv").all_inner_texts()
        assert shown_moves and all(m.strip()[0] in "▲△" for m in shown_moves), shown_moves
        href = first.locator('[data-record="download"]').get_attribute("href")
        assert href == f"/game/export/{game_id}?notation=japanese"
        record = first.request.get(href).text()
        assert re.search(r"^1\. [a-z]\d[a-z]\d\+? \{ ▲[ABC][1-4]", record, re.MULTILINE), record
