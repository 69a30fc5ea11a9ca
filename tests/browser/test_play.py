"""Real browsers play every game to its end through the page, a spectator watching; the
special moves (drop, promotion choice, lake jump, double removal, line capture) go through
the UI too, checked against the server afterwards; a reload and a phone-sized screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .helpers import (
    Game,
    assert_shows,
    make_move,
    move_list,
    open_game,
    page_state,
    piece_at,
    server_game,
    wait_for_ply,
)


def plies(text: str) -> list[str]:
    return text.split()


# Short games to a result, found with the engine (both sides cooperating): each move is
# checked again with the engine while the test plays it.
FULL_GAMES: dict[str, tuple[list[str], str, str]] = {
    # first's lion walks to the far rank and stays: a try.
    "dobutsu": (["b1c2", "b4a3", "c2c3", "a3a2", "c3c4"], "first", "try"),
    # second's king walks into first's camp and is mated by a silver.
    "gorogoro": (
        ["a1a2", "c6b5", "b1a1", "b5a4", "a2a3", "a4b3", "a1b2"],
        "first",
        "checkmate",
    ),
    # first's lion jumps the right lake (f3f7), takes the cat and enters second's den;
    # second's lion shuffles a9-a8.
    "jungle": (
        plies(
            "g3g4 a9a8 g1g2 a8a9 g2g3 a9a8 g3f3 a8a9 f3f7 a9a8 f7f8 a8a9 f8e8 a9a8 e8e9 a8a9 e9d9"
        ),
        "first",
        "den",
    ),
    # second places stone after stone where first's stone jumps it: no stone left.
    "yote": (
        plies(
            "*f5 *f4 f5f3 *f2 f3f1 *f2 f1f3 *e3 f3d3 *c3 d3b3 *c3 b3d3 *c3 d3b3 *c3 b3d3 *d4 "
            "d3d5 *e5 d5f5 *e5 f5d5 *e5 d5f5"
        ),
        "first",
        "no_pieces",
    ),
    # 22 placements, then first makes lines of three (removing c2, f1, f2, e2, f4) until
    # second cannot move.
    "wali": (
        plies(
            "*d1 *c2 *a2 *c3 *e5 *e2 *a5 *e3 *a4 *a3 *f5 *f3 *d4 *f2 *b2 *c5 *b4 *b5 *b1 *a1 "
            "*d3 *e1 c3b3 e5d5xc2 f2f1 d1d2xf1 e2f2 d2c2xf2 e3e2 d4c4xe2 f3f4 d3c3xf4"
        ),
        "first",
        "no_moves",
    ),
}


@pytest.mark.parametrize("variant", list(FULL_GAMES))
def test_full_game_with_a_spectator(new_context, output_dir: Path, variant: str):
    moves, winner, reason = FULL_GAMES[variant]
    pages, watcher, game_id = open_game(new_context, variant)
    assert watcher is not None
    game = Game(variant)
    assert_shows(watcher, game)
    for ply, text in enumerate(moves):
        mover = pages[game.mover]
        make_move(mover, game, text)
        wait_for_ply(watcher, ply + 1)
        assert_shows(watcher, game)
    assert game.result is not None
    assert (game.result.winner, game.result.reason) == (winner, reason)
    for page in (*pages.values(), watcher):
        wait_for_ply(page, len(moves))
        page.wait_for_function("() => window.kodama.page.game.result !== null")
        state = page_state(page)
        assert state["result"]["winner"] == winner
        assert state["result"]["reason"] == reason
        assert move_list(page) == moves
    stored = server_game(watcher, game_id)
    assert stored["moves"] == moves
    assert stored["fen"] == game.fen
    assert (stored["result"]["winner"], stored["result"]["reason"]) == (winner, reason)
    watcher.locator("#board").screenshot(path=output_dir / f"{variant}-spectator-board.png")
    pages["second"].screenshot(path=output_dir / f"{variant}-second-page.png")


def play_and_check(variant: str, moves: list[str], new_context) -> tuple[Game, dict[str, Any]]:
    pages, _, game_id = open_game(new_context, variant, spectator=False)
    game = Game(variant)
    for text in moves:
        make_move(pages[game.mover], game, text)
    other = pages[game.mover]
    wait_for_ply(other, len(moves))
    assert_shows(other, game)
    stored = server_game(other, game_id)
    assert stored["moves"] == moves
    assert stored["fen"] == game.fen
    return game, pages


def test_drop_and_promotion_choice_in_gorogoro(new_context, output_dir: Path):
    # Pawns trade on c4 and b3; first drops its pawn on b4 (hand, then square); c4c5 may
    # promote or not: the dialog asks, and first promotes.
    moves = ["c3c4", "b4b3", "P*b4", "a6a5", "c4c5+"]
    game, pages = play_and_check("gorogoro", moves, new_context)
    assert piece_at(game.fen, "b4", 6) == "P"
    assert piece_at(game.fen, "c5", 6) == "+P"
    pages["first"].locator("#board").screenshot(path=output_dir / "gorogoro-promoted.png")
    # Not promoting, in another game: the dialog's other answer.
    game, _ = play_and_check("gorogoro", ["c3c4", "b4b3", "c4c5"], new_context)
    assert piece_at(game.fen, "c5", 6) == "P"


def test_drop_in_dobutsu(new_context):
    # First's chick takes second's chick; second's elephant takes it back; first drops.
    play_and_check("dobutsu", ["b2b3", "c4b3", "C*b2"], new_context)


def test_lake_jump_in_jungle(new_context):
    # First's lion walks g1-g2-g3-f3 (the rat makes way) and jumps the lake f4-f6 to f7.
    moves = ["g3g4", "a9a8", "g1g2", "a8a9", "g2g3", "a9a8", "g3f3", "a8a9", "f3f7"]
    game, _ = play_and_check("jungle", moves, new_context)
    assert piece_at(game.fen, "f7", 9) == "L"
    assert piece_at(game.fen, "f3", 9) is None


def test_double_removal_in_yote(new_context, output_dir: Path):
    # First jumps c3 over c4 to c5, and picks e5 as the second stone to remove.
    moves = ["*c3", "*c4", "*a1", "*e5", "c3c5xe5"]
    game, pages = play_and_check("yote", moves, new_context)
    assert [piece_at(game.fen, sq, 5) for sq in ("c3", "c4", "c5", "e5")] == [None, None, "S", None]
    pages["second"].locator("#board").screenshot(path=output_dir / "yote-double-removal.png")


def test_line_capture_in_wali(new_context):
    # The wali full game's placements, then first's e5d5 makes d3-d4-d5 and removes c2.
    moves = FULL_GAMES["wali"][0][:24]
    assert moves[-1] == "e5d5xc2"
    game, _ = play_and_check("wali", moves, new_context)
    assert piece_at(game.fen, "d5", 5) == "S"
    assert piece_at(game.fen, "c2", 5) is None


def test_reload_restores_the_view(new_context):
    pages, _, _ = open_game(new_context, "dobutsu", spectator=False)
    game = Game("dobutsu")
    for text in ["b1c2", "b4a3", "c2c3"]:
        make_move(pages[game.mover], game, text)
    page = pages["second"]
    wait_for_ply(page, 3)
    squares = page.locator("#board [data-square]").evaluate_all(
        "els => els.map(e => e.dataset.square)"
    )
    before = page_state(page)
    page.reload()
    wait_for_ply(page, 3)
    after = page_state(page)
    assert after == before
    assert after["seat"] == "second"
    assert_shows(page, game)
    assert (
        page.locator("#board [data-square]").evaluate_all("els => els.map(e => e.dataset.square)")
        == squares
    )
    make_move(page, game, "a3a2")  # still this player's seat: the page accepts the move


def test_phone_sized_screen_plays(new_context, output_dir: Path):
    phone = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
    pages, _, game_id = open_game(new_context, "dobutsu", spectator=False, **phone)
    phone_page = pages["first"]
    game = Game("dobutsu")
    moves, winner, reason = FULL_GAMES["dobutsu"]
    for text in moves:
        make_move(pages[game.mover], game, text, touch=game.mover == "first")
    phone_page.wait_for_function("() => window.kodama.page.game.result !== null")
    state = page_state(phone_page)
    assert (state["result"]["winner"], state["result"]["reason"]) == (winner, reason)
    assert server_game(phone_page, game_id)["moves"] == moves
    phone_page.screenshot(path=output_dir / "dobutsu-phone.png")
