"""The game record (app/games/record.py): what the exporter writes reads back exactly,
for every game, and malformed records are refused with a reason."""

from __future__ import annotations

import random

import pytest

import engine
from app.games import record

# wali, phase 1: second cannot place after first's *b2, so first places again (*f1).
WALI_PASS = "1SSss1/ssS1SS/s1ss1S/2S1Ss/SS1ss1 f 2 2 0"


def random_game(variant: str, seed: int, plies: int = 30) -> list[str]:
    game = engine.get_game(variant)
    pos = game.start()
    chooser = random.Random(seed)
    moves: list[str] = []
    while len(moves) < plies and game.result(pos) is None:
        text = chooser.choice(game.legal_moves(pos))
        moves.append(text)
        pos = game.play(pos, text)
    return moves


def tags_for(variant: str, start: str, result: str = "*") -> dict[str, str]:
    game = engine.get_game(variant)
    return {
        "Event": f"Casual {variant} game",
        "Site": "http://host/game/abc",
        "White": 'a "quoted" \\ name',
        "Black": "bob",
        "Result": result,
        "Variant": variant,
        "Rules": record.rules_text(dict(game.options)),
        "FEN": start,
    }


@pytest.mark.parametrize("variant", engine.game_ids())
def test_a_record_reads_back_what_was_written(variant):
    game = engine.get_game(variant)
    start = game.to_text(game.start())
    moves = random_game(variant, seed=len(variant))
    text = record.write(
        tags_for(variant, start), record.movetext(variant, dict(game.options), start, moves, "*")
    )
    found = record.parse(text)
    assert found.tags == tags_for(variant, start)
    assert found.moves == moves
    assert found.result == "*"
    positions = record.replay(found)
    pos = game.start()
    for text_move in moves:
        pos = game.play(pos, text_move)
    assert positions[-1] == game.to_text(pos) and len(positions) == len(moves) + 1
    assert record.parse_rules(found.tags["Rules"]) == dict(game.options)


def test_move_numbers_follow_the_side_that_moved_not_the_ply():
    # Second cannot place: first moves twice running, then second.
    game = engine.get_game("wali")
    pos = game.play(game.play(game.from_text(WALI_PASS), "*b2"), "*f1")
    reply = game.legal_moves(pos)[0]
    text = record.movetext("wali", {}, WALI_PASS, ["*b2", "*f1", reply], "*")
    assert text == f"1. *b2 2. *f1 {reply} *"
    found = record.parse(record.write({"Variant": "wali", "FEN": WALI_PASS}, text))
    assert found.moves == ["*b2", "*f1", reply]
    # A position with the second player to move begins with "1...".
    dobutsu = engine.get_game("dobutsu")
    after = dobutsu.to_text(dobutsu.play(dobutsu.start(), "b2b3"))
    assert record.movetext("dobutsu", {}, after, ["c4b3", "a1b2"], "*") == "1... c4b3 2. a1b2 *"


def test_several_records_are_split_on_two_empty_lines():
    one = record.write({"GameId": "a", "Result": "1-0"}, "1. b1a2 1-0")
    two = record.write({"GameId": "b"}, None)  # moves=false: tags only
    three = record.write({}, "1. *c3 *")  # tags=false: moves only
    found = list(record.parse_many(one + two + three.replace("\n", "\r\n")))
    assert [r.tags.get("GameId") for r in found] == ["a", "b", None]
    assert [r.moves for r in found] == [["b1a2"], [], ["*c3"]]
    assert [r.result for r in found] == ["1-0", "*", "*"]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "an empty record"),
        ('[Event "x"\n', "not a tag pair"),
        ('[Event "x"]\n[Event "y"]\n', "given twice"),
        ('1. b1a2\n[Event "x"]\n', "after the moves"),
        ('[Result "1-0"]\n\n1. b1a2 0-1\n', "differs from the Result tag"),
        ("1. b1a2 1-0 b4c3\n", "not at the end"),
    ],
)
def test_malformed_records_are_refused(text, reason):
    with pytest.raises(record.RecordError, match=reason):
        record.parse(text)


def test_replaying_checks_the_tags_and_every_move():
    with pytest.raises(record.RecordError, match="Variant"):
        record.replay(record.parse("1. b1a2 *"))
    with pytest.raises(record.RecordError, match="name=value"):
        record.replay(record.parse('[Variant "jungle"]\n[Rules "traps"]\n\n*'))
    with pytest.raises(engine.EngineError):
        record.replay(record.parse('[Variant "dobutsu"]\n\n1. a1a4 *'))
    with pytest.raises(engine.EngineError):
        record.replay(record.parse('[Variant "chess"]\n\n1. e2e4 *'))
