"""Game records to take away, in Debian's Chromium: a finished game's page downloads its record
(a file named after the game) and opens it on the analysis board; the board loads a record
from a file, from the text pasted, or by the game's id, steps through it (buttons, keys, the
move list), plays moves by hand for both sides (legality from the server) and refuses an
illegal one with a clear message; each of the five games, in English and French."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import engine
from app.games import record

from .helpers import OCCUPIED_JS, Game, make_move, occupied, open_game, parse, wait_for_ply
from .test_play import FULL_GAMES

MATE = ["b1a2", "b4c3", "a2b1", "a4b4", "c1c2"]  # first mates in 5 plies (tests/app/botapi)


def board_state(page) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate(
        """() => { const s = window.kodama.state;
        return {variant: s.variant && s.variant.id, moves: s.moves, ply: s.ply, busy: s.busy,
                fen: s.positions[s.ply] && s.positions[s.ply].fen,
                fens: s.positions.map((p) => p.fen)}; }"""
    )
    return state


def wait_loaded(page, moves: int) -> None:
    page.wait_for_function(
        """n => { const s = window.kodama && window.kodama.state;
          return s && s.board && !s.busy && s.moves.length === n
            && s.positions.length === n + 1; }""",
        arg=moves,
    )


def wait_ply(page, ply: int) -> None:
    page.wait_for_function(
        "n => { const s = window.kodama.state; return s.ply === n && !s.busy; }", arg=ply
    )


def shows(page, game: Any, pos: Any) -> None:
    """The board shows ``pos`` (its pieces, as the engine has them)."""
    board = game.describe()["board"]
    wanted = occupied(game.to_text(pos), board["files"], board["ranks"])
    assert page.evaluate(OCCUPIED_JS) == wanted


def click_move(page, text: str) -> None:
    """Play ``text`` on the analysis board by clicking: hand or square, then the target."""
    move = parse(text)
    if move["drop"]:
        side = page.evaluate(
            "() => { const s = window.kodama.state; return s.positions[s.ply].turn; }"
        )
        page.locator(f'.play [data-hand="{move["drop"]}"][data-side="{side}"]').click()
    else:
        page.locator(f'#board [data-square="{move["origin"]}"]').click()
    page.locator(f'#board [data-square="{move["to"]}"]').click()


def move_texts(page) -> list[str]:
    """The canonical text of each move of the move tree, in the order shown."""
    texts = page.locator("#analysis-moves .mv").evaluate_all("els => els.map(e => e.dataset.move)")
    return [str(t) for t in texts]


def record_text(variant: str, moves: list[str]) -> str:
    game = engine.get_game(variant)
    start = game.to_text(game.start())
    tags = {
        "Event": f"Casual {variant} game",
        "White": "ann",
        "Black": "bo",
        "Variant": variant,
        "Rules": record.rules_text(game.options),
        "FEN": start,
    }
    return record.write(tags, record.movetext(variant, game.options, start, moves, "*"))


def test_download_a_finished_game_then_analyse_it(new_context, output_dir: Path, tmp_path: Path):
    pages, _, game_id = open_game(new_context, "dobutsu", spectator=False)
    game = Game("dobutsu")
    first = pages["first"]
    assert first.locator("#takeaway").is_hidden()  # not while the game goes on
    for text in MATE:
        make_move(pages[game.mover], game, text)
    wait_for_ply(first, len(MATE))
    game_page_moves = first.locator("#moves .mv").all_inner_texts()
    assert game_page_moves[:2] == ["L b1-a2", "L b4-c3"]
    download_link = first.locator('#takeaway [data-record="download"]')
    download_link.wait_for()
    assert download_link.inner_text() == "Download the record"
    with first.expect_download() as info:
        download_link.click()
    download = info.value
    assert download.suggested_filename == f"kodama-dobutsu-{game_id}.txt"
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    kept = record.parse(saved.read_text())
    assert kept.moves == MATE and kept.tags["GameId"] == game_id and kept.result == "1-0"
    first.screenshot(path=output_dir / "records-game-finished.png")

    # "Analyse": the record on the analysis board, at its last position.
    first.locator('#takeaway [data-record="analyse"]').click()
    first.wait_for_url(f"**/analysis?game={game_id}")
    wait_loaded(first, len(MATE))
    rules = engine.get_game("dobutsu")
    positions = [rules.start()]
    for text in MATE:
        positions.append(rules.play(positions[-1], text))
    assert board_state(first)["ply"] == 5
    shows(first, rules, positions[5])
    assert "won by checkmate" in first.locator("#status").inner_text()
    # The moves written as the game page writes them (board/notation.js).
    assert first.locator("#analysis-moves .mv").all_inner_texts() == game_page_moves
    first.locator("#board").screenshot(path=output_dir / "records-analysis-loaded.png")

    # Stepping: the buttons, the keys, the move list.
    first.locator('#replay [data-action="first"]').click()
    wait_ply(first, 0)
    shows(first, rules, positions[0])
    first.keyboard.press("ArrowRight")
    wait_ply(first, 1)
    first.keyboard.press("End")
    wait_ply(first, 5)
    first.keyboard.press("ArrowLeft")
    wait_ply(first, 4)
    first.locator('#analysis-moves [data-ply="2"]').click()
    wait_ply(first, 2)
    shows(first, rules, positions[2])
    assert (
        first.locator('#analysis-moves [aria-current="step"]').get_attribute("data-move") == MATE[1]
    )

    # A move by hand, for the side to move (first), other than the record's: the line shown
    # now ends with it, the record's moves stay (a variation) and are one click away.
    here = positions[2]
    mine = next(m for m in rules.legal_moves(here) if m != MATE[2] and "*" not in m)
    click_move(first, mine)
    wait_ply(first, 3)
    after = rules.play(here, mine)
    assert board_state(first)["moves"] == [*MATE[:2], mine]
    shows(first, rules, after)
    # ... and one for the other side.
    reply = rules.legal_moves(after)[0]
    click_move(first, reply)
    wait_ply(first, 4)
    assert board_state(first)["fen"] == rules.to_text(rules.play(after, reply))
    first.locator("#board").screenshot(path=output_dir / "records-analysis-played.png")

    # An illegal move is refused, clearly, and changes nothing.
    before = board_state(first)
    illegal = "a1a4"
    assert illegal not in rules.legal_moves(rules.play(after, reply))
    first.locator("#move-text").fill(illegal)
    first.locator("#move-form button[type=submit]").click()
    message = first.locator("#message")
    message.wait_for()
    assert illegal in message.inner_text() and "not legal" in message.inner_text()
    assert board_state(first) == before
    # Clicking a square no piece can reach does nothing either.
    first.locator('#board [data-square="a4"]').click()
    assert board_state(first) == before

    first.locator('[data-action="restore"]').click()
    wait_loaded(first, len(MATE))
    assert board_state(first)["moves"] == MATE

    # The downloaded file, opened on a fresh analysis board.
    other = new_context().new_page()
    other.goto("/analysis")
    wait_loaded(other, 0)
    other.locator("#record-file").set_input_files(str(saved))
    wait_loaded(other, len(MATE))
    assert board_state(other)["fens"] == board_state(first)["fens"]
    tags_shown = other.locator("#record-tags").inner_text()
    assert kept.tags["White"] in tags_shown and kept.tags["Black"] in tags_shown
    assert "1-0" in tags_shown
    assert other.locator("#player-bottom .name").inner_text() == kept.tags["White"]


@pytest.mark.parametrize("variant", list(FULL_GAMES))
def test_each_game_on_the_analysis_board(new_context, output_dir: Path, variant: str):
    moves = FULL_GAMES[variant][0]
    page = new_context().new_page()
    page.goto("/analysis")
    wait_loaded(page, 0)
    page.locator("#record-text").fill(record_text(variant, moves))
    page.locator("#load-form button[type=submit]").click()
    wait_loaded(page, len(moves))
    rules = engine.get_game(variant)
    pos = rules.start()
    fens = [rules.to_text(pos)]
    for text in moves:
        pos = rules.play(pos, text)
        fens.append(rules.to_text(pos))
    assert board_state(page)["fens"] == fens
    assert move_texts(page) == moves
    shows(page, rules, pos)
    page.locator("#board").screenshot(path=output_dir / f"records-{variant}-end.png")
    # Back to a middle position and a move by hand there: one the page can play in a click
    # (no promotion to choose, no stone to pick), other than the record's.
    middle = len(moves) // 2
    page.locator('#replay [data-action="first"]').click()
    wait_ply(page, 0)
    for ply in range(middle):
        page.keyboard.press("ArrowRight")
        wait_ply(page, ply + 1)
    here = rules.from_text(fens[middle])

    def single(m: str) -> bool:
        p = parse(m)
        return (
            sum(
                1
                for o in rules.legal_moves(here)
                if parse(o)["origin"] == p["origin"] and parse(o)["to"] == p["to"]
            )
            == 1
        )

    mine = next(m for m in rules.legal_moves(here) if m != moves[middle] and single(m))
    click_move(page, mine)
    wait_ply(page, middle + 1)
    assert board_state(page)["moves"] == [*moves[:middle], mine]
    assert board_state(page)["fen"] == rules.to_text(rules.play(here, mine))
    page.locator("#board").screenshot(path=output_dir / f"records-{variant}-played.png")


def test_bad_records_say_what_is_wrong_in_both_languages(new_context, output_dir: Path):
    page = new_context().new_page()
    page.goto("/analysis")
    wait_loaded(page, 0)
    message = page.locator("#message")
    page.locator("#record-text").fill('[Variant "chess"]\n\n1. e2e4 *\n')
    page.locator("#load-form button[type=submit]").click()
    message.wait_for()
    assert 'No game is called "chess"' in message.inner_text()
    # A move the engine refuses: the moves before it are loaded, and the message says which.
    page.locator("#record-text").fill('[Variant "dobutsu"]\n\n1. b2b3 c4b3 2. a1a4 *\n')
    page.locator("#load-form button[type=submit]").click()
    wait_loaded(page, 2)
    assert "Move 3, a1a4, cannot be played" in message.inner_text()
    page.locator('header.site [data-lang="fr"]').click()
    assert page.locator("#title").inner_text().startswith("Plateau d'analyse")
    page.locator("#record-text").fill('[Variant "jungle"]\n[Rules "traps=none"]\n')
    page.locator("#load-form button[type=submit]").click()
    page.wait_for_function("() => document.getElementById('message').textContent.includes('traps')")
    assert "ne peut pas valoir « none »" in message.inner_text()
    page.screenshot(path=output_dir / "records-analysis-page-fr.png", full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=output_dir / "records-analysis-phone-fr.png", full_page=True)
    # An unknown game id in the address: said, and a first position to play on anyway.
    lost = new_context().new_page()
    lost.goto("/analysis?game=nothere")
    wait_loaded(lost, 0)
    assert lost.locator("#message").inner_text() == "There is no such game"


def test_a_promotion_by_hand_asks_which(new_context):
    # gorogoro: pawns trade, first drops a pawn; c4c5 may promote or not: the dialog asks.
    page = new_context().new_page()
    page.goto("/analysis")
    wait_loaded(page, 0)
    page.locator("#record-text").fill(record_text("gorogoro", ["c3c4", "b4b3", "P*b4", "a6a5"]))
    page.locator("#load-form button[type=submit]").click()
    wait_loaded(page, 4)
    click_move(page, "c4c5")
    page.locator('dialog#promotion button[value="promote"]').click()
    wait_ply(page, 5)
    assert board_state(page)["moves"][-1] == "c4c5+"
    page.locator('#replay [data-action="prev"]').click()
    wait_ply(page, 4)
    click_move(page, "c4c5")
    page.locator('dialog#promotion button[value="stay"]').click()
    wait_ply(page, 5)
    assert board_state(page)["moves"][-1] == "c4c5"


def test_a_move_from_an_earlier_position_keeps_both_lines(new_context, output_dir: Path):
    page = new_context().new_page()
    page.goto("/analysis")
    wait_loaded(page, 0)
    record_moves = ["b2b3", "c4b3", "c1c2"]
    page.locator("#record-text").fill(record_text("dobutsu", record_moves))
    page.locator("#load-form button[type=submit]").click()
    wait_loaded(page, 3)
    rules = engine.get_game("dobutsu")
    after_one = rules.play(rules.start(), "b2b3")

    def single(pos: Any, avoid: list[str]) -> str:
        moves = rules.legal_moves(pos)
        return next(
            m
            for m in moves
            if m not in avoid
            and "*" not in m
            and [parse(o)["to"] for o in moves if parse(o)["origin"] == parse(m)["origin"]].count(
                parse(m)["to"]
            )
            == 1
        )

    # Back to move 1, another answer: a variation; the record's line stays in the tree.
    page.locator('#analysis-moves [data-ply="1"]').click()
    wait_ply(page, 1)
    other = single(after_one, ["c4b3"])
    click_move(page, other)
    wait_ply(page, 2)
    assert board_state(page)["moves"] == ["b2b3", other]
    assert move_texts(page) == ["b2b3", "c4b3", other, "c1c2"]
    variation = page.locator("#analysis-moves li.variation")
    assert variation.count() == 1
    assert " ".join(variation.inner_text().split()).startswith("(1… ")
    assert variation.inner_text().strip().endswith(")")
    # Written as the game page writes moves: the piece's letter, its squares.
    assert page.locator('#analysis-moves [data-move="b2b3"]').inner_text() == "C b2xb3"
    # The variation goes on; then one of its moves gets an alternative of its own: nested.
    here = rules.play(after_one, other)
    going_on = single(here, ["c1c2"])
    click_move(page, going_on)
    wait_ply(page, 3)
    page.locator(f'#analysis-moves [data-move="{other}"]').click()
    wait_ply(page, 2)
    click_move(page, single(here, [going_on, "c1c2"]))
    wait_ply(page, 3)
    nested = page.locator("#analysis-moves li.variation .sub")
    assert nested.count() == 1 and nested.inner_text().startswith("(2. ")
    page.locator("#analysis-moves").screenshot(path=output_dir / "records-analysis-tree.png")
    # A click on the record's move shows its position, on the record's line.
    page.locator('#analysis-moves [data-move="c1c2"]').click()
    wait_ply(page, 3)
    assert board_state(page)["moves"] == record_moves
    assert page.locator('[data-action="restore"]').is_hidden()
    page.locator(f'#analysis-moves [data-move="{going_on}"]').click()
    wait_ply(page, 3)
    assert board_state(page)["moves"] == ["b2b3", other, going_on]
    page.locator('[data-action="restore"]').click()
    wait_ply(page, 3)
    assert board_state(page)["moves"] == record_moves
    assert len(move_texts(page)) == 6  # nothing played was lost
