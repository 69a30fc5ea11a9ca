"""The stone games teach while they are played (game/phasehint.js): the phase line says the
phase and its rule to each viewer, wali's placement squares are marked (never one that makes
three in a row) and a click on a forbidden one says why, and what the game does by itself —
a pass, the end of placement with the stones set aside, a removal with no choice, a jump that
leaves nothing to remove — is told to the mover, the opponent and a spectator in their words.

Each game starts from a position (an open challenge with a ``fen``) a few moves before what
is shown, both seats taken through the challenge's links, a third browser watching. The
analysis board marks and explains wali's placement the same way."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.server import Server

from .helpers import Game, make_move, page_state, wait_started

PHASE = "#phase .phase-now"
NOTE = "#phase .phase-note"

PLACED_JS = """() => [...document.querySelectorAll('#board .sq.place')]
  .map(sq => sq.dataset.square).sort()"""


def from_position(new_context, server: Server, variant: str, fen: str, **watcher_options):
    """Both players' pages and a spectator's on a game of ``variant`` starting at ``fen``."""
    created = httpx.post(
        f"{server.base}/api/challenge/open", json={"variant": variant, "fen": fen}, timeout=10
    )
    assert created.status_code == 200, created.text
    body = created.json()
    pages = {}
    for side, url in (("first", body["urlWhite"]), ("second", body["urlBlack"])):
        pages[side] = new_context().new_page()
        pages[side].goto(url)
    watcher = new_context(**watcher_options).new_page()
    for page in pages.values():
        page.wait_for_url(f"**/game/{body['id']}")
        wait_started(page)
    watcher.goto(f"/game/{body['id']}")
    wait_started(watcher)
    assert page_state(pages["first"])["seat"] == "first"
    assert page_state(pages["second"])["seat"] == "second"
    return pages, watcher


def game_at(variant: str, fen: str) -> Game:
    game = Game(variant)
    game.pos = game.game.from_text(fen)
    return game


def wait_text(page, selector: str, text: str) -> None:
    """Until the element's text holds ``text`` (it is drawn again on every change)."""
    page.wait_for_function(
        """([selector, text]) => { const el = document.querySelector(selector);
          return el && el.offsetParent !== null && el.textContent.includes(text); }""",
        arg=[selector, text],
    )


def test_wali_placement_marks_the_allowed_squares_and_says_why_one_is_not(
    new_context, server: Server, output_dir: Path
):
    # first holds a1 and b1: a stone on c1 would make three in a row.
    fen = "ss4/6/6/6/SS4 f 10 10 0"
    pages, watcher = from_position(new_context, server, "wali", fen, locale="fr-FR")
    first, second = pages["first"], pages["second"]
    game = game_at("wali", fen)
    allowed = sorted(text[1:] for text in game.game.legal_moves(game.pos))
    first.wait_for_function(f"() => ({PLACED_JS})().length === {len(allowed)}")
    assert first.evaluate(PLACED_JS) == allowed
    assert "c1" not in allowed
    assert "a stone may be placed here" in str(
        first.locator('[data-square="d1"]').get_attribute("aria-label")
    )
    wait_text(first, PHASE, "Placement — you have 10 stones left to place.")
    wait_text(first, PHASE, "Put a stone on a marked square")
    # Only the player to move is shown where to place.
    wait_text(second, PHASE, "Placement — you have 10 stones left to place.")
    assert second.evaluate(PLACED_JS) == []
    wait_text(
        watcher, PHASE, "Pose — pions à poser : 10 pour le premier joueur, 10 pour le second."
    )
    # The forbidden square: nothing is played, and the reason is given in words.
    first.locator('#board [data-square="c1"]').click()
    wait_text(first, NOTE, "A stone may not be placed to make three in a row during placement.")
    assert page_state(first)["moves"] == []
    first.screenshot(path=output_dir / "wali-placement-refused.png")
    # With the hand's stone picked up first, too: said again (read aloud after the pick-up).
    first.locator('.play [data-hand="S"][data-side="first"]').click()
    wait_text(first, "#announce", "from the hand selected")
    first.locator('#board [data-square="c1"]').click()
    wait_text(first, "#announce", "may not be placed to make three in a row")
    assert page_state(first)["moves"] == []
    # A legal placement goes through and the refusal is forgotten.
    make_move(first, game, "*d3")
    wait_text(first, PHASE, "you have 9 stones left to place")
    assert not first.locator(NOTE).count()
    # Now second must place: its allowed squares are marked (c5 would make three).
    allowed = sorted(text[1:] for text in game.game.legal_moves(game.pos))
    assert "c5" not in allowed
    second.wait_for_function(f"() => ({PLACED_JS})().length === {len(allowed)}")
    assert second.evaluate(PLACED_JS) == allowed
    assert first.evaluate(PLACED_JS) == []


def test_wali_tells_a_pass_and_the_end_of_placement(new_context, server: Server):
    # Two placements from the end (tests/browser/test_play.py's full wali game): after
    # *a1 *d3 second cannot place and passes; first's *e1 ends the placement, second's
    # last two stones are set aside.
    fen = "Sss1SS/SS1S2/s1s1ss/SSs1ss/1S1S2 s 2 3 0"
    pages, watcher = from_position(new_context, server, "wali", fen)
    first, second = pages["first"], pages["second"]
    game = game_at("wali", fen)
    make_move(second, game, "*a1")
    make_move(first, game, "*d3")
    wait_text(
        first,
        NOTE,
        "Your opponent cannot place a stone without making three in a row: you place again.",
    )
    wait_text(
        second,
        NOTE,
        "You cannot place a stone without making three in a row: your opponent places again.",
    )
    wait_text(watcher, NOTE, "The second player cannot place a stone without making three in a row")
    make_move(first, game, "*e1")
    for page in (first, second, watcher):
        wait_text(page, NOTE, "Placement is over: from now on stones step")
        wait_text(page, PHASE, "Movement.")
    wait_text(first, NOTE, "Your opponent could not place their last 2 stones: they are set aside.")
    wait_text(second, NOTE, "You could not place your last 2 stones: they are set aside.")
    wait_text(watcher, NOTE, "The second player could not place their last 2 stones")
    wait_text(second, PHASE, "Step a stone one square; making a line of three removes")
    # A line of three: the stone to remove is second's choice, and the phase says so.
    second.locator('#board [data-square="c2"]').click()
    second.locator('#board [data-square="d2"]').click()
    wait_text(second, PHASE, "Capture. Your line of three takes a stone: choose an enemy stone")
    second.locator('#board [data-square="a2"]').click()
    game.play("c2d2xa2")
    wait_text(second, PHASE, "Movement.")
    assert page_state(second)["moves"] == game.moves


def test_yote_explains_a_removal_it_made_for_the_player(
    new_context, server: Server, output_dir: Path
):
    # first has no stone in hand; second has three on the board.
    fen = "6/4ss/2s3/2S3/6 f 0 9 - - 0"
    pages, watcher = from_position(new_context, server, "yote", fen)
    first, second = pages["first"], pages["second"]
    game = game_at("yote", fen)
    wait_text(first, PHASE, "Movement. Step a stone one square, or jump over an enemy stone")
    wait_text(second, PHASE, "Placing and moving — you have 9 stones left to place.")
    wait_text(watcher, PHASE, "Movement.")
    # The jump's second removal is a choice among two: asked.
    first.locator('#board [data-square="c2"]').click()
    first.locator('#board [data-square="c4"]').click()
    wait_text(first, PHASE, "Capture. Your jump took a stone: choose a second enemy stone")
    first.locator('#board [data-square="e4"]').click()
    game.play("c2c4xe4")
    make_move(second, game, "*d4")
    # Second has d4 and f4: jumping d4 leaves f4 the only stone to remove, taken at once.
    assert game.candidates("c4e4xf4") == ["c4e4xf4"]
    make_move(first, game, "c4e4xf4")
    wait_text(
        first,
        NOTE,
        "Your opponent had only one stone that could be removed: the stone on f4"
        " was removed for you.",
    )
    wait_text(
        second, NOTE, "You had only one stone that could be removed: your stone on f4 was removed."
    )
    wait_text(
        watcher,
        NOTE,
        "The second player had only one stone that could be removed: the stone on f4 was removed.",
    )
    second.screenshot(path=output_dir / "yote-only-removal.png")
    # Second has no stone on the board: placing is all it may do, every empty square marked.
    empty = sorted(text[1:] for text in game.game.legal_moves(game.pos))
    assert len(empty) == 29
    second.wait_for_function(f"() => ({PLACED_JS})().length === 29")
    assert second.evaluate(PLACED_JS) == empty
    # A jump over the last stone on the board: no second stone to remove, and it is said.
    make_move(second, game, "*d4")
    make_move(first, game, "e4c4")
    wait_text(
        first,
        NOTE,
        "Your jump took your opponent's last stone on the board: there is no second"
        " stone to remove.",
    )
    wait_text(second, NOTE, "The jump took your last stone on the board")
    wait_text(watcher, NOTE, "The jump took the second player's last stone on the board")


def test_the_analysis_board_teaches_wali_placement_too(new_context):
    page = new_context().new_page()
    page.goto("/analysis")
    page.wait_for_function("() => window.kodama && window.kodama.state.board")
    page.locator("#new-variant").select_option("wali")
    page.locator("#new-form button[type=submit]").click()
    wait_text(
        page,
        PHASE,
        "Placement — stones left to place: 12 for the first player, 12 for the second."
        " Put a stone on a marked square",
    )
    game = Game("wali")
    for text in ("*a1", "*a5", "*b1", "*b5"):
        page.locator(f'#board [data-square="{text[1:]}"]').click()
        game.play(text)
        page.wait_for_function(
            "n => { const s = window.kodama.state; return s.moves.length === n && !s.busy; }",
            arg=len(game.moves),
        )
    allowed = sorted(text[1:] for text in game.game.legal_moves(game.pos))
    assert "c1" not in allowed
    page.wait_for_function(f"() => ({PLACED_JS})().length === {len(allowed)}")
    assert page.evaluate(PLACED_JS) == allowed
    page.locator('#board [data-square="c1"]').click()
    wait_text(page, NOTE, "A stone may not be placed to make three in a row during placement.")
    assert page.evaluate("() => window.kodama.state.moves.length") == 4
