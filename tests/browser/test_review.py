"""Reviewing moves, takebacks and premoves in real browsers: a
review during a live game is not interrupted by an arriving move; a page reloaded at ply 3
steps back to ply 0; each game's moves are shown readably (canonical text as the tooltip);
a premove plays on the opponent's move (or is dropped, or cancelled); a takeback in a casual
game, and in a rated one no button and the socket's refusal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import (
    OCCUPIED_JS,
    Game,
    make_move,
    move_list,
    occupied,
    open_game,
    page_state,
    wait_for_ply,
    wait_started,
)


def shows_position(page: Any, game: Game, ply: int) -> None:
    """The board shows the position after ``ply`` moves of ``game`` (its occupied squares),
    and the review says so."""
    replay = Game(game.variant)
    for text in game.moves[:ply]:
        replay.play(text)
    expected = occupied(replay.fen, replay.files, replay.ranks)
    page.wait_for_function(
        f"want => JSON.stringify(({OCCUPIED_JS})()) === JSON.stringify(want)", arg=expected
    )
    expect(page.locator("#replay .replay-ply")).to_have_text(f"{ply} / {len(game.moves)}")


def review_key(page: Any, key: str) -> None:
    """Press a review key with the focus off the board (where arrows move the focus)."""
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press(key)


def shown_ply(page: Any) -> int:
    return int(page.evaluate("() => window.kodama.page.review.shown()"))


def play_all(pages: dict[str, Any], game: Game, moves: list[str]) -> None:
    for text in moves:
        make_move(pages[game.mover], game, text)
    for page in pages.values():
        wait_for_ply(page, len(game.moves))


# ---- reviewing ----------------------------------------------------------------------------
def test_a_review_during_a_live_game_is_not_interrupted_by_an_arriving_move(
    new_context: Any, output_dir: Path
) -> None:
    pages, watcher, _ = open_game(new_context, "dobutsu")
    assert watcher is not None
    first, second = pages["first"], pages["second"]
    game = Game("dobutsu")
    play_all(pages, game, ["b1c2", "b4a3", "c2c3"])
    wait_for_ply(watcher, 3)
    expect(second.locator("#replay .live-mark")).to_be_visible()
    # The spectator looks at ply 2 from the move list.
    watcher.locator('#moves [data-ply="2"]').click()
    shows_position(watcher, game, 2)
    expect(watcher.locator('#moves [data-ply="2"]')).to_have_attribute("aria-current", "true")
    # The second player (to move) steps back with the keys: the board offers no move then.
    review_key(second, "Home")
    shows_position(second, game, 0)
    review_key(second, "ArrowRight")
    shows_position(second, game, 1)
    assert second.locator("#board .sq.movable").count() == 0
    # The live position is one key away, and the page plays from it.
    review_key(second, "End")
    shows_position(second, game, 3)
    make_move(second, game, "a4b4")
    # Second reviews again while first moves: neither reviewer's board moves.
    review_key(second, "Home")
    shows_position(second, game, 0)
    make_move(first, game, "c1b1")
    wait_for_ply(second, 5)
    wait_for_ply(watcher, 5)
    assert shown_ply(second) == 0 and shown_ply(watcher) == 2
    shows_position(second, game, 0)
    shows_position(watcher, game, 2)
    expect(second.locator("#replay .live-button")).to_contain_text("1 new")
    expect(watcher.locator("#replay .live-button")).to_contain_text("2 new")
    watcher.screenshot(path=output_dir / "review-during-live-game.png")
    # Back to live: End for the player (who can move again), the button for the spectator.
    review_key(second, "End")
    shows_position(second, game, 5)
    expect(second.locator("#board .sq.movable").first).to_be_visible()
    watcher.locator("#replay .live-button").click()
    shows_position(watcher, game, 5)
    expect(watcher.locator("#replay .live-button")).to_have_count(0)
    assert move_list(watcher) == game.moves
    # Following the game live, a move arriving is shown at once.
    make_move(second, game, "a3a2")
    shows_position(watcher, game, 6)


def test_a_page_reloaded_at_ply_3_steps_back_to_ply_0(new_context: Any, output_dir: Path) -> None:
    pages, _, _ = open_game(new_context, "dobutsu", spectator=False)
    game = Game("dobutsu")
    play_all(pages, game, ["b2b3", "c4b3", "c1c2"])
    page = pages["second"]
    page.reload()
    wait_for_ply(page, 3)
    for ply in (2, 1, 0):
        page.locator('#replay [data-action="replay-prev"]').click()
        shows_position(page, game, ply)
    expect(page.locator('#replay [data-action="replay-prev"]')).to_be_disabled()
    page.locator("#board").screenshot(path=output_dir / "review-reloaded-ply-0.png")
    page.locator('#replay [data-action="replay-next"]').click()
    shows_position(page, game, 1)
    # The dropped chick's move reads with the piece; the tooltip is the canonical text.
    assert page.locator('#moves [data-ply="2"]').inner_text() == "E c4xb3"
    assert page.locator('#moves [data-ply="2"]').get_attribute("title") == "c4b3"
    page.locator('#replay [data-action="replay-last"]').click()
    shows_position(page, game, 3)
    make_move(page, game, "C*b2")  # back at the live position, the page plays on


NOTATION: dict[str, tuple[list[str], list[str], list[str] | None]] = {
    # moves, as shown in English, as shown in French (None: the same)
    "dobutsu": (["b2b3", "c4b3", "c1c2", "C*b2"], ["C b2xb3", "E c4xb3", "G c1-c2", "C*b2"], None),
    "gorogoro": (["a1a2", "c6b5", "b1a1"], ["S a1-a2", "K c6-b5", "G b1-a1"], None),
    "jungle": (
        ["a3a4", "g7g6", "a1a2"],
        ["Elephant a3-a4", "Elephant g7-g6", "Tiger a1-a2"],
        ["Éléphant a3-a4", "Éléphant g7-g6", "Tigre a1-a2"],
    ),
    "yote": (["*f5", "*f4", "f5f3"], ["f5", "f4", "f5xf3"], None),
    "wali": (["*d1", "*c2", "*a2"], ["d1", "c2", "a2"], None),
}


@pytest.mark.parametrize("variant", list(NOTATION))
def test_each_game_shows_its_moves_readably(
    new_context: Any, output_dir: Path, variant: str
) -> None:
    moves, english, french = NOTATION[variant]
    pages, _, game_id = open_game(new_context, variant, spectator=False)
    game = Game(variant)
    play_all(pages, game, moves)
    page = pages["first"]
    shown = page.locator("#moves .mv")
    expect(shown).to_have_text(english)
    assert [shown.nth(i).get_attribute("title") for i in range(len(moves))] == moves
    # The newest move is the one shown (the live position), and marked.
    expect(page.locator("#moves .mv.current")).to_have_attribute("data-ply", str(len(moves)))
    page.locator(".panel").screenshot(path=output_dir / f"notation-{variant}.png")
    watcher = new_context(locale="fr-FR").new_page()
    watcher.goto(f"/game/{game_id}")
    wait_for_ply(watcher, len(moves))
    expect(watcher.locator("#moves .mv")).to_have_text(french or english)


# ---- premove ------------------------------------------------------------------------------
def click(page: Any, square: str) -> None:
    page.locator(f'#board [data-square="{square}"]').click()


def test_a_premove_plays_on_the_opponents_move_or_is_dropped_or_cancelled(
    new_context: Any, output_dir: Path
) -> None:
    pages, _, _ = open_game(new_context, "dobutsu", spectator=False)
    first, second = pages["first"], pages["second"]
    game = Game("dobutsu")
    make_move(first, game, "b2b3")
    # While second is to move, first queues the chick's next step: marked, not sent.
    click(first, "b3")
    click(first, "b4")
    expect(first.locator("#board .sq.premove")).to_have_count(2)
    assert page_state(first)["moves"] == ["b2b3"]
    # Second's elephant takes the chick: the premove is no longer legal, and is dropped.
    make_move(second, game, "c4b3")
    wait_for_ply(first, 2)
    expect(first.locator("#board .sq.premove")).to_have_count(0)
    assert first.evaluate("() => window.kodama.page.premove.queued") is None
    make_move(first, game, "c1c2")
    # Escape cancels a premove, and so does a click on the board.
    click(first, "c2")
    click(first, "c3")
    expect(first.locator("#board .sq.premove")).to_have_count(2)
    first.keyboard.press("Escape")
    expect(first.locator("#board .sq.premove")).to_have_count(0)
    click(first, "c2")
    click(first, "c3")
    click(first, "a1")
    expect(first.locator("#board .sq.premove")).to_have_count(0)
    # Queued again, then played at once when second's move arrives.
    click(first, "c2")
    click(first, "c3")
    expect(first.locator("#board .sq.premove")).to_have_count(2)
    first.locator("#board").screenshot(path=output_dir / "premove-queued.png")
    # (Clicked here: the page's answer comes with the premove, ply 5, at once.)
    wait_for_ply(second, 3)
    click(second, "a4")
    click(second, "a3")
    game.play("a4a3")
    game.play("c2c3")
    for page in (first, second):
        wait_for_ply(page, 5)
        assert page_state(page)["moves"] == game.moves
    expect(first.locator("#board .sq.premove")).to_have_count(0)


# ---- takebacks ------------------------------------------------------------------------------
def test_a_takeback_in_a_casual_game(new_context: Any, output_dir: Path) -> None:
    pages, watcher, _ = open_game(new_context, "dobutsu")
    assert watcher is not None
    first, second = pages["first"], pages["second"]
    game = Game("dobutsu")
    make_move(first, game, "b1c2")
    # Not before both players have moved.
    expect(first.locator('[data-action="takeback-offer"]')).to_have_count(0)
    play_all(pages, game, ["b4a3", "c2c3"])
    first.locator('[data-action="takeback-offer"]').click()
    accept = second.locator('[data-action="takeback-accept"]')
    expect(accept).to_be_visible()
    expect(second.locator("#status")).to_contain_text("proposes a takeback")
    expect(first.locator("#actions")).to_contain_text("Takeback proposed")
    expect(watcher.locator('[data-action^="takeback-"]')).to_have_count(0)
    second.screenshot(path=output_dir / "takeback-proposed.png")
    accept.click()
    for page in (first, second, watcher):
        wait_for_ply(page, 2)
        assert page_state(page)["moves"] == ["b1c2", "b4a3"]
        # The review follows the shorter game: the live position, ply 2.
        shows_position(page, replay_of(["b1c2", "b4a3"]), 2)
    # Declined: second proposes, first declines, nothing is taken back.
    second.locator('[data-action="takeback-offer"]').click()
    first.locator('[data-action="takeback-decline"]').click()
    expect(second.locator('[data-action="takeback-offer"]')).to_be_visible()
    assert page_state(second)["moves"] == ["b1c2", "b4a3"]


def replay_of(moves: list[str]) -> Game:
    game = Game("dobutsu")
    for text in moves:
        game.play(text)
    return game


def test_no_takeback_in_a_rated_game_and_the_socket_refuses_one(account: Any) -> None:
    first, _ = account("Tia", locale="en-GB")
    second, _ = account("Tom", locale="en-GB")
    frames: list[dict[str, Any]] = []
    first.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda payload: frames.append(json.loads(payload))),
    )
    made = first.request.post(
        "/api/games", data={"variant": "dobutsu", "color": "first", "rated": True}
    )
    assert made.status == 201, made.text()
    game_id = made.json()["id"]
    assert second.request.post(f"/api/games/{game_id}/join").ok
    for page in (first, second):
        page.goto(f"/game/{game_id}")
        wait_started(page)
    game = Game("dobutsu")
    play_all({"first": first, "second": second}, game, ["b1c2", "b4a3"])
    for page in (first, second):
        expect(page.locator("#actions [data-action='resign']")).to_be_visible()
        expect(page.locator('[data-action^="takeback-"]')).to_have_count(0)
    # Sent by hand on the page's socket: refused, and nothing changes.
    first.evaluate("() => window.kodama.socket.send({type: 'takeback', action: 'offer'})")
    first.wait_for_function("() => !document.getElementById('toast').hidden")
    assert any(f.get("type") == "error" and f.get("code") == "takeback.rated" for f in frames)
    assert page_state(second)["moves"] == ["b1c2", "b4a3"]
    assert second.evaluate("() => window.kodama.page.game.takebackOffer") is None
