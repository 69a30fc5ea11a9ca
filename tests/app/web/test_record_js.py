"""static/js/game/record.js, the analysis board's reader of game records, run in node on records
the server writes (app/games/record.py) for all five games: the tags, the game and its
rule options (defaults filled in), the start position, the moves and the result come out as
the server reads them; every malformed record is refused with its stable code and where."""

from __future__ import annotations

import json
from typing import Any

import pytest

import engine
from app.games import record
from tests.app.games.test_record import WALI_PASS, random_game
from tests.app.games.test_record_tags import RULES, position_after
from tests.app.web.test_pages import STATIC, needs_node, run_module

RECORD = json.dumps((STATIC / "js" / "game" / "record.js").as_uri())
VARIANTS = [engine.describe(g) for g in engine.game_ids()]


def read(text: str) -> Any:
    """What readRecordText makes of ``text``: the game, or the refusal's code and details."""
    script = f"""import {{ readRecordText, RecordError }} from {RECORD};
    const variants = {json.dumps(VARIANTS)};
    try {{
      const game = readRecordText({json.dumps(text)}, variants);
      console.log(JSON.stringify({{...game, variant: game.variant.id}}));
    }} catch (err) {{
      if (!(err instanceof RecordError)) throw err;
      console.log(JSON.stringify({{error: err.code, details: err.details}}));
    }}"""
    return run_module(script)


def exported(variant: str, rules: dict[str, str], start: str, moves: list[str], result: str) -> str:
    """A record as the export writes one (the tags of exports.record_tags that matter)."""
    tags = {
        "Event": f"Casual {variant} game",
        "Site": "http://host/game/abc",
        "Date": "2027.01.15",
        "White": 'a "quoted" \\ name',
        "Black": "bob",
        "Result": result,
        "GameId": "abc",
        "Variant": variant,
        "Rules": record.rules_text(rules),
        "FEN": start,
        "SetUp": "1",
    }
    return record.write(tags, record.movetext(variant, rules, start, moves, result))


@needs_node
@pytest.mark.parametrize("variant", engine.game_ids())
def test_a_record_of_each_game_reads_as_the_server_reads_it(variant: str) -> None:
    rules = RULES[variant]
    game = engine.get_game(variant, **rules)
    start = position_after(variant, rules, 2, seed=11)
    pos, moves = game.from_text(start), list[str]()
    for _ in range(20):
        if game.result(pos) is not None:
            break
        text = game.legal_moves(pos)[len(moves) % len(game.legal_moves(pos))]
        moves.append(text)
        pos = game.play(pos, text)
    text = exported(variant, rules, start, moves, "1-0")
    out = read(text)
    server = record.parse(text)
    assert out["variant"] == variant
    assert out["rules"] == game.options  # the defaults filled in
    assert out["fen"] == start and out["moves"] == server.moves == moves
    assert out["result"] == "1-0" and out["tags"] == server.tags and out["count"] == 1


@needs_node
def test_defaults_a_passed_side_and_several_records() -> None:
    # No Rules, no FEN: the game's defaults and its start.
    moves = random_game("yote", seed=2, plies=6)
    bare = record.write(
        {"Variant": "yote"}, record.movetext("yote", {}, "6/6/6/6/6 f 12 12 - - 0", moves, "*")
    )
    out = read(bare)
    assert out["rules"] == {} and out["fen"] == VARIANTS[3]["start"] and out["moves"] == moves
    assert out["result"] == "*"
    # wali: first moves twice running (second cannot place), numbered "1. *b2 2. *f1".
    game = engine.get_game("wali")
    after = game.play(game.play(game.from_text(WALI_PASS), "*b2"), "*f1")
    reply = game.legal_moves(after)[0]
    wali = record.write(
        {"Variant": "wali", "FEN": WALI_PASS},
        record.movetext("wali", {}, WALI_PASS, ["*b2", "*f1", reply], "*"),
    )
    assert read(wali)["moves"] == ["*b2", "*f1", reply]
    # Several records (a multi-game export, Windows line ends): the first, and how many.
    dobutsu = exported("dobutsu", {"ruleset": "dobutsu"}, VARIANTS[0]["start"], ["b2b3"], "*")
    both = read((dobutsu + wali).replace("\n", "\r\n"))
    assert both["variant"] == "dobutsu" and both["moves"] == ["b2b3"] and both["count"] == 2


REFUSED: list[tuple[str, str, dict[str, Any]]] = [
    ("", "empty", {}),
    ('[Variant "dobutsu"\n', "notTag", {"line": 1, "text": '[Variant "dobutsu"'}),
    ('[Variant "dobutsu"]\n[Variant "jungle"]\n', "tagTwice", {"line": 2, "name": "Variant"}),
    ('[Variant "dobutsu"]\n\n1. b2b3\n[Event "x"]\n', "tagAfterMoves", {"line": 4}),
    ('[Variant "dobutsu"]\n\n1. b2b3 1-0 c4b3\n', "resultNotLast", {"line": 3, "text": "1-0"}),
    (
        '[Variant "dobutsu"]\n[Result "1-0"]\n\n1. b2b3 0-1\n',
        "resultDiffers",
        {"line": 4, "text": "0-1", "value": "1-0"},
    ),
    ("1. b2b3 *\n", "noVariant", {}),
    (
        '[Variant "chess"]\n',
        "unknownVariant",
        {"value": "chess", "text": ", ".join(engine.game_ids())},
    ),
    ('[Variant "jungle"]\n[Rules "traps"]\n', "rulePair", {"text": "traps"}),
    ('[Variant "yote"]\n[Rules "traps=any"]\n', "unknownOption", {"name": "traps", "text": "yote"}),
    (
        '[Variant "jungle"]\n[Rules "traps=none"]\n',
        "badValue",
        {"name": "traps", "value": "none", "text": "any, opponent"},
    ),
    ('[Variant "wali"]\n[FEN ""]\n', "noFen", {}),
    (
        '[Variant "dobutsu"]\n\n1. b2b3 c4b3\n2. B1A2 *\n',
        "badMove",
        {"line": 4, "word": 3, "text": "B1A2"},
    ),
]


@needs_node
@pytest.mark.parametrize(("text", "code", "details"), REFUSED, ids=[r[1] for r in REFUSED])
def test_malformed_records_are_refused_with_a_code_and_where(
    text: str, code: str, details: dict[str, Any]
) -> None:
    assert read(text) == {"error": code, "details": details}


@needs_node
def test_every_refusal_has_words_in_both_languages() -> None:
    url = json.dumps((STATIC / "js" / "i18n" / "i18n-analysis.js").as_uri())
    words = run_module(
        f"import {{ ANALYSIS_TEXT }} from {url}; console.log(JSON.stringify(ANALYSIS_TEXT));"
    )
    assert isinstance(words, dict)
    for _, code, details in REFUSED:
        for lang in ("en", "fr"):
            sentence = words[lang][f"analysis.error.{code}"]
            for name in details:
                assert f"{{{name}}}" in sentence, (lang, code, name)


@needs_node
def test_a_reviewed_records_comments_are_skipped() -> None:
    # A computer review's comments (docs/notation.md, "Comments"), on one line or several.
    moves = ["b1c2", "b4a3", "c2c3", "a3a2", "c3c4"]
    comments = ["[%eval 0.18]", "[%eval 3.06] Blunder. b4b3 was best.", None, "x", "[%eval #1]"]
    start = engine.get_game("dobutsu").to_text(engine.get_game("dobutsu").start())
    moves_text = record.movetext("dobutsu", {}, start, moves, "1-0", comments)
    text = record.write({"Variant": "dobutsu", "Result": "1-0"}, moves_text)
    assert "{ [%eval 3.06] Blunder. b4b3 was best. }" in text
    assert read(text)["moves"] == moves == record.parse(text).moves
    split = text.replace("{ [%eval 3.06] ", "{ [%eval\n3.06] ")
    assert read(split)["moves"] == moves
    glued = text.replace("b4a3 {", "b4a3{").replace("a3a2 { x } 3.", "a3a2{x}3.")
    assert "a3a2{x}3." in glued and read(glued)["moves"] == moves
