"""The rules of `dobutsu` (docs/rules/dobutsu.md and docs/rules/README.md), one named test each.

Every test starts from a set-up position string (``from_text``) and checks both sides of a
rule: the moves it allows are listed and play, the moves it forbids are not listed and
``play`` refuses them with ``IllegalMoveError``. Boards are written rank 4 first:

    rank 4   a4 b4 c4      second's home / first's promotion zone
    rank 3   a3 b3 c3
    rank 2   a2 b2 c2
    rank 1   a1 b1 c1      first's home / second's promotion zone
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine import Result
from engine.core import RuleReason, Side

DOBUTSU = engine.get_game("dobutsu")
YOKAI = engine.get_game("dobutsu", ruleset="yokai")
START = "gle/1c1/1C1/ELG f -"
ALL_SQUARES = [f + r for r in "1234" for f in "abc"]


# ---- helpers ---------------------------------------------------------------------------------
def moves_from(game: Any, pos: Any, square: str) -> list[str]:
    """The legal moves of the piece on ``square``."""
    return [m for m in game.legal_moves(pos) if m[:2] == square]


def drops(game: Any, pos: Any, letter: str) -> list[str]:
    return [m for m in game.legal_moves(pos) if m.startswith(letter + "*")]


def assert_illegal(game: Any, pos: Any, *texts: str) -> None:
    """Each text is well formed but neither listed nor accepted by ``play``."""
    legal = game.legal_moves(pos)
    for text in texts:
        assert text not in legal, text
        with pytest.raises(engine.IllegalMoveError) as err:
            game.play(pos, text)
        assert err.value.code == "move.illegal"


def play_all(game: Any, pos: Any, moves: list[str]) -> Any:
    for move in moves:
        pos = game.play(pos, move)
    return pos


def hands(game: engine.Game[Any], pos: Any) -> str:
    return game.to_text(pos).split(" ")[2]


def board(game: engine.Game[Any], pos: Any) -> str:
    return game.to_text(pos).split(" ")[0]


# ---- start -----------------------------------------------------------------------------------
def test_start_position_string_and_side() -> None:
    pos = DOBUTSU.start()
    assert DOBUTSU.to_text(pos) == START
    assert DOBUTSU.from_text(START) == pos
    assert DOBUTSU.side_to_move(pos) == "first"
    assert DOBUTSU.result(pos) is None
    assert YOKAI.to_text(YOKAI.start()) == START


def test_start_legal_moves_exactly() -> None:
    # lion b1a2 b1c2, giraffe c1c2, chick b2b3 (takes the chick); the elephant is boxed in.
    pos = DOBUTSU.start()
    assert DOBUTSU.legal_moves(pos) == ["b1a2", "b1c2", "b2b3", "c1c2"]
    assert_illegal(DOBUTSU, pos, "a1b2", "b1b2", "b1a1", "c1b1", "b2b4", "b2a3", "b2b3+")
    assert YOKAI.legal_moves(YOKAI.start()) == ["b1a2", "b1c2", "b2b3", "c1c2"]


def test_start_second_player_pieces_are_the_point_reflection() -> None:
    # After c1c2 second has: giraffe a4a3, lion b4a3 (c3 is the giraffe's now), chick b3b2.
    pos = DOBUTSU.play(DOBUTSU.start(), "c1c2")
    assert DOBUTSU.side_to_move(pos) == "second"
    assert DOBUTSU.legal_moves(pos) == ["a4a3", "b3b2", "b4a3"]
    assert_illegal(DOBUTSU, pos, "b4c3", "c4b3", "b3b4", "a4b4")


# ---- each piece's movement --------------------------------------------------------------------
def test_chick_moves_straight_forward_only() -> None:
    pos = DOBUTSU.from_text("2l/3/1C1/L2 f -")
    assert moves_from(DOBUTSU, pos, "b2") == ["b2b3"]
    assert_illegal(DOBUTSU, pos, "b2a3", "b2c3", "b2a2", "b2c2", "b2b1", "b2c1")


def test_second_players_chick_moves_down_the_board() -> None:
    pos = DOBUTSU.from_text("2l/1c1/3/L2 s -")
    assert moves_from(DOBUTSU, pos, "b3") == ["b3b2"]
    assert_illegal(DOBUTSU, pos, "b3b4", "b3a2", "b3c2", "b3a3", "b3c3")


def test_chick_captures_straight_forward_only() -> None:
    # chick b2; enemy pieces on b3 (ahead) and a3 (diagonal): only b3 can be taken.
    pos = DOBUTSU.from_text("2l/eg1/1C1/L2 f -")
    assert moves_from(DOBUTSU, pos, "b2") == ["b2b3"]
    assert_illegal(DOBUTSU, pos, "b2a3")


def test_elephant_moves_one_square_diagonally() -> None:
    # a1 is the own lion, so b2a1 is not a move either.
    pos = DOBUTSU.from_text("2l/3/1E1/L2 f -")
    assert moves_from(DOBUTSU, pos, "b2") == ["b2a3", "b2c1", "b2c3"]
    assert_illegal(DOBUTSU, pos, "b2a2", "b2c2", "b2b1", "b2b3", "b2a1", "b2b4")


def test_giraffe_moves_one_square_orthogonally() -> None:
    pos = DOBUTSU.from_text("2l/3/1G1/L2 f -")
    assert moves_from(DOBUTSU, pos, "b2") == ["b2a2", "b2b1", "b2b3", "b2c2"]
    assert_illegal(DOBUTSU, pos, "b2a3", "b2c3", "b2c1", "b2a1", "b2b4")


def test_hen_moves_everywhere_but_the_back_diagonals() -> None:
    # b2c1 (empty) and b2a1 (own lion) are the back diagonals.
    pos = DOBUTSU.from_text("2l/3/1H1/L2 f -")
    assert moves_from(DOBUTSU, pos, "b2") == ["b2a2", "b2a3", "b2b1", "b2b3", "b2c2", "b2c3"]
    assert_illegal(DOBUTSU, pos, "b2c1", "b2a1")


def test_second_players_hen_moves_mirrored() -> None:
    # Second's hen on b3: forward is down (a2 b2 c2), sideways a3 c3, straight back b4;
    # its back diagonals are a4 (own lion) and c4 (empty).
    pos = DOBUTSU.from_text("l2/1h1/3/2L s -")
    assert moves_from(DOBUTSU, pos, "b3") == ["b3a2", "b3a3", "b3b2", "b3b4", "b3c2", "b3c3"]
    assert_illegal(DOBUTSU, pos, "b3c4", "b3a4")


def test_lion_moves_one_square_in_eight_directions() -> None:
    # Under yokai no square is forbidden: all 8 neighbours of b2.
    pos = YOKAI.from_text("l2/3/1L1/3 f -")
    assert moves_from(YOKAI, pos, "b2") == [
        "b2a1", "b2a2", "b2a3", "b2b1", "b2b3", "b2c1", "b2c2", "b2c3",
    ]  # fmt: skip
    assert_illegal(YOKAI, pos, "b2b4", "b2a4")


def test_lion_moves_in_eight_directions_except_into_attack() -> None:
    # Second's lion on a4 guards a3 and b3: the other 6 neighbours of b2 remain.
    pos = DOBUTSU.from_text("l2/3/1L1/3 f -")
    assert moves_from(DOBUTSU, pos, "b2") == ["b2a1", "b2a2", "b2b1", "b2c1", "b2c2", "b2c3"]
    assert_illegal(DOBUTSU, pos, "b2a3", "b2b3")


def test_no_piece_moves_onto_its_own_side() -> None:
    pos = DOBUTSU.from_text("2l/3/GC1/LE1 f -")
    assert_illegal(DOBUTSU, pos, "a1a2", "a1b1", "a2b2", "b1a2", "a2a1")


# ---- captures ---------------------------------------------------------------------------------
def test_capture_puts_the_piece_in_the_captors_hand() -> None:
    pos = DOBUTSU.from_text("2l/1e1/1G1/L2 f -")
    after = DOBUTSU.play(pos, "b2b3")
    assert DOBUTSU.to_text(after).split(" ")[:3] == ["2l/1G1/3/L2", "s", "E"]


def test_second_players_capture_goes_to_second_hand() -> None:
    pos = DOBUTSU.from_text("2l/1g1/1E1/L2 s -")
    after = DOBUTSU.play(pos, "b3b2")
    assert board(DOBUTSU, after) == "2l/3/1g1/L2"
    assert hands(DOBUTSU, after) == "e"


def test_captured_hen_goes_to_hand_as_a_chick() -> None:
    pos = DOBUTSU.from_text("2l/h2/G2/L2 f -")
    after = DOBUTSU.play(pos, "a2a3")
    assert hands(DOBUTSU, after) == "C"
    # ...and it comes back as a chick, never as a hen
    after = DOBUTSU.play(after, "c4c3")
    assert "C*a2" in DOBUTSU.legal_moves(after)
    assert_illegal(DOBUTSU, after, "H*a2")
    assert board(DOBUTSU, DOBUTSU.play(after, "C*a2")) == "3/G1l/C2/L2"


def test_hands_list_first_then_second_in_table_order_with_counts() -> None:
    text = "2l/3/3/L2 f 2EGCgc"
    pos = DOBUTSU.from_text(text)
    assert DOBUTSU.to_text(pos) == text
    assert sorted({m[0] for m in DOBUTSU.legal_moves(pos) if "*" in m}) == ["C", "E", "G"]


# ---- promotion --------------------------------------------------------------------------------
def test_chick_moving_into_the_last_rank_becomes_a_hen() -> None:
    pos = DOBUTSU.from_text("2l/C2/3/L2 f -")
    assert moves_from(DOBUTSU, pos, "a3") == ["a3a4+"]
    assert_illegal(DOBUTSU, pos, "a3a4")  # no choice: it always promotes
    after = DOBUTSU.play(pos, "a3a4+")
    assert board(DOBUTSU, after) == "H1l/3/3/L2"


def test_chick_promotes_when_capturing_into_the_last_rank() -> None:
    pos = DOBUTSU.from_text("g1l/C2/3/L2 f -")
    assert moves_from(DOBUTSU, pos, "a3") == ["a3a4+"]
    assert_illegal(DOBUTSU, pos, "a3a4")
    after = DOBUTSU.play(pos, "a3a4+")
    assert board(DOBUTSU, after) == "H1l/3/3/L2"
    assert hands(DOBUTSU, after) == "G"


def test_second_players_chick_promotes_on_rank_one() -> None:
    pos = DOBUTSU.from_text("2l/3/c2/2L s -")
    assert moves_from(DOBUTSU, pos, "a2") == ["a2a1+"]
    assert_illegal(DOBUTSU, pos, "a2a1")
    assert board(DOBUTSU, DOBUTSU.play(pos, "a2a1+")) == "2l/3/3/h1L"


def test_plus_only_where_the_move_promotes() -> None:
    pos = DOBUTSU.from_text("2l/3/1C1/L2 f -")
    assert_illegal(DOBUTSU, pos, "b2b3+", "a1a2+")


def test_dropped_chick_in_the_zone_stays_a_chick_and_cannot_move() -> None:
    pos = DOBUTSU.from_text("2l/3/3/L2 f C")
    assert "C*a4" in DOBUTSU.legal_moves(pos)  # dropping it there is allowed
    after = DOBUTSU.play(pos, "C*a4")
    assert board(DOBUTSU, after) == "C1l/3/3/L2"  # a chick, not a hen
    after = DOBUTSU.play(after, "c4c3")
    assert moves_from(DOBUTSU, after, "a4") == []
    assert_illegal(DOBUTSU, after, "a4a3", "a4b4", "a4b3", "a4a4+")
    assert board(DOBUTSU, after) == "C2/2l/3/L2"


# ---- drops ------------------------------------------------------------------------------------
@pytest.mark.parametrize("letter", ["E", "G", "C"])
def test_drop_on_any_empty_square(letter: str) -> None:
    pos = DOBUTSU.from_text(f"2l/3/3/L2 f {letter}")
    empty = [sq for sq in ALL_SQUARES if sq not in ("a1", "c4")]
    assert drops(DOBUTSU, pos, letter) == sorted(f"{letter}*{sq}" for sq in empty)
    assert_illegal(DOBUTSU, pos, f"{letter}*a1", f"{letter}*c4")


def test_dropped_piece_belongs_to_the_dropper_and_is_unpromoted() -> None:
    pos = DOBUTSU.from_text("2l/3/3/L2 s c")
    assert "C*b1" in DOBUTSU.legal_moves(pos)  # the upper-case letter, whatever the side
    after = DOBUTSU.play(pos, "C*b1")
    assert board(DOBUTSU, after) == "2l/3/3/Lc1"
    assert hands(DOBUTSU, after) == "-"


def test_only_pieces_in_ones_own_hand_can_be_dropped() -> None:
    pos = DOBUTSU.from_text("2l/3/3/L2 f eg")
    assert drops(DOBUTSU, pos, "E") == []
    assert drops(DOBUTSU, pos, "G") == []
    assert_illegal(DOBUTSU, pos, "E*b2", "G*b2", "C*b2")


def test_lion_and_hen_are_never_dropped() -> None:
    pos = DOBUTSU.from_text("2l/3/3/L2 f C")
    assert_illegal(DOBUTSU, pos, "L*b2", "H*b2")


def test_two_chicks_of_one_side_on_one_file_are_allowed() -> None:
    pos = DOBUTSU.from_text("2l/3/C2/1L1 f C")
    assert {"C*a1", "C*a3", "C*a4"} <= set(DOBUTSU.legal_moves(pos))
    after = DOBUTSU.play(pos, "C*a3")
    assert board(DOBUTSU, after) == "2l/C2/C2/1L1"


def test_no_pass() -> None:
    pos = DOBUTSU.from_text("2l/3/3/L2 f -")
    assert DOBUTSU.legal_moves(pos) == ["a1a2", "a1b1", "a1b2"]
    for text in ("pass", "", "-", "0000"):
        with pytest.raises(engine.InvalidMoveError):
            DOBUTSU.play(pos, text)


# ---- legality ---------------------------------------------------------------------------------
def test_lion_cannot_move_onto_an_attacked_square() -> None:
    # Second's giraffe on b2 guards a2 and b1; the lion may take it (b2 is unguarded).
    pos = DOBUTSU.from_text("2l/3/1g1/L2 f -")
    assert DOBUTSU.legal_moves(pos) == ["a1b2"]
    assert_illegal(DOBUTSU, pos, "a1a2", "a1b1")


def test_lion_cannot_take_a_defended_piece() -> None:
    # Second's giraffe on b2 is defended by second's elephant on a3.
    pos = DOBUTSU.from_text("2l/e2/1g1/L2 f G")
    assert_illegal(DOBUTSU, pos, "a1b2", "a1a2", "a1b1")
    assert DOBUTSU.result(pos) is None  # drops remain: not over


def test_lions_cannot_stand_next_to_each_other() -> None:
    pos = DOBUTSU.from_text("3/2l/3/L2 f -")
    assert moves_from(DOBUTSU, pos, "a1") == ["a1a2", "a1b1"]
    assert_illegal(DOBUTSU, pos, "a1b2")


def test_in_check_only_moves_that_remove_the_attack_are_legal() -> None:
    # Second's giraffe on a2 attacks the lion on a1 and is defended by the elephant on b3;
    # b2 is guarded by the giraffe. Only the elephant's capture b1a2 saves the lion:
    # no other elephant move, no drop (nothing can be blocked), no lion move.
    pos = DOBUTSU.from_text("2l/1e1/g2/LE1 f C")
    assert DOBUTSU.legal_moves(pos) == ["b1a2"]
    assert_illegal(DOBUTSU, pos, "b1c2", "a1a2", "a1b2", "C*b2", "C*c1")
    assert hands(DOBUTSU, DOBUTSU.play(pos, "b1a2")) == "GC"


def test_lion_may_capture_an_undefended_checker() -> None:
    # Second's giraffe on a2 attacks a1, a3 and b2, and nothing defends it.
    pos = DOBUTSU.from_text("2l/3/g2/L2 f -")
    assert DOBUTSU.legal_moves(pos) == ["a1a2", "a1b1"]
    assert_illegal(DOBUTSU, pos, "a1b2")


def test_a_move_leaving_the_lion_capturable_is_refused_by_from_text() -> None:
    # First's lion on b1 is attacked by the giraffe while second is to move: first could
    # only have got here by an illegal move.
    with pytest.raises(engine.InvalidPositionError):
        DOBUTSU.from_text("2l/3/1g1/1L1 s -")
    assert YOKAI.result(YOKAI.from_text("2l/3/1g1/1L1 s -")) is None


# ---- try (default ruleset) --------------------------------------------------------------------
def test_lion_moving_onto_the_last_rank_wins_by_try() -> None:
    pos = DOBUTSU.from_text("3/L2/2l/3 f -")
    assert DOBUTSU.legal_moves(pos) == ["a3a2", "a3a4", "a3b4"]
    after = DOBUTSU.play(pos, "a3a4")
    assert DOBUTSU.result(after) == Result(Side.FIRST, RuleReason.TRY)
    assert DOBUTSU.legal_moves(after) == []
    assert DOBUTSU.result(DOBUTSU.play(pos, "a3b4")) == Result(Side.FIRST, RuleReason.TRY)
    assert DOBUTSU.result(DOBUTSU.play(pos, "a3a2")) is None


def test_try_into_an_attacked_square_is_illegal_and_try_by_capture_wins() -> None:
    # Second's giraffe on b4 guards a4; taking it on b4 is a safe try.
    pos = DOBUTSU.from_text("1g1/L2/2l/3 f -")
    assert_illegal(DOBUTSU, pos, "a3a4")
    after = DOBUTSU.play(pos, "a3b4")
    assert DOBUTSU.result(after) == Result(Side.FIRST, RuleReason.TRY)
    assert hands(DOBUTSU, after) == "G"


def test_second_players_try_is_on_rank_one() -> None:
    pos = DOBUTSU.from_text("3/L2/2l/3 f -")
    pos = DOBUTSU.play(pos, "a3a2")
    assert "c2c1" in DOBUTSU.legal_moves(pos)
    assert_illegal(DOBUTSU, pos, "c2b1", "c2b2")  # guarded by first's lion on a2
    after = DOBUTSU.play(pos, "c2c1")
    assert DOBUTSU.result(after) == Result(Side.SECOND, RuleReason.TRY)
    with pytest.raises(engine.GameOverError) as err:
        DOBUTSU.play(after, "a2a3")
    assert err.value.code == "game.over"


def test_only_the_lion_makes_a_try() -> None:
    # A giraffe or a chick reaching the last rank wins nothing.
    pos = DOBUTSU.from_text("3/G1C/2l/L2 f -")
    assert DOBUTSU.result(DOBUTSU.play(pos, "a3a4")) is None
    assert DOBUTSU.result(DOBUTSU.play(pos, "c3c4+")) is None


def test_a_lion_on_its_zone_belongs_to_the_side_that_just_moved() -> None:
    # Read back, a lion on its promotion zone is the try that just won.
    pos = DOBUTSU.from_text("L2/3/2l/3 s -")
    assert DOBUTSU.result(pos) == Result(Side.FIRST, RuleReason.TRY)
    assert DOBUTSU.legal_moves(pos) == []
    with pytest.raises(engine.InvalidPositionError):
        DOBUTSU.from_text("L2/3/2l/3 f -")


# ---- no legal move ------------------------------------------------------------------------------
def test_checkmate_loses() -> None:
    # Second's hen on a2 (defended by the elephant on b3) attacks a1, b1 and b2.
    pos = DOBUTSU.from_text("2l/1e1/h2/L2 f -")
    assert DOBUTSU.legal_moves(pos) == []
    assert DOBUTSU.result(pos) == Result(Side.SECOND, RuleReason.CHECKMATE)
    with pytest.raises(engine.GameOverError):
        DOBUTSU.play(pos, "a1a2")


def test_checkmate_with_pieces_in_hand_still_loses() -> None:
    # Drops never answer a check (nothing can be blocked): the hand does not help.
    pos = DOBUTSU.from_text("2l/1e1/h2/L2 f GC")
    assert DOBUTSU.legal_moves(pos) == []
    assert DOBUTSU.result(pos) == Result(Side.SECOND, RuleReason.CHECKMATE)


def test_no_legal_move_without_check_loses_by_no_moves() -> None:
    # First's lion on a1 is not attacked, but a2, b1, b2 all are; first has nothing else.
    pos = DOBUTSU.from_text("2l/ee1/3/L1g f -")
    assert DOBUTSU.legal_moves(pos) == []
    assert DOBUTSU.result(pos) == Result(Side.SECOND, RuleReason.NO_MOVES)


def test_a_piece_in_hand_gives_moves_in_the_same_position() -> None:
    pos = DOBUTSU.from_text("2l/ee1/3/L1g f C")
    assert DOBUTSU.result(pos) is None
    assert DOBUTSU.legal_moves(pos) == sorted(
        f"C*{sq}" for sq in ALL_SQUARES if sq not in ("a1", "c1", "a3", "b3", "c4")
    )


def test_giving_checkmate_wins() -> None:
    # The giraffe goes to c3 and attacks c4: b4 is guarded by the elephant a3, b3 by the
    # giraffe, and the giraffe itself by the elephant b2.
    pos = DOBUTSU.from_text("2l/E2/1EG/L2 f -")
    after = DOBUTSU.play(pos, "c2c3")
    assert DOBUTSU.legal_moves(after) == []
    assert DOBUTSU.result(after) == Result(Side.FIRST, RuleReason.CHECKMATE)


def test_leaving_the_opponent_without_moves_and_not_in_check_wins_by_no_moves() -> None:
    # The giraffe goes to b3 (defended by the elephant c2): second's lion on c4 is not
    # attacked, but b4 and c3 are guarded by the giraffe and b3 is defended.
    pos = DOBUTSU.from_text("2l/3/1GE/L2 f -")
    after = DOBUTSU.play(pos, "b2b3")
    assert DOBUTSU.legal_moves(after) == []
    assert DOBUTSU.result(after) == Result(Side.FIRST, RuleReason.NO_MOVES)


# ---- repetition ---------------------------------------------------------------------------------
SHUFFLE = ["c1c2", "a4a3", "c2c1", "a3a4"]  # giraffes out and back: the start again


def test_third_occurrence_of_the_start_position_is_a_draw() -> None:
    pos = play_all(DOBUTSU, DOBUTSU.start(), SHUFFLE)
    assert DOBUTSU.to_text(pos).split(" ")[:3] == START.split(" ")
    assert DOBUTSU.result(pos) is None  # second occurrence
    pos = play_all(DOBUTSU, pos, SHUFFLE[:3])
    assert DOBUTSU.result(pos) is None
    pos = DOBUTSU.play(pos, SHUFFLE[3])  # third occurrence, the start counting as the first
    assert DOBUTSU.result(pos) == Result(None, RuleReason.REPETITION)
    assert DOBUTSU.legal_moves(pos) == []
    with pytest.raises(engine.GameOverError):
        DOBUTSU.play(pos, "c1c2")


def test_occurrences_need_not_be_consecutive() -> None:
    # Start; giraffes out and back (2nd); lions out and back (3rd), other positions between.
    pos = play_all(DOBUTSU, DOBUTSU.start(), SHUFFLE)
    pos = play_all(DOBUTSU, pos, ["b1a2", "b4c3", "a2b1"])
    assert DOBUTSU.result(pos) is None
    pos = DOBUTSU.play(pos, "c3b4")
    assert DOBUTSU.result(pos) == Result(None, RuleReason.REPETITION)


def test_a_position_is_board_hands_and_side_to_move() -> None:
    # First's lion walks a triangle (3 moves), second's lion goes out and back (2 moves):
    # after 5 plies the board is the start board with second to move, a different position.
    pos = DOBUTSU.from_text("2l/3/3/L2 f -")
    pos = play_all(DOBUTSU, pos, ["a1a2", "c4c3", "a2b1", "c3c4", "b1a1"])
    assert DOBUTSU.to_text(pos).split(" ")[:2] == ["2l/3/3/L2", "s"]
    pos = play_all(DOBUTSU, pos, ["c4c3", "a1a2", "c3c4", "a2a1"])  # the same, second time
    assert DOBUTSU.result(pos) is None  # the board has occurred 3 times, this position twice
    pos = play_all(DOBUTSU, pos, ["c4c3", "a1a2", "c3c4", "a2a1"])
    assert DOBUTSU.result(pos) == Result(None, RuleReason.REPETITION)


def test_hands_are_part_of_the_position() -> None:
    # The chick goes from first's hand to second's (dropped with check, taken by the lion),
    # and the lions come home: the same board with first to move, but other hands.
    pos = DOBUTSU.from_text("2l/3/3/L2 f C")
    pos = play_all(DOBUTSU, pos, ["C*c3", "c4c3", "a1a2", "c3b4", "a2a1", "b4c4"])
    assert DOBUTSU.to_text(pos).split(" ")[:3] == ["2l/3/3/L2", "f", "c"]
    cycle = ["a1a2", "c4c3", "a2a1", "c3c4"]
    pos = play_all(DOBUTSU, pos, cycle)
    assert DOBUTSU.result(pos) is None  # the board's 3rd time, this position's 2nd
    pos = play_all(DOBUTSU, pos, cycle)
    assert DOBUTSU.result(pos) == Result(None, RuleReason.REPETITION)


def test_repetition_history_round_trips_through_the_position_string() -> None:
    pos = play_all(DOBUTSU, DOBUTSU.start(), SHUFFLE + SHUFFLE[:3])
    text = DOBUTSU.to_text(pos)
    fields = text.split(" ")
    assert len(fields) == 4 and len(fields[3]) == 8 * 7  # seven earlier positions
    again = DOBUTSU.from_text(text)
    assert again == pos
    assert DOBUTSU.to_text(again) == text
    assert DOBUTSU.result(DOBUTSU.play(again, "a3a4")) == Result(None, RuleReason.REPETITION)
    # without its history field the position counts as occurring for the first time
    fresh = DOBUTSU.from_text(" ".join(fields[:3]))
    assert DOBUTSU.result(DOBUTSU.play(fresh, "a3a4")) is None


def test_history_field_after_one_move() -> None:
    # docs/notation.md: after b2b3 the start position is in the history.
    pos = DOBUTSU.play(DOBUTSU.start(), "b2b3")
    assert DOBUTSU.to_text(pos).split(" ")[:3] == ["gle/1C1/3/ELG", "s", "C"]
    assert len(DOBUTSU.to_text(pos).split(" ")[3]) == 8


# ---- ruleset yokai ----------------------------------------------------------------------------
def test_ruleset_option_values() -> None:
    assert DOBUTSU.options == {"ruleset": "dobutsu"}
    assert engine.get_game("dobutsu", ruleset="dobutsu") is DOBUTSU
    assert YOKAI.options == {"ruleset": "yokai"}
    option = DOBUTSU.describe()["options"]
    assert [(o["name"], o["default"], o["values"]) for o in option] == [
        ("ruleset", "dobutsu", ["dobutsu", "yokai"])
    ]


@pytest.mark.parametrize(
    "options",
    [{"ruleset": "shogi"}, {"ruleset": "Yokai"}, {"ruleset": ""}, {"rules": "yokai"},
     {"ruleset": None}],
)  # fmt: skip
def test_unknown_option_or_value_is_refused(options: dict[str, object]) -> None:
    with pytest.raises(engine.InvalidOptionError) as err:
        engine.get_game("dobutsu", **options)
    assert err.value.code == "option.invalid"


def test_yokai_moves_that_leave_the_koropokkuru_capturable_are_legal() -> None:
    # The same position as test_lion_cannot_move_onto_an_attacked_square.
    pos = YOKAI.from_text("2l/3/1g1/L2 f -")
    assert YOKAI.legal_moves(pos) == ["a1a2", "a1b1", "a1b2"]
    # and in "check" every move is legal, drops included
    pos = YOKAI.from_text("2l/1e1/g2/LE1 f C")
    assert {"a1a2", "a1b2", "b1c2", "C*b2", "C*c1"} <= set(YOKAI.legal_moves(pos))


def test_yokai_capturing_the_koropokkuru_wins() -> None:
    pos = YOKAI.play(YOKAI.from_text("2l/3/1g1/L2 f -"), "a1a2")
    assert YOKAI.result(pos) is None
    after = YOKAI.play(pos, "b2a2")
    assert YOKAI.result(after) == Result(Side.SECOND, RuleReason.CAPTURE)
    assert YOKAI.legal_moves(after) == []
    text = YOKAI.to_text(after)
    assert text.split(" ")[:3] == ["2l/3/g2/3", "f", "-"]  # the koropokkuru is not in hand
    assert YOKAI.result(YOKAI.from_text(text)) == Result(Side.SECOND, RuleReason.CAPTURE)


def test_yokai_a_missing_koropokkuru_is_only_valid_under_yokai() -> None:
    assert YOKAI.result(YOKAI.from_text("2l/3/3/3 f -")) == Result(Side.SECOND, RuleReason.CAPTURE)
    with pytest.raises(engine.InvalidPositionError):
        DOBUTSU.from_text("2l/3/3/3 f -")
    with pytest.raises(engine.InvalidPositionError):
        YOKAI.from_text("3/3/3/3 f -")


def test_yokai_safe_try_wins() -> None:
    pos = YOKAI.from_text("3/L2/2l/3 f -")
    assert YOKAI.result(YOKAI.play(pos, "a3a4")) == Result(Side.FIRST, RuleReason.TRY)


def test_yokai_koropokkuru_arriving_attacked_wins_once_it_is_no_longer_attacked() -> None:
    # Second's elephant on b3 attacks a4.
    pos = YOKAI.from_text("3/Le1/2l/3 f -")
    arrived = YOKAI.play(pos, "a3a4")
    assert YOKAI.result(arrived) is None  # attacked: no try yet
    assert YOKAI.side_to_move(arrived) == "second"
    # the elephant stays on b3 (the lion moves): still attacked, no win
    assert YOKAI.result(YOKAI.play(arrived, "c2c3")) is None
    # the elephant goes away: after that move first's koropokkuru stands unattacked
    assert YOKAI.result(YOKAI.play(arrived, "b3a2")) == Result(Side.FIRST, RuleReason.TRY)
    # or second takes it
    assert YOKAI.result(YOKAI.play(arrived, "b3a4")) == Result(Side.SECOND, RuleReason.CAPTURE)
    # or second makes its own safe try while first's koropokkuru is still attacked
    assert YOKAI.result(YOKAI.play(arrived, "c2c1")) == Result(Side.SECOND, RuleReason.TRY)


def test_yokai_try_can_be_made_by_the_opponents_move() -> None:
    # Second's koropokkuru stands on a1 attacked by first's giraffe; the giraffe leaves.
    pos = YOKAI.from_text("3/1L1/G2/l2 f -")
    assert YOKAI.result(pos) is None
    assert YOKAI.result(YOKAI.play(pos, "a2b2")) == Result(Side.SECOND, RuleReason.TRY)


def test_yokai_both_koropokkuru_safe_at_once_is_a_draw() -> None:
    # First's koropokkuru on b4 is attacked by the elephant a3, second's on a1 by the giraffe
    # a2. The giraffe takes the elephant: both stand unattacked on their zone.
    pos = YOKAI.from_text("1L1/e2/G2/l2 f -")
    assert YOKAI.result(pos) is None
    after = YOKAI.play(pos, "a2a3")
    assert YOKAI.result(after) == Result(None, RuleReason.TRY)
    assert YOKAI.legal_moves(after) == []


def test_yokai_capture_landing_on_a_safe_try_square_is_a_capture() -> None:
    pos = YOKAI.from_text("1l1/L2/3/3 f -")
    after = YOKAI.play(pos, "a3b4")
    assert YOKAI.result(after) == Result(Side.FIRST, RuleReason.CAPTURE)


def test_yokai_no_legal_move_is_always_no_moves() -> None:
    # Every first piece is boxed in by its own pieces; first's hand is empty.
    pos = YOKAI.from_text("GE1/LGE/CCl/3 f -")
    assert YOKAI.legal_moves(pos) == []
    assert YOKAI.result(pos) == Result(Side.SECOND, RuleReason.NO_MOVES)
    # The dobutsu checkmate position is no ending under yokai: the koropokkuru may move
    # (and be taken).
    pos = YOKAI.from_text("2l/1e1/h2/L2 f -")
    assert YOKAI.result(pos) is None
    assert YOKAI.legal_moves(pos) == ["a1a2", "a1b1", "a1b2"]
    assert YOKAI.result(YOKAI.play(YOKAI.play(pos, "a1b1"), "a2b1")) == Result(
        Side.SECOND, RuleReason.CAPTURE
    )


def test_yokai_repetition_is_a_draw() -> None:
    pos = play_all(YOKAI, YOKAI.start(), SHUFFLE * 2)
    assert YOKAI.result(pos) == Result(None, RuleReason.REPETITION)


# ---- the order of endings ------------------------------------------------------------------------
def test_try_outranks_the_opponent_having_no_move() -> None:
    # After a3a4 second's lion on c4 has no square (b4, b3 by the lion, c3 by the giraffe):
    # the try the move makes comes first.
    pos = DOBUTSU.from_text("2l/L2/2G/3 f -")
    after = DOBUTSU.play(pos, "a3a4")
    assert DOBUTSU.result(after) == Result(Side.FIRST, RuleReason.TRY)
    assert DOBUTSU.legal_moves(after) == []


def test_no_legal_move_outranks_repetition() -> None:
    mate = "2l/1e1/h2/L2 f -"
    # A position's digest depends on board, hands and side only, the same under both rule
    # sets; under yokai this position goes on, so one move there shows its digest.
    digest = YOKAI.to_text(YOKAI.play(YOKAI.from_text(mate), "a1b1")).split(" ")[3]
    assert len(digest) == 8
    # control: with two earlier occurrences the yokai position (which has moves) is a draw
    assert YOKAI.result(YOKAI.from_text(f"{mate} {digest}{digest}")) == Result(
        None, RuleReason.REPETITION
    )
    # the dobutsu position has no move: checkmate, not repetition
    third = DOBUTSU.from_text(f"{mate} {digest}{digest}")
    assert DOBUTSU.result(third) == Result(Side.SECOND, RuleReason.CHECKMATE)


# ---- position strings ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        START,
        "gle/1C1/3/ELG s C",
        "2l/1e1/h2/L2 f GCe",
        "C1l/3/3/L2 s -",  # a dropped chick on its last rank
        "2l/3/C2/C1L f -",  # two chicks on one file
    ],
)
def test_position_strings_round_trip(text: str) -> None:
    assert DOBUTSU.to_text(DOBUTSU.from_text(text)) == text


@pytest.mark.parametrize(
    "text",
    [
        "",
        "gle/1c1/1C1/ELG",  # missing fields
        "gle/1c1/1C1/ELG f",
        "gle/1c1/1C1/ELG f - x y",
        "gle/1c1/1C1/ELG  f -",  # two spaces
        " gle/1c1/1C1/ELG f -",
        "gle/1c1/1C1/ELG f - ",
        "gle/1c1/1C1/ELG x -",  # side
        "gle/1c1/1C1/ELG F -",
        "gle/1c1/1C1 f -",  # 3 ranks
        "gle/1c1/1C1/ELG/3 f -",
        "gle/1c1/1C1/ELGG f -",  # rank too long
        "gle/1c1/1C1/EL f -",  # rank too short
        "gle/1c1/1C1/4 f -",
        "gle/1c1/1C1/EL0G f -",
        "gle/1c1/1C1/ELX f -",  # unknown piece
        "gle/1c1/1K1/ELG f -",
        "gle/1c1/1+C1/ELG f -",  # dobutsu has no '+'
        "g1e/1c1/1C1/ELG f -",  # second has no lion
        "gle/1c1/1C1/ELL f -",  # two first lions
        "gle/1c1/1C1/ELG f C",  # three chicks
        "gle/1c1/1C1/ELG f Cc",
        "gle/1c1/1H1/ELG f 2c",
        "2l/3/3/L2 f 3E",
        "2l/3/3/L2 f L",  # lions never go to hand
        "2l/3/3/L2 f H",  # hens go to hand as chicks
        "2l/3/3/L2 f 0C",
        "2l/3/3/L2 f CC",  # a letter twice
        "2l/3/3/L2 f x",
        "2l/3/3/L2 f --",
        "2l/3/3/L2 f - abc",  # history: 8 characters a digest
        "2l/3/3/L2 f - abcdefg!",
        "L2/3/3/2l f -",  # both lions on their zone
        "2l/3/1g1/1L1 s -",  # first just moved and left its lion capturable
    ],
)
def test_malformed_or_impossible_position_strings_are_refused(text: str) -> None:
    with pytest.raises(engine.InvalidPositionError) as err:
        DOBUTSU.from_text(text)
    assert err.value.code == "position.invalid"


@pytest.mark.parametrize("value", [None, 3, b"gle/1c1/1C1/ELG f -"])
def test_from_text_of_a_non_string(value: object) -> None:
    with pytest.raises(engine.InvalidPositionError):
        DOBUTSU.from_text(value)  # type: ignore[arg-type]


def test_position_strings_of_the_other_shogi_game_are_refused() -> None:
    gorogoro = engine.get_game("gorogoro")
    with pytest.raises(engine.InvalidPositionError):
        DOBUTSU.from_text(gorogoro.to_text(gorogoro.start()))


def test_position_values_of_the_other_shogi_game_are_refused() -> None:
    # Both games use one position class: a gorogoro position must still be refused with
    # InvalidPositionError, never crash inside the move generator.
    gorogoro = engine.get_game("gorogoro")
    for call in (DOBUTSU.legal_moves, DOBUTSU.result, DOBUTSU.to_text, DOBUTSU.side_to_move):
        with pytest.raises(engine.InvalidPositionError):
            call(gorogoro.start())
    with pytest.raises(engine.InvalidPositionError):
        DOBUTSU.play(gorogoro.start(), "b1b2")
    with pytest.raises(engine.InvalidPositionError):
        gorogoro.legal_moves(DOBUTSU.start())


# ---- move texts ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    ["hello", "B2B3", " b2b3", "b2b3 ", "b2-b3", "b2", "b2b3++", "b2b5", "d1d2", "a0a1",
     "c*a3", "C*a5", "C*d1", "C*a3+", "*a3", "Ca3", "b2b3=H", "P*a3X"],
)  # fmt: skip
def test_malformed_move_texts_are_invalid(text: str) -> None:
    with pytest.raises(engine.InvalidMoveError) as err:
        DOBUTSU.play(DOBUTSU.start(), text)
    assert err.value.code == "move.invalid"


@pytest.mark.parametrize("text", [None, 3, b"b2b3", ["b2b3"]])
def test_non_string_move_is_invalid(text: object) -> None:
    with pytest.raises(engine.InvalidMoveError):
        DOBUTSU.play(DOBUTSU.start(), text)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text", ["a1a1", "b2b3+", "b1b2", "a1b2", "c1c3", "C*a3", "E*a2", "L*a2", "H*a2"]
)
def test_well_formed_but_illegal_move_texts(text: str) -> None:
    assert_illegal(DOBUTSU, DOBUTSU.start(), text)


def test_drop_of_a_letter_that_is_no_dobutsu_piece_is_invalid() -> None:
    # rules/README.md: a drop is <PIECE>*<to>, PIECE an upper-case letter from the game's page
    # (L E G C H): "X*a2" is no dobutsu move text at all.
    for text in ("X*a2", "P*a2", "K*a2"):
        with pytest.raises(engine.InvalidMoveError):
            DOBUTSU.play(DOBUTSU.from_text("2l/3/3/L2 f C"), text)


def test_describe_names_both_piece_sets_and_the_zones() -> None:
    data = DOBUTSU.describe()
    assert data["start"] == START
    assert data["squares"]["promotion_zone"] == {
        "first": ["a4", "b4", "c4"],
        "second": ["a1", "b1", "c1"],
    }
    names = {p["letter"]: p["names"] for p in data["pieces"]}
    assert names["L"] == {"animals": "Lion", "yokai": "Koropokkuru"}
    assert names["H"] == {"animals": "Hen", "yokai": "Kodama samurai"}
    assert set(engine.describe("dobutsu")["piece_sets"]) == {"animals", "yokai"}
