"""Yoté: one named test per rule and Decision of rules/yote.md, on set-up positions.

Position strings: ``<board> <side> <first hand> <second hand> <first's last step>
<second's last step> <plies without placement or capture>``; ``S`` first, ``s`` second.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine import GameOverError, IllegalMoveError, InvalidMoveError, InvalidPositionError, Result
from engine.core import RuleReason, Side

GAME = engine.get_game("yote")
START = "6/6/6/6/6 f 12 12 - - 0"
SQUARES = [f + r for r in "12345" for f in "abcdef"]


def at(text: str) -> Any:
    return GAME.from_text(text)


def play(pos: Any, *moves: str) -> Any:
    for move in moves:
        pos = GAME.play(pos, move)
    return pos


def assert_illegal(pos: Any, *moves: str) -> None:
    for move in moves:
        assert move not in GAME.legal_moves(pos)
        with pytest.raises(IllegalMoveError) as err:
            GAME.play(pos, move)
        assert err.value.code == "move.illegal"
        assert repr(move) in str(err.value)
        assert GAME.to_text(pos) in str(err.value)


def fields(pos: Any) -> str:
    """The position string without its history field."""
    return " ".join(GAME.to_text(pos).split(" ")[: GAME.TEXT_FIELDS])


def placements_on_empty_squares(text: str) -> set[str]:
    pos = at(text)
    return {"*" + SQUARES[sq] for sq, v in enumerate(pos.board) if not v}


# ---- start, board, material ---------------------------------------------------------------
def test_yote_start_position() -> None:
    pos = GAME.start()
    assert GAME.to_text(pos) == START
    assert GAME.side_to_move(pos) == "first"
    assert GAME.result(pos) is None
    # Empty board, 12 stones in each hand: the only moves are the 30 placements.
    assert GAME.legal_moves(pos) == sorted("*" + sq for sq in SQUARES)


def test_yote_describe() -> None:
    data = GAME.describe()
    assert (data["id"], data["name"]) == ("yote", "Yoté")
    assert data["board"] == {"files": 6, "ranks": 5}
    assert data["start"] == START
    assert data["hands"] == {"first": 12, "second": 12}
    assert [(p["letter"], p["side"]) for p in data["pieces"]] == [
        ("S", "first"),
        ("s", "second"),
    ]
    assert set(data["move_forms"]) == {"placement", "step", "capture"}


# ---- a turn: place ------------------------------------------------------------------------
def test_yote_placement_allowed_at_any_time_while_hand_not_empty() -> None:
    # first has a stone on c3 and 2 in hand: it may place or step, as it likes.
    text = "6/6/2S3/6/5s f 2 3 - - 0"
    steps = {"c3b3", "c3c2", "c3c4", "c3d3"}
    assert set(GAME.legal_moves(at(text))) == placements_on_empty_squares(text) | steps
    after = GAME.play(at(text), "*a1")
    assert GAME.to_text(after) == "6/6/2S3/6/S4s s 1 3 - - 0"


def test_yote_no_placement_with_an_empty_hand() -> None:
    pos = at("6/6/2S3/6/5s f 0 3 - - 0")
    assert GAME.legal_moves(pos) == ["c3b3", "c3c2", "c3c4", "c3d3"]
    assert_illegal(pos, "*a1", "*c4")


def test_yote_placement_only_on_an_empty_square() -> None:
    pos = at("6/6/2S3/6/5s f 2 3 - - 0")
    assert_illegal(pos, "*c3", "*f1")


# ---- a turn: step -------------------------------------------------------------------------
def test_yote_step_is_one_square_orthogonally_to_an_empty_square() -> None:
    # first: c3, d2; second: c5, c4 (c4 cannot be jumped: c5 is taken), f1.
    pos = at("2s3/2s3/2S3/3S2/5s f 0 0 - - 0")
    assert GAME.legal_moves(pos) == ["c3b3", "c3c2", "c3d3", "d2c2", "d2d1", "d2d3", "d2e2"]
    # onto a stone, diagonally, two squares, or a stone that is not one's own
    assert_illegal(pos, "c3c4", "d2c3", "c3d4", "c3b2", "c3c1", "c3e3", "c4c3", "f1f2")


# ---- a turn: jump-capture -----------------------------------------------------------------
DOUBLE = "s5/2s3/2S3/3s2/5s f 0 0 - - 0"  # first c3; second a5, c4, d2, f1


def test_yote_jump_capture_removes_the_jumped_stone() -> None:
    after = GAME.play(at(DOUBLE), "c3c5xd2")
    # c4 (jumped) and d2 (chosen) are gone; the capturer stands on c5.
    assert GAME.to_text(after) == "s1S3/6/6/6/5s s 0 0 - - 0"


def test_yote_jump_capture_removes_a_second_stone() -> None:
    pos = at(DOUBLE)
    captures = [m for m in GAME.legal_moves(pos) if len(m) > 4]
    # One move per enemy stone left on the board after the jump: a5, d2, f1.
    assert captures == ["c3c5xa5", "c3c5xd2", "c3c5xf1"]
    # The second removal is mandatory, of an enemy stone still on the board.
    assert_illegal(pos, "c3c5", "c3c5xc4", "c3c5xc3", "c3c5xb1")


def test_yote_no_second_removal_when_opponent_has_no_stone_left_on_board() -> None:
    # second's only stone on the board is c3; it still has 3 in hand.
    pos = at("6/6/2s3/2S3/6 f 0 3 - - 0")
    assert GAME.legal_moves(pos) == ["c2b2", "c2c1", "c2c4", "c2d2"]
    assert_illegal(pos, "c2c4xc3", "c2c4xa1")
    after = GAME.play(pos, "c2c4")
    assert GAME.to_text(after) == "6/2S3/6/6/6 s 0 3 - - 0"
    assert GAME.result(after) is None  # stones in hand: second plays on, placing
    assert len(GAME.legal_moves(after)) == 29


def test_yote_jump_needs_an_adjacent_enemy_stone_and_an_empty_landing() -> None:
    # first: c3, c2, e3; second: c5, e5, c4. c3 cannot jump c4 (c5 taken), c2 cannot
    # jump its own c3, e3 has nothing to jump on e4.
    pos = at("2s1s1/2s3/2S1S1/2S3/6 f 0 0 - - 0")
    assert not [m for m in GAME.legal_moves(pos) if "x" in m or m in ("c3c5", "e3e5")]
    assert_illegal(pos, "c3c5xe5", "c3c5", "c2c4xc4", "e3e5", "e3e5xc4")


def test_yote_no_diagonal_jump() -> None:
    pos = at("6/3s2/2S3/6/5s f 0 0 - - 0")  # first c3; second d4 (diagonal), f1
    assert GAME.legal_moves(pos) == ["c3b3", "c3c2", "c3c4", "c3d3"]
    assert_illegal(pos, "c3e5xf1", "c3e5", "c3d4")


def test_yote_jumps_never_chain() -> None:
    # first c1; second c2, c4, f1: after c1 jumps c2, c4 is jumpable from c3, next turn.
    pos = at("6/2s3/6/2s3/2S2s f 0 0 - - 0")
    assert GAME.legal_moves(pos) == ["c1b1", "c1c3xc4", "c1c3xf1", "c1d1"]
    assert_illegal(pos, "c1c5", "c1c5xf1", "c1c3xc2")
    after = GAME.play(pos, "c1c3xf1")
    assert GAME.side_to_move(after) == "second"
    assert GAME.to_text(after) == "6/2s3/2S3/6/6 s 0 0 - - 0"


# ---- no immediate take-back (Decision) ----------------------------------------------------
def test_yote_take_back_of_the_last_step_is_forbidden() -> None:
    pos = play(at("6/6/2S3/6/5s f 0 0 - - 0"), "c3c4", "f1f2")
    assert fields(pos) == "6/2S3/6/5s/6 f 0 0 c3c4 f1f2 2"
    assert GAME.legal_moves(pos) == ["c4b4", "c4c5", "c4d4"]
    assert_illegal(pos, "c4c3")
    # The same holds for second, on its own last step.
    pos = GAME.play(pos, "c4c5")
    assert GAME.legal_moves(pos) == ["f2e2", "f2f3"]
    assert_illegal(pos, "f2f1")


def test_yote_take_back_forbidden_only_for_the_stepped_stone() -> None:
    # first: c3, c2. After c3c4, the other stone may step into c3; c4 may go anywhere else.
    pos = play(at("6/6/2S3/2S3/5s f 0 0 - - 0"), "c3c4", "f1e1")
    moves = GAME.legal_moves(pos)
    assert {"c2c3", "c4b4", "c4c5", "c4d4"} <= set(moves)
    assert_illegal(pos, "c4c3")


def test_yote_take_back_allowed_after_another_move() -> None:
    # The restriction is on the very next turn only.
    pos = play(at("6/6/2S3/6/S4s f 0 0 - - 0"), "c3c4", "f1f2", "a1a2", "f2f3")
    assert "c4c3" in GAME.legal_moves(pos)


def test_yote_placements_and_captures_are_never_taken_back() -> None:
    # After a placement, first's last step is '-': c4 may step back to c3.
    pos = play(at("6/6/2S3/6/5s f 1 0 - - 0"), "c3c4", "f1f2", "*a1", "f2f3")
    assert fields(pos) == "6/2S3/5s/6/S5 f 0 0 - f2f3 1"
    assert "c4c3" in GAME.legal_moves(pos)
    # After a capture, the capturing stone may step back towards where it came from.
    pos = play(at(DOUBLE), "c3c5xd2", "f1f2")
    assert fields(pos) == "s1S3/6/6/5s/6 f 0 0 - f1f2 1"
    assert "c5c4" in GAME.legal_moves(pos)


def test_yote_take_back_restriction_is_part_of_the_position_only_when_it_forbids_a_step() -> None:
    def same(a: str, b: str) -> bool:
        return bool(at(a).digest == at(b).digest)

    # first stepped c3c4 and may not step back: a different position from one without it.
    assert not same("6/2S3/6/6/5s f 0 0 c3c4 - 0", "6/2S3/6/6/5s f 0 0 - - 0")
    assert not same("6/2S3/6/6/5s f 0 0 c3c4 - 0", "6/2S3/6/6/5s f 0 0 b4c4 - 0")
    # c3 has been filled, or the stone captured: the restriction forbids nothing.
    assert same("6/2S3/2s3/6/6 f 0 3 c3c4 - 0", "6/2S3/2s3/6/6 f 0 3 - - 0")
    assert same("6/6/6/6/S4s f 0 0 c3c4 - 0", "6/6/6/6/S4s f 0 0 - - 0")
    # Only the side to move is restricted in the position (the other's is in the next one).
    assert same("6/2S3/6/6/5s s 0 0 c3c4 - 1", "6/2S3/6/6/5s s 0 0 - - 0")
    # The counters are never part of it.
    assert same("6/2S3/6/5s/6 f 0 0 c3c4 f1f2 2", "6/2S3/6/5s/6 f 0 0 c3c4 f1f2 30")


# ---- end of the game ----------------------------------------------------------------------
def test_yote_no_pieces_loses() -> None:
    # second: c3 and f1 on the board, nothing in hand. The jump takes c3, the removal f1.
    after = GAME.play(at("6/6/2s3/2S3/5s f 0 0 - - 0"), "c2c4xf1")
    assert GAME.result(after) == Result(Side.FIRST, RuleReason.NO_PIECES)
    assert GAME.legal_moves(after) == []
    # A stone still in hand is a stone left: the game goes on.
    after = GAME.play(at("6/6/2s3/2S3/5s f 0 1 - - 0"), "c2c4xf1")
    assert GAME.result(after) is None
    # The same, set up directly: second to move with nothing left has lost.
    assert GAME.result(at("6/2S3/6/6/6 s 0 0 - - 0")) == Result(Side.FIRST, RuleReason.NO_PIECES)


def test_yote_no_legal_move_loses() -> None:
    # first's a1 is walled in by a2, b1 (and a3, c1 behind them): no step, no jump.
    pos = at("6/6/s5/s5/Sss3 f 0 0 - - 0")
    assert GAME.legal_moves(pos) == []
    assert GAME.result(pos) == Result(Side.SECOND, RuleReason.NO_MOVES)
    # With a stone in hand there is always a placement.
    assert GAME.result(at("6/6/s5/s5/Sss3 f 1 0 - - 0")) is None


def test_yote_third_occurrence_is_a_draw_by_repetition() -> None:
    # Both sides walk a square loop of 4 steps (a straight back-and-forth is not allowed).
    loop = ["c3c4", "a1a2", "c4d4", "a2b2", "d4d3", "b2b1", "d3c3", "b1a1"]
    pos = at("6/6/2S3/6/s5 f 0 0 - - 0")
    seen = [pos]
    for move in loop * 3:
        if GAME.result(pos) is not None:
            break
        pos = GAME.play(pos, move)
        seen.append(pos)
    # Ply 2 (first may not step c4c3) recurs at plies 10 and 18: the draw is on ply 18.
    assert len(seen) == 19
    assert GAME.result(seen[17]) is None
    assert [p.repetitions() for p in seen[2::8]] == [1, 2, 3]
    assert GAME.result(seen[18]) == Result(None, RuleReason.REPETITION)
    assert GAME.legal_moves(seen[18]) == []
    # The start board is back on plies 8 and 16, but on the start first was free to step
    # c3d3: only plies 8 and 16 are the same position, twice.
    assert seen[8].board == seen[16].board == seen[0].board
    assert [p.repetitions() for p in seen[0::8]] == [1, 1, 2]


def test_yote_fifty_plies_without_placement_or_capture_is_a_draw() -> None:
    pos = at("6/6/2S3/6/5s f 0 0 c2c3 f2f1 49")
    assert GAME.result(pos) is None
    after = GAME.play(pos, "c3c4")
    assert fields(after) == "6/2S3/6/6/5s s 0 0 c3c4 f2f1 50"
    assert GAME.result(after) == Result(None, RuleReason.NO_PROGRESS)


def test_yote_placement_and_capture_reset_the_no_progress_count() -> None:
    after = GAME.play(at("6/6/2S3/6/5s f 1 0 c2c3 f2f1 49"), "*a1")
    assert GAME.to_text(after) == "6/6/2S3/6/S4s s 0 0 - f2f1 0"
    # first c3 (from b3); second c2 (from d2) and f1.
    after = GAME.play(at("6/6/2S3/2s3/5s f 0 0 b3c3 d2c2 49"), "c3c1xf1")
    # second's last move was the step d2c2, even though that stone is gone.
    assert GAME.to_text(after) == "6/6/6/6/2S3 s 0 0 - d2c2 0"
    assert GAME.result(after) == Result(Side.FIRST, RuleReason.NO_PIECES)


def test_yote_no_legal_move_outranks_the_no_progress_draw() -> None:
    # first stepped b1a1, second followed into b1: 50 plies without progress, and first is
    # walled in. The loss by the rules of play comes before the draw by the counter.
    pos = at("6/6/s5/s5/Sss3 f 0 0 b1a1 b2b1 50")
    assert GAME.result(pos) == Result(Side.SECOND, RuleReason.NO_MOVES)


def test_yote_finished_game_refuses_moves() -> None:
    pos = at("6/6/s5/s5/Sss3 f 0 0 - - 0")
    with pytest.raises(GameOverError) as err:
        GAME.play(pos, "a1a2")
    assert err.value.code == "game.over"
    assert "no_moves" in str(err.value)


# ---- move texts ---------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["*c3", "c3c4", "c3c5xd2", "f5a1", "a1a1xa1"])
def test_yote_move_syntax_matches_every_move_form(text: str) -> None:
    assert GAME.MOVE_SYNTAX.fullmatch(text)


@pytest.mark.parametrize(
    "text", ["c3-c4", "C3C4", "*g1", "S*c3", "c3c4x", "c3c5xd2xe2", "c6c5", "pass", "", "*c3 "]
)
def test_yote_malformed_move_text_is_invalid(text: str) -> None:
    pos = at(DOUBLE)
    with pytest.raises(InvalidMoveError) as err:
        GAME.play(pos, text)
    assert err.value.code == "move.invalid"
    assert repr(text) in str(err.value)
    assert DOUBLE in str(err.value)


# ---- position strings ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        START,
        DOUBLE,
        "6/6/2S3/6/S4s s 1 3 - - 0",
        "6/2S3/6/5s/6 f 0 0 c3c4 f1f2 2",
        "6/6/2S3/6/5s f 0 0 c2c3 f2f1 49",
        "6/2S3/6/6/5s s 0 0 c3c4 - 1",
        "6/2S3/2s3/6/6 f 0 3 c3c4 - 0",
        "6/2S3/6/6/6 s 0 0 - - 0",
    ],
)
def test_yote_position_text_round_trips(text: str) -> None:
    pos = at(text)
    assert GAME.to_text(pos) == text
    assert GAME.from_text(GAME.to_text(pos)) == pos


def test_yote_history_round_trips_and_counts_only_reversible_positions() -> None:
    pos = play(at("6/6/2S3/6/s5 f 1 0 - - 0"), "c3c4", "a1a2", "c4d4")
    text = GAME.to_text(pos)
    assert len(pos.history) == 3
    assert text == "6/3S2/6/s5/6 s 1 0 c4d4 a1a2 3 " + "".join(pos.history)
    assert GAME.from_text(text) == pos
    # A step can be undone later: its position joins the history.
    pos = GAME.play(pos, "a2b2")
    assert len(pos.history) == 4
    # A placement cannot be undone: the history starts again.
    assert GAME.play(pos, "*f5").history == ()


def test_yote_random_playouts_round_trip() -> None:
    rng = random.Random(3)
    for _ in range(20):
        pos = GAME.start()
        while GAME.result(pos) is None:
            text = GAME.to_text(pos)
            assert GAME.from_text(text) == pos
            assert GAME.to_text(GAME.from_text(text)) == text
            pos = GAME.play(pos, rng.choice(GAME.legal_moves(pos)))


@pytest.mark.parametrize(
    "text",
    [
        "6/6/6/6/6 f 12 12 - -",  # a field missing
        "6/6/6/6 f 12 12 - - 0",  # 4 ranks
        "6/6/6/6/6/6 f 12 12 - - 0",  # 6 ranks
        "7/6/6/6/6 f 12 12 - - 0",  # 7 files
        "5/6/6/6/6 f 12 12 - - 0",  # 5 files
        "X5/6/6/6/6 f 12 12 - - 0",  # no such piece
        "06/6/6/6/6 f 12 12 - - 0",  # not a digit run
        "6/6/6/6/6 x 12 12 - - 0",  # side
        "6/6/6/6/6 F 12 12 - - 0",
        "6/6/6/6/6 f 13 12 - - 0",  # more than 12 in hand
        "6/6/6/6/6 f 012 12 - - 0",  # not canonical
        "6/6/6/6/6 f -1 12 - - 0",
        "SSSSSS/6/6/6/5s f 7 11 - - 0",  # 6 on the board + 7 in hand
        "6/6/2S3/6/5s f 0 0 c2c3 f2f1 51",  # counter over the limit
        "6/6/2S3/6/5s f 0 0 - - 3",  # counter running although nobody stepped
        "6/6/2S3/6/5s f 0 0 c2c3 f2f1 1",  # two steps in a row count 2 or more
        "6/6/2S3/6/5s f 0 0 - f2f1 2",  # ...and only when both sides stepped
        "6/6/2S3/6/5s f 0 0 c1c3 - 0",  # a last step must be one square
        "6/6/2S3/6/5s f 0 0 c3 - 0",
        "6/6/2S3/6/5s f 0 0 g3g4 - 0",
        "6/6/2S3/6/5s f 0 0 c3c2 - 0",  # first's stone would have left c3: c3 holds one
        "6/6/2S3/6/5s f 0 0 - f1f2 1",  # second's last step: f2 is empty
        "6/6/2S3/6/4ss f 0 0 - e1f1 1",  # ...and e1 would have to be empty
        "6/6/2S3/2s3/5s f 0 0 c2c3 f2f1 2",  # c2 filled, but second's last move was f2f1
        "6/6/6/6/6 s 12 12 - - 0",  # first moves first
        "6/6/2S3/6/6 f 11 12 - - 0",  # second has just moved, so it has a stone on the board
        "6/6/2S3/6/5s f 0 0 c2c3 f2f1 2 AAAAAAAABBBBBBBBCCCCCCCC",  # history over the counter
        "6/6/2S3/6/5s f 0 0 c2c3 f2f1 2 AAAA",  # not a history of digests
        " 6/6/6/6/6 f 12 12 - - 0",
        "6/6/6/6/6  f 12 12 - - 0",
        "",
    ],
)
def test_yote_bad_position_strings_are_refused(text: str) -> None:
    with pytest.raises(InvalidPositionError) as err:
        GAME.from_text(text)
    assert err.value.code == "position.invalid"
    assert repr(text) in str(err.value)


def test_yote_legal_moves_are_canonical_sorted_texts() -> None:
    pos = at("s5/2s3/2S3/3s2/5s f 3 0 - - 0")
    moves = GAME.legal_moves(pos)
    assert moves == sorted(set(moves))
    for move in moves:
        assert GAME.MOVE_SYNTAX.fullmatch(move)
        GAME.play(pos, move)
