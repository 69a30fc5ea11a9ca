"""Wali: one named test per rule and Decision of rules/wali.md, on set-up positions.

Position strings: ``<board> <side> <first hand> <second hand> <plies without removal>``;
``S`` first, ``s`` second; phase 2 is exactly when both hands are 0.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine import GameOverError, IllegalMoveError, InvalidMoveError, InvalidPositionError, Result
from engine.core import RuleReason, Side

GAME = engine.get_game("wali")
START = "6/6/6/6/6 f 12 12 0"
SQUARES = [f + r for r in "12345" for f in "abcdef"]

# Phase 1, first to move. first: a1 b1 f1, d3 f3, d4; second: a5 c5 e5, b3, c2 e2.
PLACING = "s1s1s1/3S2/1s1S1S/2s1s1/SS3S f 6 6 0"
# Phase 1: every empty square would give second three in a row; first can place on c4, f1.
PASSING = "1SSss1/ss2SS/s1ss1S/1SS1Ss/SS1ss1 f 2 2 0"
# Phase 1: second's 12th stone has one square, a3; then phase 2.
LAST = "sS1ss1/SsSSsS/1SsS1S/SS1s1s/Sss1sS s 0 1 0"
# Phase 2. first: a1 b1, c2; second: e5 f5, f4. c2c1 makes a1 b1 c1.
LINE = "4ss/5s/6/2S3/SS4 f 0 0 0"
# Phase 2. first: the line a1 b1 c1; second: e5 f5, f4.
STANDING = "4ss/5s/6/6/SSS3 f 0 0 0"


def at(text: str) -> Any:
    return GAME.from_text(text)


def play(pos: Any, *moves: str) -> Any:
    for move in moves:
        pos = GAME.play(pos, move)
    return pos


def fields(pos: Any) -> str:
    """The position string without its history field."""
    return " ".join(GAME.to_text(pos).split(" ")[: GAME.TEXT_FIELDS])


def assert_illegal(pos: Any, *moves: str) -> None:
    for move in moves:
        assert move not in GAME.legal_moves(pos)
        with pytest.raises(IllegalMoveError) as err:
            GAME.play(pos, move)
        assert err.value.code == "move.illegal"
        assert repr(move) in str(err.value)
        assert GAME.to_text(pos) in str(err.value)


def empty_squares(pos: Any) -> set[str]:
    return {SQUARES[sq] for sq, v in enumerate(pos.board) if not v}


# ---- start, board, material ---------------------------------------------------------------
def test_wali_start_position() -> None:
    pos = GAME.start()
    assert GAME.to_text(pos) == START
    assert GAME.side_to_move(pos) == "first"
    assert pos.phase == 1
    assert GAME.result(pos) is None
    assert GAME.legal_moves(pos) == sorted("*" + sq for sq in SQUARES)


def test_wali_describe() -> None:
    data = GAME.describe()
    assert (data["id"], data["name"]) == ("wali", "Wali")
    assert data["start"] == START
    assert data["hands"] == {"first": 12, "second": 12}
    assert [p["letter"] for p in data["pieces"]] == ["S", "s"]
    assert [p["name"] for p in data["phases"]] == ["placement", "moving"]


# ---- phase 1: placement -------------------------------------------------------------------
def test_wali_placement_forbids_three_in_a_row() -> None:
    pos = at(PLACING)
    legal = {m[1:] for m in GAME.legal_moves(pos)}
    # c1 ends a1 b1, e3 fills d3 _ f3; d5 and d2 end d3 d4, f2 fills f1 _ f3.
    assert empty_squares(pos) - legal == {"c1", "e3", "d5", "d2", "f2"}
    assert_illegal(pos, "*c1", "*e3", "*d5", "*d2", "*f2")


def test_wali_placement_forbids_three_in_a_column() -> None:
    pos = at(PLACING)
    assert_illegal(pos, "*d5", "*d2", "*f2")
    assert {"*d1", "*f4", "*c4"} <= set(GAME.legal_moves(pos))


def test_wali_placement_line_counts_only_own_stones() -> None:
    # b5 sits between second's a5 and c5, c3 between second's b3 and first's d3: both fine
    # for first; for second, b5 (a5 _ c5) and d5 (c5 _ e5) are barred.
    pos = at(PLACING)
    assert {"*b5", "*c3", "*a4"} <= set(GAME.legal_moves(pos))
    after = GAME.play(pos, "*a4")
    assert GAME.side_to_move(after) == "second"
    assert_illegal(after, "*b5", "*d5", "*d2")


def test_wali_no_step_and_no_capture_in_phase_1() -> None:
    pos = at(PLACING)
    assert all(m.startswith("*") for m in GAME.legal_moves(pos))
    assert_illegal(pos, "a1a2", "d3c3", "d4c4xa5")


def test_wali_automatic_pass_when_no_legal_placement() -> None:
    pos = at(PASSING)
    assert GAME.legal_moves(pos) == ["*c4", "*f1"]
    after = GAME.play(pos, "*c4")
    # second has 2 stones but every empty square makes it three in a row: first again.
    assert GAME.to_text(after) == "1SSss1/ssS1SS/s1ss1S/1SS1Ss/SS1ss1 f 1 2 0"
    assert GAME.side_to_move(after) == "first"
    assert GAME.legal_moves(after) == ["*f1"]


def test_wali_stones_set_aside_when_neither_side_can_place() -> None:
    after = play(at(PASSING), "*c4", "*f1")
    # first's hand is empty and second still cannot place: second's 2 stones are set aside.
    assert GAME.to_text(after) == "1SSss1/ssS1SS/s1ss1S/1SS1Ss/SS1ssS s 0 0 0"
    assert after.phase == 2
    assert after.hands == (0, 0)


def test_wali_phase_2_begins_with_the_side_that_did_not_place_last() -> None:
    # 12 + 12 placed: second placed last, first moves.
    pos = at(LAST)
    assert GAME.legal_moves(pos) == ["*a3"]
    after = GAME.play(pos, "*a3")
    assert GAME.to_text(after) == "sS1ss1/SsSSsS/sSsS1S/SS1s1s/Sss1sS f 0 0 0"
    assert after.phase == 2
    assert GAME.side_to_move(after) == "first"
    assert GAME.legal_moves(after) == ["b2c2", "b5c5", "c4c5", "d3e3", "f3e3", "f4f5"]
    # After passes, first placed last: second moves.
    after = play(at(PASSING), "*c4", "*f1")
    assert GAME.side_to_move(after) == "second"


# ---- phase 2: steps and lines -------------------------------------------------------------
def test_wali_phase_2_steps_one_square_orthogonally_to_an_empty_square() -> None:
    pos = at(LINE)
    assert GAME.legal_moves(pos) == [
        "a1a2",
        "b1b2",
        "b1c1",
        "c2b2",
        "c2c1xe5",
        "c2c1xf4",
        "c2c1xf5",
        "c2c3",
        "c2d2",
    ]
    assert_illegal(pos, "*c3", "c2d3", "c2c4", "a1b1", "e5e4")


def test_wali_forming_a_line_of_three_removes_one_enemy_stone() -> None:
    pos = at(LINE)
    after = GAME.play(pos, "c2c1xf5")
    assert GAME.to_text(after) == "4s1/5s/6/6/SSS3 s 0 0 0"


def test_wali_removal_is_mandatory_and_of_an_enemy_stone() -> None:
    # One move per enemy stone; the bare step that forms the line is not a move.
    assert_illegal(at(LINE), "c2c1", "c2c1xa1", "c2c1xc3", "c2c3xe5")


def test_wali_standing_line_captures_nothing() -> None:
    # first keeps a1 b1 c1 standing and steps f2; no move removes anything.
    pos = at("4ss/5s/6/5S/SSS3 f 0 0 0")
    assert GAME.legal_moves(pos) == [
        "a1a2",
        "b1b2",
        "c1c2",
        "c1d1",
        "f2e2",
        "f2f1",
        "f2f3",
    ]
    assert_illegal(pos, "f2f3xe5", "f2e2xf5")


def test_wali_cheval_simple_captures() -> None:
    # Break the line a1 b1 c1 with c1c2, then form it again with c2c1.
    pos = play(at(STANDING), "c1c2", "e5e4")
    assert [m for m in GAME.legal_moves(pos) if m.startswith("c2c1")] == [
        "c2c1xe4",
        "c2c1xf4",
        "c2c1xf5",
    ]
    assert_illegal(pos, "c2c1")


def test_wali_cheval_double_captures() -> None:
    # first: a1 b1 c1 and d2 e2. c1c2 breaks a1 b1 c1 and forms c2 d2 e2.
    pos = at("4ss/5s/6/3SS1/SSS3 f 0 0 0")
    assert [m for m in GAME.legal_moves(pos) if m.startswith("c1c2")] == [
        "c1c2xe5",
        "c1c2xf4",
        "c1c2xf5",
    ]
    assert_illegal(pos, "c1c2")
    # And back: c2c1 breaks c2 d2 e2 and forms a1 b1 c1 again.
    pos = play(pos, "c1c2xf5", "e5e4")
    assert [m for m in GAME.legal_moves(pos) if m.startswith("c2c1")] == ["c2c1xe4", "c2c1xf4"]


def test_wali_lengthening_a_line_to_four_captures() -> None:
    # d2d1 puts d1 next to the standing a1 b1 c1: the moved stone is in a line of four.
    pos = at("4ss/5s/6/3S2/SSS3 f 0 0 0")
    assert [m for m in GAME.legal_moves(pos) if m.startswith("d2d1")] == [
        "d2d1xe5",
        "d2d1xf4",
        "d2d1xf5",
    ]
    assert_illegal(pos, "d2d1")


def test_wali_two_lines_at_once_remove_one_stone() -> None:
    # d1c1 forms a1 b1 c1 and c1 c2 c3 together: still one removal, one move per enemy stone.
    pos = at("4ss/5s/2S3/2S3/SS1S2 f 0 0 0")
    assert [m for m in GAME.legal_moves(pos) if m.startswith("d1c1")] == [
        "d1c1xe5",
        "d1c1xf4",
        "d1c1xf5",
    ]
    with pytest.raises(InvalidMoveError):
        GAME.play(pos, "d1c1xe5xf5")


def test_wali_a_line_needs_the_moved_stone() -> None:
    # Stepping out of a line along it leaves a pair behind: nothing forms.
    pos = at(STANDING)
    assert GAME.legal_moves(pos) == ["a1a2", "b1b2", "c1c2", "c1d1"]


# ---- end of the game ----------------------------------------------------------------------
def test_wali_no_pieces_loses() -> None:
    # second's last stone on the board is f5: the line c2c1 removes it.
    after = GAME.play(at("5s/6/6/2S3/SS4 f 0 0 0"), "c2c1xf5")
    assert GAME.result(after) == Result(Side.FIRST, RuleReason.NO_PIECES)
    assert GAME.legal_moves(after) == []
    assert GAME.result(at("4S1/6/6/6/SS4 s 0 0 0")) == Result(Side.FIRST, RuleReason.NO_PIECES)


def test_wali_no_legal_step_loses() -> None:
    pos = at("6/6/6/s5/Ss4 f 0 0 0")  # first's a1 is walled in by a2 and b1
    assert GAME.legal_moves(pos) == []
    assert GAME.result(pos) == Result(Side.SECOND, RuleReason.NO_MOVES)
    with pytest.raises(GameOverError) as err:
        GAME.play(pos, "a1a2")
    assert err.value.code == "game.over"


def test_wali_third_occurrence_is_a_draw_by_repetition() -> None:
    shuffle = ["a1a2", "f5f4", "a2a1", "f4f5"]
    pos = at("5s/6/6/6/S5 f 0 0 0")
    once = play(pos, *shuffle)
    assert once.repetitions() == 2
    assert GAME.result(once) is None
    twice = play(once, *shuffle)
    assert twice.repetitions() == 3
    assert GAME.result(twice) == Result(None, RuleReason.REPETITION)


def test_wali_hundred_plies_in_phase_2_without_removal_is_a_draw() -> None:
    pos = at("5s/6/6/6/S5 f 0 0 99")
    assert GAME.result(pos) is None
    after = GAME.play(pos, "a1a2")
    assert fields(after) == "5s/6/6/S5/6 s 0 0 100"
    assert GAME.result(after) == Result(None, RuleReason.NO_PROGRESS)


def test_wali_removal_resets_the_no_progress_count() -> None:
    after = GAME.play(at("4ss/5s/6/2S3/SS4 f 0 0 99"), "c2c1xf5")
    assert GAME.to_text(after) == "4s1/5s/6/6/SSS3 s 0 0 0"
    assert GAME.result(after) is None


def test_wali_phase_1_plies_do_not_count_towards_no_progress() -> None:
    # 23 placements so far, yet the counter starts at 0 in phase 2.
    assert GAME.to_text(GAME.play(at(LAST), "*a3")).endswith(" 0")


# ---- move texts ---------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["c3-c4", "C3C4", "*g1", "c3c4x", "c6c5", "pass", "*c3 "])
def test_wali_malformed_move_text_is_invalid(text: str) -> None:
    with pytest.raises(InvalidMoveError) as err:
        GAME.play(at(LINE), text)
    assert err.value.code == "move.invalid"
    assert repr(text) in str(err.value)
    assert LINE in str(err.value)


# ---- position strings ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        START,
        PLACING,
        PASSING,
        LAST,
        LINE,
        STANDING,
        "5s/6/6/6/S5 f 0 0 99",
        "4S1/6/6/6/SS4 s 0 0 0",
    ],
)
def test_wali_position_text_round_trips(text: str) -> None:
    pos = at(text)
    assert GAME.to_text(pos) == text
    assert GAME.from_text(GAME.to_text(pos)) == pos


def test_wali_history_counts_phase_2_steps_since_the_last_removal() -> None:
    pos = play(at(STANDING), "c1c2", "e5e4")
    assert len(pos.history) == 2
    assert GAME.to_text(pos) == "5s/4ss/6/2S3/SS4 f 0 0 2 " + "".join(pos.history)
    assert GAME.from_text(GAME.to_text(pos)) == pos
    assert GAME.play(pos, "c2c3").history == (*pos.history, pos.digest)
    # A removal cannot be undone: the history starts again.
    assert GAME.play(pos, "c2c1xf5").history == ()


def test_wali_random_playouts_round_trip() -> None:
    rng = random.Random(5)
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
        "6/6/6/6/6 f 12 12",  # a field missing
        "6/6/6/6/6 f 12 12 0 0",  # not a history
        "6/6/6/6/7 f 12 12 0",  # 7 files
        "6/6/6/6/6 f 13 12 0",  # more than 12 in hand
        "6/6/6/6/6 s 12 12 0",  # first places first
        "6/6/6/6/6 f 0 0 0",  # an empty board in phase 2
        "6/6/6/5s/SSS3 s 9 11 0",  # three in a row cannot be placed
        "6/6/6/s5/s5/s5 s 12 9 0",  # 6 ranks
        "6/6/6/6/S5 s 10 12 0",  # no stone leaves the board in phase 1
        "1SSss1/ss2SS/s1ss1S/1SS1Ss/SS1ss1 s 2 2 0",  # second cannot place: it passed
        "6/6/6/6/Ss4 s 11 11 0",  # first has placed as often as second: first's turn
        "6/6/6/6/S5 s 11 12 1",  # no counter in phase 1
        "6/6/6/6/S5 s 11 12 0 AAAAAAAA",  # no history in phase 1
        "5s/6/6/6/S5 f 0 0 101",  # counter over the limit
        "5s/6/6/6/S5 f 0 0 1 AAAAAAAABBBBBBBB",  # history longer than the counter
        "6/6/6/6/s5 s 0 0 0",  # first has just moved: it has a stone on the board
        "6/6/6/6/6 f 12 12 0 ",
    ],
)
def test_wali_bad_position_strings_are_refused(text: str) -> None:
    with pytest.raises(InvalidPositionError) as err:
        GAME.from_text(text)
    assert err.value.code == "position.invalid"
    assert repr(text) in str(err.value)
