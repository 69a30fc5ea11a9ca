"""The evaluator (app/analysis/evaluate.py): the bots' search finds a short forced win in each
game, proven here by the engine alone; the best lines are legal and scored for the side to
move, mates counted as lichess counts them; the budget bounds the search; and for Dōbutsu
the table's values are exact, equal to an independent minimax's on a reduced problem."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import engine
from app.analysis.evaluate import Budget, cloud_eval, evaluate, mate_moves
from app.core.errors import ServiceError
from bots.multipv import PV_PLIES
from tests.app.tablebase import minimax
from tests.app.tablebase.test_table import reduced_table

# A position of each game where the side to move wins in 3 plies (two of its moves) and not
# in 1; found in random games, and proven below from the rules.
FORCED = {
    "dobutsu": "lg1/E1L/2e/cG1 f C",
    "gorogoro": "1k2s/pg3/2pG1/1PPp1/GK2+p/Ss1sg s -",
    "jungle": "1d3c1/2L4/2p3w/r6/6e/3P2t/7/W1C2T1/4DR1 f 11 f",
    "yote": "s5/s5/1sSS1S/s3S1/4SS f 2 0 e3e2 a3a2 2",
    "wali": "3Ss1/S1S1S1/3S2/2SSSS/sSsS2 f 0 0 3",
}
# Enough for each win above, and deterministic: no time limit is reached.
NODES = Budget(nodes=8_000, seconds=600.0)
FEW = Budget(nodes=4_000, seconds=600.0)
REDUCED = "1l1/3/3/1L1 f C"  # a lion each and a chick in first's hand (the tablebase's tests)


def wins_at_once(game: engine.Game[Any], pos: Any, side: str) -> bool:
    for move in game.legal_moves(pos):
        result = game.result(game.play(pos, move))
        if result is not None and result.winner == side:
            return True
    return False


def forced_in_three(game: engine.Game[Any], pos: Any, move: str) -> bool:
    """Whether ``move`` wins by force in 3 plies: every reply ends the game for the mover or
    leaves it a winning move."""
    side = game.side_to_move(pos)
    after = game.play(pos, move)
    if game.result(after) is not None:
        return False
    for reply in game.legal_moves(after):
        then = game.play(after, reply)
        result = game.result(then)
        if result is not None:
            if result.winner != side:
                return False
        elif not wins_at_once(game, then, side):
            return False
    return True


def replay(game: engine.Game[Any], pos: Any, moves: list[str]) -> Any:
    for move in moves:
        assert move in game.legal_moves(pos), (move, game.to_text(pos))
        pos = game.play(pos, move)
    return pos


@pytest.mark.parametrize("variant", sorted(FORCED))
def test_the_search_finds_each_games_short_forced_win(variant):
    game = engine.get_game(variant)
    pos = game.from_text(FORCED[variant])
    side = game.side_to_move(pos)
    assert not wins_at_once(game, pos, side)
    found = evaluate(variant, {}, FORCED[variant], multipv=2, budget=NODES)
    assert found.source == "search" and found.turn == side and found.depth >= 3
    best = found.lines[0]
    assert (best.mate, best.plies, best.cp) == (2, 3, None)
    assert forced_in_three(game, pos, best.moves[0])
    # The line is the win itself: three legal moves, then the side to move has won.
    result = game.result(replay(game, pos, best.moves))
    assert len(best.moves) == 3 and result is not None and result.winner == side
    # lichess's shape scores from the first player's view: second's win is a negative mate.
    pv = cloud_eval(found)["pvs"][0]
    assert pv == {"moves": " ".join(best.moves), "mate": 2 if side == "first" else -2}


@pytest.mark.parametrize("variant", engine.game_ids())
def test_the_best_lines_are_legal_distinct_and_best_first(variant):
    game = engine.get_game(variant)
    found = evaluate(variant, {}, game.to_text(game.start()), multipv=3, budget=FEW)
    assert len(found.lines) == 3 and found.fen == game.to_text(game.start())
    assert len({line.moves[0] for line in found.lines}) == 3
    for line in found.lines:
        replay(game, game.start(), line.moves)
        assert 1 <= len(line.moves) <= PV_PLIES
        assert (line.cp is None) != (line.mate is None)
    scores = [line.cp for line in found.lines]
    assert None not in scores and scores == sorted(scores, reverse=True)  # type: ignore[type-var]
    body = cloud_eval(found)
    assert set(body) >= {"fen", "knodes", "depth", "pvs"}
    assert body["knodes"] == found.nodes // 1000 and body["depth"] == found.depth


def test_the_budget_bounds_the_search_and_the_same_budget_the_same_answer():
    game = engine.get_game("gorogoro")
    start = game.to_text(game.start())
    small = evaluate("gorogoro", {}, start, budget=Budget(nodes=1_000, seconds=600.0))
    more = Budget(nodes=8_000, seconds=600.0)
    large = evaluate("gorogoro", {}, start, budget=more)
    assert small.nodes <= 1_000 < large.nodes <= more.nodes
    assert small.depth < large.depth
    again = evaluate("gorogoro", {}, start, budget=Budget(nodes=1_000, seconds=600.0))
    assert again == small
    # A budget of one node still gives a line: the first iteration always finishes.
    tiny = evaluate("gorogoro", {}, start, budget=Budget(nodes=1, seconds=600.0))
    assert tiny.depth == 1 and len(tiny.lines) == 1


def test_a_position_is_searched_with_its_history():
    # Giraffe and lion back and forth: the next c4b4 repeats a position a third time, a draw
    # that ends the game, which the position string's history field says and the search sees.
    game = engine.get_game("dobutsu")
    shuffle = ["b2b3", "c4b3", "c1c2", "b4c4", "c2c1", "c4b4", "c1c2", "b4c4", "c2c1"]
    fen = game.to_text(replay(game, game.start(), shuffle))
    found = evaluate("dobutsu", {}, fen, budget=FEW)
    assert [(line.moves, line.cp, line.mate) for line in found.lines] == [(["c4b4"], 0, None)]
    # Without its history the same position's line goes on past that move.
    bare = evaluate("dobutsu", {}, " ".join(fen.split(" ")[:3]), budget=FEW)
    assert len(bare.lines[0].moves) > 1


def test_mates_count_the_winners_moves():
    assert [mate_moves(plies, True) for plies in (1, 2, 3, 5)] == [1, 1, 2, 3]
    assert [mate_moves(plies, False) for plies in (2, 4, 6)] == [-1, -2, -3]


def test_refusals_keep_the_engines_codes_and_a_finished_game_has_no_evaluation():
    for variant, fen, code in (
        ("chess", "x", "game.unknown"),
        ("dobutsu", "not a position", "position.invalid"),
    ):
        with pytest.raises(ServiceError) as refused:
            evaluate(variant, {}, fen)
        assert (refused.value.code, refused.value.status) == (code, 400)
    with pytest.raises(ServiceError) as refused:
        evaluate("dobutsu", {"ruleset": "chess"}, "gle/1c1/1C1/ELG f -")
    assert refused.value.code == "option.invalid"
    game = engine.get_game("dobutsu")
    over = replay(game, game.from_text(FORCED["dobutsu"]), ["a3b4", "c2b3", "G*a3"])
    assert game.result(over) is not None
    with pytest.raises(ServiceError) as refused:
        evaluate("dobutsu", {}, game.to_text(over))
    assert (refused.value.code, refused.value.status) == ("eval.none", 404)


# ---- the Dōbutsu table ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("tables")
    reduced_table(folder, "dobutsu", REDUCED)
    return folder


@pytest.fixture(scope="module")
def solved() -> dict[str, minimax.Value]:
    return minimax.solve("dobutsu", REDUCED)


def key(game: engine.Game[Any], pos: Any) -> str:
    return " ".join(game.to_text(pos).split(" ")[:3])


def expected(game: engine.Game[Any], solved: dict[str, minimax.Value], pos: Any, move: str) -> Any:
    """(mate, plies) of ``move`` for the side to move by the minimax; (None, None): a draw."""
    value = solved[key(game, game.play(pos, move))]
    if value is None:
        return (None, None)
    category, plies = value
    return (mate_moves(plies + 1, category == "loss"), plies + 1)


def test_the_table_gives_every_moves_exact_value(tables, solved):
    game = engine.get_game("dobutsu")
    checked = {"win": 0, "draw": 0, "loss": 0}
    for text in sorted(solved)[:: max(1, len(solved) // 60)]:
        pos = game.from_text(text)
        moves = game.legal_moves(pos)
        if not moves:
            continue
        found = evaluate("dobutsu", {}, text, multipv=len(moves), tables=tables)
        assert found.source == "table" and found.nodes == 0
        assert sorted(line.moves[0] for line in found.lines) == moves
        for line in found.lines:
            assert (line.mate, line.plies) == expected(game, solved, pos, line.moves[0])
            assert line.cp == (0 if line.mate is None else None)
            end = game.result(replay(game, pos, line.moves))
            if line.mate is not None and line.plies is not None and line.plies <= PV_PLIES:
                # The line is the best play to the end: its length is the distance.
                assert len(line.moves) == line.plies
                mover = game.side_to_move(pos)
                winner = mover if line.mate > 0 else mover.other
                assert end is not None and end.winner == winner
        best = found.lines[0]
        checked["draw" if best.mate is None else "win" if best.mate > 0 else "loss"] += 1
    assert all(checked.values()), checked  # won, drawn and lost positions were all seen


def test_without_the_positions_table_the_search_answers(tables):
    # The full game's start is not in the reduced table; the other ruleset has none.
    found = evaluate("dobutsu", {}, "gle/1c1/1C1/ELG f -", budget=FEW, tables=tables)
    assert found.source == "search"
    yokai = evaluate("dobutsu", {"ruleset": "yokai"}, REDUCED, budget=FEW, tables=tables)
    assert yokai.source == "search"
