"""What teaches the stone games (static/js/game/phases.js, run in node), fed the engine's
positions and legal moves: the phase of a position, the placement marks, why an empty square
refuses a stone, and the notes on what a move did by itself, as each viewer reads them."""

from __future__ import annotations

import json
from typing import Any

import engine
from tests.app.web.test_pages import STATIC, needs_node, run_module

pytestmark = needs_node

PHASES = json.dumps((STATIC / "js" / "game" / "phases.js").as_uri())
I18N = json.dumps((STATIC / "js" / "i18n" / "i18n.js").as_uri())
# A placement-only stone game (tests/toygame's col): its stones never move.
COL = {
    "id": "col",
    "family": "stones",
    "board": {"files": 4, "ranks": 4},
    "stones": {"steps": [], "jumps": [], "move_while_placing": True},
}


def calls(expressions: list[str], lang: str = "en") -> list[Any]:
    """Each expression evaluated with phases.js's functions in scope, the language set: one
    node run for them all."""
    values = ", ".join(f"() => {e}" for e in expressions)
    out = run_module(
        f"""import * as phases from {PHASES};
        import {{ setLang }} from {I18N};
        setLang({json.dumps(lang)});
        const {{ stonePhase, placementMarks, refusal, moveNotes, phaseLine }} = phases;
        const variants = {json.dumps({g: engine.describe(g) for g in ("yote", "wali", "dobutsu")})};
        variants.col = {json.dumps(COL)};
        console.log(JSON.stringify([{values}].map((f) => f() ?? null)));"""
    )
    assert isinstance(out, list)
    return out


def call(expression: str, lang: str = "en") -> Any:
    return calls([expression], lang)[0]


def notes(variant: str, before: str, text: str, seat: str | None, lang: str = "en") -> list[str]:
    """moveNotes' sentences for the viewer in ``seat`` (None: a spectator)."""
    rules = engine.get_game(variant)
    mover = rules.side_to_move(rules.from_text(before))
    after = rules.to_text(rules.play(rules.from_text(before), text))
    args = json.dumps([before, text, mover, after, seat])
    out = call(f"moveNotes(variants.{variant}, ...{args}).map((say) => say())", lang)
    return [str(sentence) for sentence in out]


PHASE_CASES = [
    ("wali", "6/6/6/6/6 f 12 12 0", None, "placement"),
    # Second cannot place any more (it passes), first still can: still the placement.
    ("wali", "Sss1SS/SS1S2/s1sSss/SSs1ss/sS1S2 f 1 2 0", None, "placement"),
    ("wali", "Sss1SS/SS1S2/s1sSss/SSs1ss/sS1SS1 s 0 0 0", None, "movement"),
    ("yote", "6/6/6/6/6 f 12 12 - - 0", None, "mixed"),
    # Yoté's phase is a side's own: its hand.
    ("yote", "6/4ss/2s3/2S3/6 f 0 9 - - 0", None, "movement"),
    ("yote", "6/4ss/2s3/2S3/6 f 0 9 - - 0", "second", "mixed"),
    ("col", "4/4/4/4 f 5 5", None, "placement"),
    ("dobutsu", engine.describe("dobutsu")["start"], None, None),
]


def test_the_phase_is_read_from_the_hands() -> None:
    found = calls(
        [
            f"stonePhase(variants.{variant}, {json.dumps(fen)}, {json.dumps(side)})"
            for variant, fen, side, _ in PHASE_CASES
        ]
    )
    assert found == [phase for *_, phase in PHASE_CASES]


def test_placement_squares_are_marked_only_when_placing_is_all_there_is() -> None:
    wali = engine.get_game("wali")
    moves = wali.legal_moves(wali.from_text("ss4/6/6/6/SS4 f 10 10 0"))
    marked = call(f"placementMarks({{ a1: ['last'] }}, {json.dumps(moves)})")
    assert sorted(marked) == sorted(["a1", *(m[1:] for m in moves)])
    assert "c1" not in marked  # three in a row
    assert marked["a1"] == ["last"] and marked["d1"] == ["place"]
    yote = engine.get_game("yote")
    moves = yote.legal_moves(yote.from_text("6/6/2s3/2S3/6 f 11 11 - - 0"))
    assert call(f"placementMarks({{}}, {json.dumps(moves)})") == {}
    assert call("placementMarks({}, [])") == {}


REFUSAL_CASES = [
    ("wali", "ss4/6/6/6/SS4 f 10 10 0", None, "c1", "teach.refused.wali.placement"),
    ("wali", "ss4/6/6/6/SS4 f 10 10 0", "*", "c1", "teach.refused.wali.placement"),
    ("wali", "ss4/6/6/6/SS4 f 10 10 0", None, "d1", None),  # a legal placement
    ("wali", "ss4/6/6/6/SS4 f 10 10 0", None, "a5", None),  # not empty
    ("wali", "Sss1SS/SS1S2/s1sSss/SSs1ss/sS1SS1 s 0 0 0", "c2", "c5", None),
    ("yote", "6/6/2s3/2S3/6 f 11 11 - - 0", None, "f5", None),
]


def test_a_refused_square_is_explained_where_the_game_has_words() -> None:
    expressions = []
    for variant, fen, origin, square, _ in REFUSAL_CASES:
        rules = engine.get_game(variant)
        moves = rules.legal_moves(rules.from_text(fen))
        args = json.dumps([fen, moves, origin, square])
        expressions.append(f"refusal(variants.{variant}, ...{args})")
    assert calls(expressions) == [reason for *_, reason in REFUSAL_CASES]


def test_a_wali_pass_is_told_to_each_viewer() -> None:
    fen = "Sss1SS/SS1S2/s1s1ss/SSs1ss/sS1S2 f 2 2 0"  # after *d3 second cannot place
    assert notes("wali", fen, "*d3", "first") == [
        "Your opponent cannot place a stone without making three in a row: you place again."
    ]
    assert notes("wali", fen, "*d3", "second") == [
        "You cannot place a stone without making three in a row: your opponent places again."
    ]
    assert notes("wali", fen, "*d3", None) == [
        "The second player cannot place a stone without making three in a row and passes."
    ]
    assert notes("wali", fen, "*d3", None, "fr") == [
        "Le second joueur ne peut poser aucun pion sans en aligner trois et passe son tour."
    ]
    assert notes("wali", "ss4/6/6/6/SS4 f 10 10 0", "*d3", None) == []


def test_the_end_of_placement_tells_the_stones_set_aside() -> None:
    fen = "Sss1SS/SS1S2/s1sSss/SSs1ss/sS1S2 f 1 2 0"
    over = "Placement is over: from now on stones step, and a line of three removes an enemy stone."
    assert notes("wali", fen, "*e1", "first") == [
        over,
        "Your opponent could not place their last 2 stones: they are set aside.",
    ]
    assert notes("wali", fen, "*e1", "second")[1] == (
        "You could not place your last 2 stones: they are set aside."
    )
    assert notes("wali", fen, "*e1", None, "fr")[1] == (
        "Le second joueur n'a pas pu poser ses 2 derniers pions : ils sont mis de côté."
    )


def test_a_removal_with_one_choice_and_a_jump_with_none_are_told() -> None:
    only = "6/2Ss1s/6/6/6 f 0 8 - - 0"  # c4 jumps d4: f4 is the only stone left to remove
    assert notes("yote", only, "c4e4xf4", "first") == [
        "Your opponent had only one stone that could be removed: the stone on f4 was removed"
        " for you."
    ]
    assert notes("yote", only, "c4e4xf4", "second") == [
        "You had only one stone that could be removed: your stone on f4 was removed."
    ]
    assert notes("yote", only, "c4e4xf4", None) == [
        "The second player had only one stone that could be removed: the stone on f4 was removed."
    ]
    # Two stones to choose from: the player chose, nothing to tell.
    assert notes("yote", "6/4ss/2s3/2S3/6 f 0 9 - - 0", "c2c4xe4", "first") == []
    assert notes("yote", "6/3sS1/6/6/6 f 0 7 - - 0", "e4c4", "second") == [
        "The jump took your last stone on the board: there is no second stone to remove."
    ]
    # Wali's line of three with one enemy stone left: the only choice too.
    wali_fen = "6/6/6/SS4/2S1s1 f 0 0 0"
    wali = engine.get_game("wali")
    capture = next(m for m in wali.legal_moves(wali.from_text(wali_fen)) if "x" in m)
    assert notes("wali", wali_fen, capture, "second") == [
        "You had only one stone that could be removed: your stone on e1 was removed."
    ]


def test_the_phase_line_speaks_to_the_viewer() -> None:
    fen = json.dumps("ss4/6/6/6/SS4 f 10 10 0")
    line = call(f"String(phaseLine(variants.wali, {fen}, {{ seat: 'first', playing: true }}))")
    assert line == (
        "<strong>Placement</strong> — you have 10 stones left to place. Put a stone on a"
        " marked square: three in a row is not allowed during placement."
    )
    line = call(f"String(phaseLine(variants.wali, {fen}, {{}}))", "fr")
    assert line.startswith("<strong>Pose</strong> — pions à poser : 10 pour le premier joueur")
    assert call(
        f"String(phaseLine(variants.wali, {fen}, {{ playing: true, picking: true }}))"
    ).startswith("<strong>Capture</strong>. Your line of three takes a stone")
    # A game without words of its own names the phase only.
    assert call("String(phaseLine(variants.col, '4/4/4/4 f 5 5', { seat: 'first' }))") == (
        "<strong>Placement</strong> — you have 5 stones left to place."
    )
    assert call("String(phaseLine(variants.dobutsu, variants.dobutsu.start, {}))") == ""
