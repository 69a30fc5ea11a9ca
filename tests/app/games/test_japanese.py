"""The Japanese notation of the two shōgi games (docs/notation.md): the record's
(app/games/japanese.py) and the page's (static/js/board/notation.js) write every move of
whole games alike, in the books' and shogi's forms, and the record carries it beside each
move on request."""

from __future__ import annotations

import json
import random
import subprocess

import pytest

import engine
from app.games.japanese import beside, japanese_moves
from tests.app.web.test_pages import NODE, STATIC, needs_node

DOBUTSU_START = "gle/1c1/1C1/ELG f -"
GOROGORO_START = "sgkgs/5/1ppp1/1PPP1/5/SGKGS f -"


def random_game(variant: str, seed: int, plies: int = 80) -> tuple[str, list[tuple[str, str]]]:
    """(start, [(position before, move)]) of a game of random legal moves."""
    game = engine.get_game(variant)
    rng = random.Random(seed)
    pos = game.start()
    start = game.to_text(pos)
    played = []
    for _ in range(plies):
        if game.result(pos) is not None:
            break
        moves = sorted(game.legal_moves(pos))
        move = rng.choice(moves)
        played.append((game.to_text(pos), move))
        pos = game.play(pos, move)
    return start, played


def test_dobutsu_as_its_books_print_it() -> None:
    assert japanese_moves("dobutsu", {}, DOBUTSU_START, ["b2b3", "b4b3", "c1c2", "C*a2"]) == [
        "▲B2ひよこ",  # the chick takes the chick: column B, row 2 from the far side
        "△B2ライオン",
        "▲C3キリン",
        "△A3ひよこ打",  # second drops the chick it took
    ]


def test_gorogoro_names_its_animals_on_shogi_squares() -> None:
    # The chicks trade, one promotes in the camp, the lion takes the hen.
    moves = ["c3c4", "d4d3", "c4c5+", "c6c5", "b3b4"]
    assert japanese_moves("gorogoro", {}, GOROGORO_START, moves) == [
        "▲３三ひよこ",
        "△２四ひよこ",
        "▲３二ひよこ成",
        "△３二ライオン",
        "▲４三ひよこ",
    ]
    # A drop, the dog and the hen.
    lone = "2k2/+P4/1S3/5/2G2/2K2 f P"
    assert japanese_moves("gorogoro", {}, lone, ["P*a3"]) == ["▲５四ひよこ打"]
    assert japanese_moves("gorogoro", {}, lone, ["c2c3"]) == ["▲３四いぬ"]
    assert japanese_moves("gorogoro", {}, lone, ["a5a6"]) == ["▲５一ニワトリ"]
    # A cat entering the zone without promoting says so; promoted, it is the power-up cat.
    game = engine.get_game("gorogoro")
    pos = game.from_text("2k2/5/1S3/5/5/2K2 f -")
    assert "b4b5" in game.legal_moves(pos)
    start = game.to_text(pos)
    assert japanese_moves("gorogoro", {}, start, ["b4b5"]) == ["▲４二ねこ不成"]
    assert japanese_moves("gorogoro", {}, start, ["b4b5+", "c6d6", "b5b6"]) == [
        "▲４二ねこ成",
        "△２一ライオン",
        "▲４一パワーアップねこ",
    ]


def test_other_games_have_no_japanese_notation() -> None:
    assert japanese_moves("jungle", {}, "", ["a1a2"]) == [None]
    assert beside("jungle", {}, "", ["a1a2"], None) is None


def test_the_record_puts_the_japanese_move_before_a_reviews_comment() -> None:
    comments = beside("dobutsu", {}, DOBUTSU_START, ["b2b3", "b4b3"], ["[%eval 0.3]", None])
    assert comments == ["▲B2ひよこ [%eval 0.3]", "△B2ライオン"]


@needs_node
@pytest.mark.parametrize("variant", ["dobutsu", "gorogoro"])
def test_the_page_writes_every_move_as_the_record_does(variant: str) -> None:
    cases = []
    for seed in range(6):
        start, played = random_game(variant, seed)
        expected = japanese_moves(variant, {}, start, [move for _, move in played])
        cases += [(fen, move, want) for (fen, move), want in zip(played, expected, strict=True)]
    url = json.dumps((STATIC / "js" / "board" / "notation.js").as_uri())
    # On standard input: the cases are too long for a command line.
    done = subprocess.run(
        [str(NODE), "--input-type=module"],
        input=f"""import {{ japaneseMove, readableMove }} from {url};
        const variant = {json.dumps(engine.describe(variant))};
        const cases = {json.dumps([(fen, move) for fen, move, _ in cases])};
        console.log(JSON.stringify(cases.map(([fen, move]) => [japaneseMove(variant, fen, move),
          readableMove(variant, fen, move, "animals", "japanese").text])));""",
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert [row[0] for row in out] == [want for _, _, want in cases]
    assert [row[1] for row in out] == [want for _, _, want in cases]
    assert len({want for _, _, want in cases}) > 20  # varied: drops, captures, promotions
