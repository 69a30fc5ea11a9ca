"""Each game's board at 1280×800 after a few moves (a capture for yoté and wali, the last
move the opponent's): its screenshot in tests/output/ and what the capture marks; the board's
size and steadiness measured with bounding boxes; moves that slide unless motion is reduced;
the last move's highlight and the tab's title."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.openings import WALI_PLACEMENTS

from .helpers import Game, box_of, make_move, open_game, wait_for_ply

DESKTOP = {"viewport": {"width": 1280, "height": 800}}

# A few plies of each game, ending on a capture where the game has one to show.
OPENINGS: dict[str, list[str]] = {
    "dobutsu": ["b2b3", "b4b3"],
    "gorogoro": ["c3c4", "d4d3"],
    "jungle": ["a3a4", "g7g6", "a4a5"],
    # second's stone on f4 is jumped: f5f3 takes it.
    "yote": ["*f5", "*f4", "f5f3"],
    # 22 placements, a step, then e5d5 makes a line of three and takes c2.
    "wali": [*WALI_PLACEMENTS, "c3b3", "e5d5xc2"],
}


def played(new_context, variant: str):
    pages, _, _ = open_game(new_context, variant, spectator=False, **DESKTOP)
    game = Game(variant)
    for text in OPENINGS[variant]:
        make_move(pages[game.mover], game, text)
    return pages, game


@pytest.mark.parametrize("variant", list(OPENINGS))
def test_the_board_after_a_capture_marks_what_it_took(new_context, output_dir: Path, variant: str):
    pages, game = played(new_context, variant)
    # The player who did not make the last move: the opponent's last move is on their board.
    viewer = pages["second" if game.mover == "second" else "first"]
    viewer.set_viewport_size(DESKTOP["viewport"])
    viewer.wait_for_function("() => document.getAnimations().length === 0")
    viewer.screenshot(path=output_dir / f"board-{variant}.png")
    # What the last move captured with is marked: yoté's jumped stone, wali's line.
    marked = viewer.evaluate(
        """() => Object.fromEntries(['jumped', 'line'].map(mark => [mark,
          [...document.querySelectorAll(`#board .sq.${mark}`)].map(sq => sq.dataset.square)
            .sort()]))"""
    )
    expected = {
        "yote": {"jumped": ["f4"], "line": []},
        "wali": {"jumped": [], "line": ["d3", "d4", "d5"]},
    }.get(variant, {"jumped": [], "line": []})
    assert marked == expected
    if variant == "yote":
        label = viewer.locator('#board [data-square="f4"]').get_attribute("aria-label")
        assert label and "stone taken by the last jump" in label


# ---- the board's size and place ------------------------------------------------------------
def board_box(page) -> dict[str, float]:
    return box_of(page, "#board .board")


@pytest.mark.parametrize(
    ("variant", "ranks"), [("dobutsu", 4), ("gorogoro", 6), ("jungle", 9), ("yote", 5)]
)
def test_the_board_fills_the_height_of_a_large_screen(new_context, variant: str, ranks: int):
    sizes = {}
    for width, height in ((1280, 800), (1920, 1080)):
        page = new_context(viewport={"width": width, "height": height}).new_page()
        made = page.request.post("/api/games", data={"variant": variant, "color": "first"})
        page.goto(f"/game/{made.json()['id']}")
        page.wait_for_selector("#board .sq")
        box = board_box(page)
        bottom = box_of(page, "#player-bottom .who")
        # The whole board and the bar under it on the first screen, nothing wider either.
        assert bottom["y"] + bottom["height"] <= height
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        sizes[width] = box["height"] / ranks
    # No 92 px cap: a dōbutsu square at 1280×800 is well over it, and a larger screen gets
    # larger squares.
    assert sizes[1920] > sizes[1280]
    if variant == "dobutsu":
        assert sizes[1280] > 140, sizes
    # At least 60% of the screen's height goes to the board.
    assert sizes[1280] * ranks > 0.6 * 800


def test_the_board_does_not_move_sideways_as_hands_names_and_turns_change(new_context):
    pages, _, _ = open_game(new_context, "gorogoro", spectator=False, **DESKTOP)
    first = pages["first"]
    game = Game("gorogoro")
    before = board_box(first)
    seen = [before]
    # Captures fill both hands, the turn mark goes from bar to bar.
    for text in ["c3c4", "d4d3", "c4c5", "d6c5"]:
        make_move(pages[game.mover], game, text)
        wait_for_ply(first, len(game.moves))
        seen.append(board_box(first))
    assert first.locator("#player-bottom [data-hand]").count() >= 1
    assert first.locator("#player-top [data-hand]").count() >= 1
    # A long name does not push the board either.
    first.evaluate(
        "() => { document.querySelector('#player-top .name').textContent = 'W'.repeat(60); }"
    )
    seen.append(board_box(first))
    for box in seen:
        assert (box["x"], box["width"]) == (before["x"], before["width"]), seen


# ---- the last move: highlighted, animated, and the tab's title -------------------------------
SPY_JS = """() => { window.slides = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) {
    window.slides.push(this.closest('[data-square]')?.dataset.square || null);
    return animate.apply(this, args);
  }; }"""


@pytest.mark.parametrize("reduced", [False, True], ids=["motion", "reduced-motion"])
def test_moves_slide_unless_motion_is_reduced(new_context, reduced: bool):
    options = {"reduced_motion": "reduce" if reduced else "no-preference"}
    pages, _, _ = open_game(new_context, "dobutsu", spectator=False, **options)
    first, second = pages["first"], pages["second"]
    first.evaluate(SPY_JS)
    game = Game("dobutsu")
    make_move(first, game, "b2b3")  # first's own move, then second's reply
    make_move(second, game, "b4b3")
    first.wait_for_function("() => window.kodama.page.game.moves.length === 2")
    slides = first.evaluate("() => window.slides")
    assert slides == ([] if reduced else ["b3", "b3"])
    # A drop slides from the hand.
    first.evaluate("() => { window.slides = []; }")
    make_move(first, game, "C*a3")
    assert first.evaluate("() => window.slides") == ([] if reduced else ["a3"])


def test_a_placed_stone_slides_from_the_hand_and_a_jump_from_its_square(new_context):
    """Yoté's placements come from the stones in hand ("*"), its captures jump."""
    pages, _, _ = open_game(new_context, "yote", spectator=False, reduced_motion="no-preference")
    first = pages["first"]
    first.evaluate(SPY_JS)
    game = Game("yote")
    make_move(first, game, "*f5")
    make_move(pages["second"], game, "*f4")
    make_move(first, game, "f5f3")
    first.wait_for_function("() => window.kodama.page.game.moves.length === 3")
    assert first.evaluate("() => window.slides") == ["f5", "f4", "f3"]


def test_the_opponents_last_move_stays_highlighted_and_the_title_says_your_turn(new_context):
    pages, _, _ = open_game(new_context, "dobutsu", spectator=False)
    first, second = pages["first"], pages["second"]
    game = Game("dobutsu")
    assert first.title().startswith("Your turn · ")
    assert not second.title().startswith("Your turn")
    make_move(first, game, "b2b3")
    first.wait_for_function("() => !document.title.startsWith('Your turn')")
    second.wait_for_function("() => document.title.startsWith('Your turn · ')")
    make_move(second, game, "b4b3")
    wait_for_ply(first, 2)  # the mover's page has it; the opponent's once the move arrives
    last = "#board .sq.last"
    assert sorted(first.locator(last).evaluate_all("els => els.map(e => e.dataset.square)")) == [
        "b3",
        "b4",
    ]
    # Choosing a piece, opening and closing a menu, the clock ticking: still highlighted.
    first.locator('#board [data-square="a1"]').click()
    assert first.locator('#board [data-square="a1"].selected').count() == 1
    marked = first.locator(last).evaluate_all("els => els.map(e => e.dataset.square)")
    assert sorted(marked) == ["b3", "b4"]
    first.locator('#board [data-square="a1"]').click()  # unselect
    assert sorted(first.locator(last).evaluate_all("els => els.map(e => e.dataset.square)")) == [
        "b3",
        "b4",
    ]
