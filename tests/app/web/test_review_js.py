"""The game page's review helpers run in node against the engine: the readable move texts
(static/js/board/notation.js, docs/notation.md), the premoves the board offers
(static/js/board/premove.js: never fewer than the legal moves) and what a queued premove becomes
once the opponent has moved."""

from __future__ import annotations

import json
import random

import pytest

import engine
from tests.app.web.test_pages import STATIC, needs_node, run_module
from tests.browser.helpers import parse

pytestmark = needs_node


def js_url(name: str) -> str:
    return json.dumps((STATIC / "js" / name).as_uri())


def variant_json(game: str) -> str:
    return json.dumps(engine.describe(game))


def readable(game: str, cases: list[tuple[str, str]], lang: str = "en") -> list[dict[str, str]]:
    """``readableMove`` of each (position before, move) in ``lang``."""
    out = run_module(
        f"""import {{ readableMove }} from {js_url("board/notation.js")};
        import {{ setLang }} from {js_url("i18n/i18n.js")};
        setLang({json.dumps(lang)});
        const variant = {variant_json(game)};
        const cases = {json.dumps(cases)};
        console.log(JSON.stringify(cases.map(([fen, move]) =>
          readableMove(variant, fen, move, "animals"))));"""
    )
    assert isinstance(out, list)
    return out


def before_each(game: str, moves: list[str]) -> list[tuple[str, str]]:
    rules = engine.get_game(game)
    pos = rules.start()
    cases = []
    for text in moves:
        cases.append((str(rules.to_text(pos)), text))
        pos = rules.play(pos, text)
    return cases


def test_dobutsu_moves_name_the_piece_by_its_letter() -> None:
    # The chick takes the chick, the elephant takes it back, then a drop and a capture.
    moves = ["b2b3", "c4b3", "c1c2", "C*b2", "a1b2"]
    out = readable("dobutsu", before_each("dobutsu", moves))
    assert [o["text"] for o in out] == ["C b2xb3", "E c4xb3", "G c1-c2", "C*b2", "E a1xb2"]
    assert out[0]["label"] == "Chick b2xb3"
    assert out[3]["label"] == "Chick *b2"
    fr = readable("dobutsu", before_each("dobutsu", moves), "fr")
    assert [o["text"] for o in fr] == [o["text"] for o in out]  # the letters on the pieces
    assert fr[0]["label"] == "Poussin b2xb3" and fr[2]["label"] == "Girafe c1-c2"


def test_gorogoro_promotions_and_drops() -> None:
    start = "sgkgs/5/1ppp1/1PPP1/5/SGKGS f -"
    out = readable("gorogoro", [(start, "b3b4"), ("5/2k2/1S3/5/5/2K2 f P", "b4b5+")])
    assert out[0]["text"] == "P b3xb4" and out[0]["label"] == "Chick b3xb4"
    assert out[1]["text"] == "S b4-b5+" and out[1]["label"] == "Cat b4-b5+"


def test_jungle_moves_name_the_animal_in_the_page_language() -> None:
    start = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L f 0 -"
    cases = [(start, "a3a4"), (start, "a1a2")]
    assert [o["text"] for o in readable("jungle", cases)] == ["Elephant a3-a4", "Tiger a1-a2"]
    assert [o["text"] for o in readable("jungle", cases, "fr")] == ["Éléphant a3-a4", "Tigre a1-a2"]
    # A capture: the rat takes the elephant.
    moves = ["a3a4", "g7g6", "g3g4", "g6g5", "g4g5"]
    assert readable("jungle", before_each("jungle", moves))[-1]["text"] == "Rat g4xg5"
    # The lion's lake jump reads as a step.
    jump = ["g3g4", "a9a8", "g1g2", "a8a9", "g2g3", "a9a8", "g3f3", "a8a9", "f3f7"]
    assert readable("jungle", before_each("jungle", jump))[-1]["text"] == "Lion f3-f7"


@pytest.mark.parametrize(
    ("game", "fen", "move", "text"),
    [
        ("yote", "6/6/6/6/6 f 12 12 - - 0", "*c3", "c3"),
        ("yote", "6/2S3/6/5s/6 f 11 11 - - 2", "c4c5", "c4-c5"),
        ("yote", "6/2S3/2s3/5s/6 f 11 10 - - 0", "c4c2xf2", "c4xc2 xf2"),
        ("wali", "6/6/6/6/6 f 12 12 0", "*c3", "c3"),
        ("wali", "SS4/6/1S4/6/ss4 f 0 0 0", "b3b4xa1", "b3-b4 xa1"),
    ],
)
def test_stones_moves(game: str, fen: str, move: str, text: str) -> None:
    assert readable(game, [(fen, move)])[0]["text"] == text


def test_without_the_position_before_the_canonical_text_is_shown() -> None:
    out = run_module(
        f"""import {{ readableMove }} from {js_url("board/notation.js")};
        console.log(JSON.stringify(readableMove({variant_json("dobutsu")}, null, "b2b3")));"""
    )
    assert out == {"text": "b2b3", "label": "b2b3"}


# ---- premoves ------------------------------------------------------------------------------
def playout_positions(game: str, seed: int, plies: int = 80) -> list[str]:
    rules = engine.get_game(game)
    pos = rules.start()
    rng = random.Random(seed)
    seen = [str(rules.to_text(pos))]
    for _ in range(plies):
        if rules.result(pos) is not None:
            break
        pos = rules.play(pos, rng.choice(rules.legal_moves(pos)))
        seen.append(str(rules.to_text(pos)))
    return seen


@pytest.mark.parametrize("game", sorted(engine.game_ids()))
def test_the_board_offers_every_legal_move_as_a_premove(game: str) -> None:
    """Whatever the opponent plays, a move legal then is one the board let the player queue:
    checked where it is legal (the premove squares do not depend on whose turn it is)."""
    rules = engine.get_game(game)
    fens = [fen for seed in range(6) for fen in playout_positions(game, seed)]
    out = run_module(
        f"""import {{ premoveDests }} from {js_url("board/premove.js")};
        const variant = {variant_json(game)};
        const fens = {json.dumps([" ".join(f.split()[: rules.TEXT_FIELDS]) for f in fens])};
        console.log(JSON.stringify(fens.map((fen) =>
          premoveDests(variant, fen, fen.split(" ")[1] === "f" ? "first" : "second"))));"""
    )
    assert isinstance(out, list)
    checked = 0
    for fen, dests in zip(fens, out, strict=True):
        pos = rules.from_text(fen)
        if rules.result(pos) is not None:
            continue
        for text in rules.legal_moves(pos):
            move = parse(text)
            assert move["to"] in dests.get(move["origin"], []), (fen, text, dests)
            checked += 1
    assert checked > 100


def test_a_queued_premove_is_sent_chosen_or_dropped() -> None:
    out = run_module(
        f"""import {{ resolvePremove }} from {js_url("board/premove.js")};
        import {{ parseMove }} from {js_url("board/position.js")};
        const legal = ["b2b3", "b3b4", "b3b4+", "c3c5xd1", "c3c5xe2", "C*a2"];
        const q = (origin, to) => resolvePremove({{ origin, to }}, legal, parseMove);
        console.log(JSON.stringify([q("b2", "b3"), q("b3", "b4"), q("c3", "c5"), q("C*", "a2"),
          q("a1", "a2"), resolvePremove(null, legal, parseMove)]));"""
    )
    assert out == [
        {"send": "b2b3"},
        {"send": "b3b4+"},  # promotes when there is the choice (lichess's premoves)
        {"choose": True},  # the stone to remove is the player's to pick
        {"send": "C*a2"},
        None,  # not legal now: dropped
        None,
    ]
