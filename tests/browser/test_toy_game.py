"""A sixth game added as docs/adding-a-game.md says (tests/toygame) is drawn and played in
Chromium: its page shows its 3×3 board and stones, its name from its table entry, and two
players place stones by clicking until the game ends."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server import Server, running
from tests.toygame import ENV, TOY, registered

from .helpers import Game, assert_shows, make_move, open_game, page_state, server_game

MOVES = ["*a1", "*a2", "*a3", "*b1", "*b2", "*b3", "*c1", "*c2", "*c3"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of its own that has the toy game (the zygote's child registers it)."""
    with (
        registered(),  # for this process's engine: the helpers' Game checks every move
        running(
            tmp_path_factory.mktemp("toy-server"),
            "toy-wLPM5-LAoWHFGFVAEQGN9aqGmpt9yY",
            **{ENV: "1"},
        ) as srv,
    ):
        yield srv


@pytest.fixture
def new_context(server: Server, new_context):  # asks for the server first
    """The browser tests' contexts, on this module's server: started before Chromium (whose
    running event loop would stop the server's set-up from running its own)."""
    return new_context


def test_the_toy_game_page_draws_its_board_and_plays_to_the_end(new_context):
    pages, watcher, game_id = open_game(new_context, "col")
    assert watcher is not None
    squares = watcher.locator("#board [data-square]").evaluate_all(
        "els => els.map(e => e.dataset.square).sort()"
    )
    assert squares == sorted(f"{f}{r}" for f in "abc" for r in "123")
    assert TOY.names["en"] in watcher.locator("body").inner_text()
    game = Game("col")
    for text in MOVES:
        make_move(pages[game.mover], game, text)
    for page in (*pages.values(), watcher):
        assert_shows(page, game)
        assert page_state(page)["status"] == "variantEnd"
    assert server_game(watcher, game_id)["result"]["winner"] == "first"
