"""The words of a game's end as each viewer reads them (static/js/i18n/words.js resultText,
docs/decisions/result-wording.md) and the analysis board's move tree
(static/js/game/movetree.js), run in node."""

from __future__ import annotations

import json
from collections.abc import Mapping

import pytest

import engine
from tests.app.web.test_pages import STATIC, needs_node, run_module

pytestmark = needs_node


def url(name: str) -> str:
    return json.dumps((STATIC / "js" / name).as_uri())


PLAYERS = {"first": {"id": "a", "name": "ann"}, "second": {"id": "b", "name": "bo"}}


def words(result: Mapping[str, object], seats: list[str | None], lang: str = "en") -> list[str]:
    """resultText for each viewer seat (None: a spectator), dōbutsu's lion as the royal."""
    out = run_module(
        f"""import {{ resultText }} from {url("i18n/words.js")};
        import {{ setLang }} from {url("i18n/i18n.js")};
        setLang({json.dumps(lang)});
        const game = {{ result: {json.dumps(result)}, players: {json.dumps(PLAYERS)} }};
        const variant = {json.dumps(engine.describe("dobutsu"))};
        console.log(JSON.stringify({json.dumps(seats)}.map((seat) =>
          resultText(game, {{ seat, variant }}))));"""
    )
    assert isinstance(out, list)
    return [str(text) for text in out]


def test_a_try_is_told_from_each_side_of_the_board() -> None:
    result = {"winner": "second", "reason": "try", "status": "variantEnd"}
    assert words(result, ["second", "first", None]) == [
        "You won: your lion reached their back row",
        "You lost: their lion reached your back row",
        "bo (second) won — their lion reached the far row",
    ]
    assert words(result, ["first"], "fr") == [
        "Vous avez perdu : le lion adverse a atteint votre dernière rangée"
    ]


@pytest.mark.parametrize(
    ("result", "winner_reads", "loser_reads", "spectator_reads"),
    [
        (
            {"winner": "first", "reason": "outoftime", "status": "outoftime"},
            "You won on time",
            "You lost on time",
            "ann (first) won on time",
        ),
        (
            {"winner": "first", "reason": "capture", "status": "variantEnd"},
            "You won: you took their lion",
            "You lost: they took your lion",
            "ann (first) won — took the lion of bo (second)",
        ),
        (
            {"winner": "first", "reason": "resign", "status": "resign"},
            "You won: they resigned",
            "You lost: you resigned",
            "ann (first) won — bo (second) resigned",
        ),
        (
            {"winner": "first", "reason": "opponent_gone", "status": "timeout"},
            "You won: your opponent left the game",
            "You lost: you left the game",
            "ann (first) won — bo (second) left the game",
        ),
    ],
)
def test_each_viewer_reads_the_end_from_their_side(
    result: Mapping[str, object], winner_reads: str, loser_reads: str, spectator_reads: str
) -> None:
    assert words(result, ["first", "second", None]) == [winner_reads, loser_reads, spectator_reads]


def test_draws_and_aborts_read_the_same_to_everyone() -> None:
    repetition = {"winner": None, "reason": "repetition", "status": "variantEnd"}
    assert words(repetition, ["first", None]) == ["Draw by repetition"] * 2
    assert words(repetition, [None], "fr") == ["Nulle par répétition"]
    agreement = {"winner": None, "reason": "agreement", "status": "draw"}
    assert words(agreement, ["second"]) == ["Draw by agreement"]
    aborted = {"winner": None, "reason": "abort", "status": "aborted"}
    assert words(aborted, ["first", None]) == ["Game aborted"] * 2


def tree_run(body: str) -> object:
    return run_module(
        f"""import {{ MoveTree, moverOf }} from {url("game/movetree.js")};
        const pos = (turn, fen) => ({{ fen, turn }});
        const tree = new MoveTree(pos("first", "p0"));
        {body}"""
    )


def test_a_move_from_an_earlier_position_keeps_the_line() -> None:
    out = tree_run(
        """const a = tree.add(tree.root, "m1", pos("second", "p1"));
        const b = tree.add(a, "m2", pos("first", "p2"));
        tree.add(b, "m3", pos("second", "p3"));
        const v = tree.add(a, "x2", pos("first", "q2"));  // back one move, another move
        const again = tree.add(a, "x2", pos("first", "q2"));  // the same move: the same node
        console.log(JSON.stringify({
          main: tree.mainLine().slice(1).map((n) => n.move),
          variation: tree.lineThrough(v).slice(1).map((n) => n.move),
          children: a.children.map((n) => n.move),
          same: again === v,
          followed: tree.follow(["m1", "m2", "m3"]).pos.fen,
          lost: tree.follow(["m1", "nope"]),
          numbers: tree.mainLine().slice(1).map((n) => [n.n, moverOf(n)]),
          byId: tree.node(v.id) === v,
        }));"""
    )
    assert out == {
        "main": ["m1", "m2", "m3"],
        "variation": ["m1", "x2"],
        "children": ["m2", "x2"],
        "same": True,
        "followed": "p3",
        "lost": None,
        "numbers": [[1, "first"], [1, "second"], [2, "first"]],
        "byId": True,
    }


def test_a_pass_starts_a_new_row_number() -> None:
    # wali: m2 and m3 are both second's (first passed there): m3 opens row 2.
    out = tree_run(
        """const a = tree.add(tree.root, "m1", pos("second", "p1"));
        const b = tree.add(a, "m2", pos("second", "p2"));
        const c = tree.add(b, "m3", pos("first", "p3"));
        console.log(JSON.stringify([a.n, b.n, c.n]));"""
    )
    assert out == [1, 1, 2]
