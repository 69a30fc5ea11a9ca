"""The rules of `gorogoro` (docs/rules/gorogoro.md, and dobutsu.md where it defers to it).

Every test starts from a set-up position string (``from_text``) and checks both sides of a
rule: the moves it allows are listed and play, the moves it forbids are not listed and
``play`` refuses them with ``IllegalMoveError``. Boards are written rank 6 first; ranks 1-2
are first's camp, 3-4 neutral, 5-6 second's camp. First's promotion zone is ranks 5-6,
second's ranks 1-2. Most positions put first's king on a1 and second's on e6, out of the way.
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine import Result
from engine.core import RuleReason, Side

GOROGORO = engine.get_game("gorogoro")
START = "sgkgs/5/1ppp1/1PPP1/5/SGKGS f -"
FILES = "abcde"
ALL_SQUARES = [f + r for r in "123456" for f in FILES]


# ---- helpers ---------------------------------------------------------------------------------
def setup(text: str) -> Any:
    return GOROGORO.from_text(text)


def legal(pos: Any) -> list[str]:
    return GOROGORO.legal_moves(pos)


def moves_from(pos: Any, square: str) -> list[str]:
    return [m for m in legal(pos) if m[:2] == square]


def drops(pos: Any, letter: str) -> list[str]:
    return [m for m in legal(pos) if m.startswith(letter + "*")]


def assert_illegal(pos: Any, *texts: str) -> None:
    moves = legal(pos)
    for text in texts:
        assert text not in moves, text
        with pytest.raises(engine.IllegalMoveError) as err:
            GOROGORO.play(pos, text)
        assert err.value.code == "move.illegal"


def play_all(pos: Any, moves: list[str]) -> Any:
    for move in moves:
        pos = GOROGORO.play(pos, move)
    return pos


def fields(pos: Any) -> list[str]:
    return GOROGORO.to_text(pos).split(" ")


def empty_squares(pos: Any) -> list[str]:
    """Empty squares, read off the board field."""
    rows = fields(pos)[0].split("/")
    empty = []
    for rank, row in zip(range(6, 0, -1), rows, strict=True):
        f = 0
        i = 0
        while i < len(row):
            if row[i].isdigit():
                for _ in range(int(row[i])):
                    empty.append(FILES[f] + str(rank))
                    f += 1
                i += 1
            else:
                i += 2 if row[i] == "+" else 1
                f += 1
    return empty


# ---- start -----------------------------------------------------------------------------------
def test_start_position_string_and_side() -> None:
    pos = GOROGORO.start()
    assert GOROGORO.to_text(pos) == START
    assert GOROGORO.from_text(START) == pos
    assert GOROGORO.side_to_move(pos) == "first"
    assert GOROGORO.result(pos) is None


def test_start_legal_moves_exactly() -> None:
    # silver a1: a2 b2; gold b1: a2 b2 c2; king c1: b2 c2 d2; gold d1: c2 d2 e2;
    # silver e1: d2 e2; pawns b3 c3 d3 take the pawns in front (rank 4: no zone) = 16.
    assert legal(GOROGORO.start()) == [
        "a1a2", "a1b2", "b1a2", "b1b2", "b1c2", "b3b4", "c1b2", "c1c2",
        "c1d2", "c3c4", "d1c2", "d1d2", "d1e2", "d3d4", "e1d2", "e1e2",
    ]  # fmt: skip
    assert_illegal(GOROGORO.start(), "b3b4+", "a1b1", "c1b1", "b1a1", "a1a3", "b3c4")


def test_start_second_players_replies_mirror_first_moves() -> None:
    # After b1b2 nothing of second's changed: the 16 mirrored moves.
    pos = GOROGORO.play(GOROGORO.start(), "b1b2")
    assert legal(pos) == [
        "a6a5", "a6b5", "b4b3", "b6a5", "b6b5", "b6c5", "c4c3", "c6b5",
        "c6c5", "c6d5", "d4d3", "d6c5", "d6d5", "d6e5", "e6d5", "e6e5",
    ]  # fmt: skip


def test_start_has_the_full_set() -> None:
    # 1 king, 2 golds, 2 silvers, 3 pawns each
    board = START.split(" ", maxsplit=1)[0]
    for letter, count in {"K": 1, "G": 2, "S": 2, "P": 3}.items():
        assert board.count(letter) == count
        assert board.count(letter.lower()) == count


# ---- each piece's movement --------------------------------------------------------------------
def test_king_moves_one_square_in_eight_directions() -> None:
    pos = setup("4k/5/5/2K2/5/5 f -")
    assert moves_from(pos, "c3") == [
        "c3b2", "c3b3", "c3b4", "c3c2", "c3c4", "c3d2", "c3d3", "c3d4",
    ]  # fmt: skip
    assert_illegal(pos, "c3c5", "c3a3", "c3e5")


def test_gold_moves_forward_forward_diagonals_sideways_and_straight_back() -> None:
    pos = setup("4k/5/5/2G2/5/K4 f -")
    assert moves_from(pos, "c3") == ["c3b3", "c3b4", "c3c2", "c3c4", "c3d3", "c3d4"]
    assert_illegal(pos, "c3b2", "c3d2", "c3b2+", "c3c5")


def test_silver_moves_forward_and_diagonally() -> None:
    pos = setup("4k/5/5/2S2/5/K4 f -")
    assert moves_from(pos, "c3") == ["c3b2", "c3b4", "c3c4", "c3d2", "c3d4"]
    assert_illegal(pos, "c3b3", "c3d3", "c3c2")


def test_pawn_moves_straight_forward_only() -> None:
    pos = setup("4k/5/1s3/2P2/5/K4 f -")  # an enemy silver on the pawn's diagonal b4
    assert moves_from(pos, "c3") == ["c3c4"]
    assert_illegal(pos, "c3b4", "c3d4", "c3b3", "c3c2", "c3c4+")


@pytest.mark.parametrize("piece", ["+S", "+P"])
def test_promoted_silver_and_pawn_move_like_a_gold(piece: str) -> None:
    pos = setup(f"4k/5/5/2{piece}2/5/K4 f -")
    assert moves_from(pos, "c3") == ["c3b3", "c3b4", "c3c2", "c3c4", "c3d3", "c3d4"]
    assert_illegal(pos, "c3b2", "c3d2")


def test_second_players_pieces_move_down_the_board() -> None:
    # second's gold c4: forward is c3, forward diagonals b3 d3, sideways b4 d4, back c5
    pos = setup("4k/5/2g2/5/5/K4 s -")
    assert moves_from(pos, "c4") == ["c4b3", "c4b4", "c4c3", "c4c5", "c4d3", "c4d4"]
    assert_illegal(pos, "c4b5", "c4d5")
    # second's silver c4: c3, b3, d3, and the back diagonals b5 d5
    pos = setup("4k/5/2s2/5/5/K4 s -")
    assert moves_from(pos, "c4") == ["c4b3", "c4b5", "c4c3", "c4d3", "c4d5"]
    # second's pawn c4: c3 only
    pos = setup("4k/5/2p2/5/5/K4 s -")
    assert moves_from(pos, "c4") == ["c4c3"]


def test_no_piece_moves_onto_its_own_side() -> None:
    assert_illegal(GOROGORO.start(), "b1a1", "b1c1", "c1b1", "c1d1", "d1c1", "d1e1")


# ---- promotion --------------------------------------------------------------------------------
def test_silver_entering_the_zone_may_promote_or_not() -> None:
    # silver c4: b5, c5, d5 enter the zone (both forms); b3, d3 do not (no '+').
    pos = setup("4k/5/2S2/5/5/K4 f -")
    assert moves_from(pos, "c4") == [
        "c4b3", "c4b5", "c4b5+", "c4c5", "c4c5+", "c4d3", "c4d5", "c4d5+",
    ]  # fmt: skip
    assert_illegal(pos, "c4b3+", "c4d3+")
    assert fields(GOROGORO.play(pos, "c4c5+"))[0] == "4k/2+S2/5/5/5/K4"
    assert fields(GOROGORO.play(pos, "c4c5"))[0] == "4k/2S2/5/5/5/K4"


def test_silver_leaving_or_moving_within_the_zone_may_promote() -> None:
    # silver c5 (in the zone): b4 d4 leave it, b6 c6 d6 stay in it: all in both forms.
    pos = setup("4k/2S2/5/5/5/K4 f -")
    assert moves_from(pos, "c5") == [
        "c5b4", "c5b4+", "c5b6", "c5b6+", "c5c6", "c5c6+", "c5d4", "c5d4+", "c5d6", "c5d6+",
    ]  # fmt: skip
    assert fields(GOROGORO.play(pos, "c5d4+"))[0] == "4k/5/3+S1/5/5/K4"


def test_silver_may_stay_unpromoted_on_the_last_rank_and_still_promote_later() -> None:
    pos = play_all(setup("4k/2S2/5/5/5/K4 f -"), ["c5c6", "e6e5"])
    assert fields(pos)[0] == "2S2/4k/5/5/5/K4"
    assert moves_from(pos, "c6") == ["c6b5", "c6b5+", "c6d5", "c6d5+"]


def test_silver_capture_into_the_zone_may_promote() -> None:
    pos = setup("4k/1p3/2S2/5/5/K4 f -")
    assert {"c4b5", "c4b5+"} <= set(legal(pos))
    after = GOROGORO.play(pos, "c4b5+")
    assert fields(after)[:3] == ["4k/1+S3/5/5/5/K4", "s", "P"]


def test_pawn_entering_the_zone_may_promote_or_not() -> None:
    pos = setup("4k/5/P4/5/5/K4 f -")
    assert moves_from(pos, "a4") == ["a4a5", "a4a5+"]
    assert fields(GOROGORO.play(pos, "a4a5"))[0] == "4k/P4/5/5/5/K4"
    assert fields(GOROGORO.play(pos, "a4a5+"))[0] == "4k/+P4/5/5/5/K4"


def test_pawn_capture_into_the_zone_may_promote_or_not() -> None:
    pos = setup("4k/s4/P4/5/5/K4 f -")
    assert moves_from(pos, "a4") == ["a4a5", "a4a5+"]


def test_pawn_reaching_the_last_rank_must_promote() -> None:
    pos = setup("4k/P4/5/5/5/K4 f -")
    assert moves_from(pos, "a5") == ["a5a6+"]
    assert_illegal(pos, "a5a6")
    assert fields(GOROGORO.play(pos, "a5a6+"))[0] == "+P3k/5/5/5/5/K4"


def test_pawn_capturing_onto_the_last_rank_must_promote() -> None:
    pos = setup("s3k/P4/5/5/5/K4 f -")
    assert moves_from(pos, "a5") == ["a5a6+"]
    assert_illegal(pos, "a5a6")
    assert fields(GOROGORO.play(pos, "a5a6+"))[:3] == ["+P3k/5/5/5/5/K4", "s", "S"]


def test_pawn_outside_the_zone_does_not_promote() -> None:
    pos = setup("4k/5/5/P4/5/K4 f -")
    assert moves_from(pos, "a3") == ["a3a4"]
    assert_illegal(pos, "a3a4+")


def test_second_players_promotions_are_on_ranks_two_and_one() -> None:
    pos = setup("4k/5/5/2s2/5/K4 s -")
    assert moves_from(pos, "c3") == [
        "c3b2", "c3b2+", "c3b4", "c3c2", "c3c2+", "c3d2", "c3d2+", "c3d4",
    ]  # fmt: skip
    pos = setup("4k/5/5/5/2p2/K4 s -")
    assert moves_from(pos, "c2") == ["c2c1+"]
    assert_illegal(pos, "c2c1")
    pos = setup("4k/5/5/2p2/5/K4 s -")
    assert moves_from(pos, "c3") == ["c3c2", "c3c2+"]


def test_gold_king_and_promoted_pieces_never_promote() -> None:
    pos = setup("4k/5/2G2/5/5/K4 f -")
    assert moves_from(pos, "c4") == ["c4b4", "c4b5", "c4c3", "c4c5", "c4d4", "c4d5"]
    assert_illegal(pos, "c4c5+", "c4b5+")
    pos = setup("4k/2+S2/5/5/5/K4 f -")
    assert moves_from(pos, "c5") == ["c5b5", "c5b6", "c5c4", "c5c6", "c5d5", "c5d6"]
    assert_illegal(pos, "c5c6+", "c5c4+")
    pos = setup("4k/+P4/5/5/5/K4 f -")
    assert_illegal(pos, "a5a6+")
    pos = setup("4k/K4/5/5/5/5 f -")
    assert_illegal(pos, "a5a6+")


# ---- captures ---------------------------------------------------------------------------------
def test_capture_goes_to_hand() -> None:
    pos = setup("4k/5/5/2g2/2G2/K4 f -")
    after = GOROGORO.play(pos, "c2c3")
    assert fields(after)[:3] == ["4k/5/5/2G2/5/K4", "s", "G"]


@pytest.mark.parametrize(("piece", "hand"), [("+s", "S"), ("+p", "P")])
def test_captured_promoted_piece_goes_to_hand_unpromoted(piece: str, hand: str) -> None:
    pos = setup(f"4k/5/5/2{piece}2/2G2/K4 f -")
    after = GOROGORO.play(pos, "c2c3")
    assert fields(after)[2] == hand
    after = GOROGORO.play(after, "e6e5")
    assert f"{hand}*b3" in legal(after)
    assert fields(GOROGORO.play(after, f"{hand}*b3"))[0] == f"5/4k/5/1{hand}G2/5/K4"


def test_second_player_captures_go_to_second_hand() -> None:
    pos = setup("4k/5/2+s2/2+P2/5/K4 s -")
    after = GOROGORO.play(pos, "c4c3")
    assert fields(after)[:3] == ["4k/5/5/2+s2/5/K4", "f", "p"]


def test_hands_are_written_first_then_second_in_table_order() -> None:
    text = "4k/5/5/5/5/K4 f G2SPg2p"
    assert GOROGORO.to_text(setup(text)) == text


# ---- drops ------------------------------------------------------------------------------------
@pytest.mark.parametrize("letter", ["G", "S"])
def test_gold_and_silver_drop_on_any_empty_square(letter: str) -> None:
    pos = setup(f"4k/5/5/5/5/K4 f {letter}")
    assert drops(pos, letter) == sorted(f"{letter}*{sq}" for sq in empty_squares(pos))
    assert f"{letter}*c6" in legal(pos)  # the last rank too: they can still move from there
    assert_illegal(pos, f"{letter}*a1", f"{letter}*e6")


def test_dropped_pieces_are_unpromoted_even_in_the_zone() -> None:
    pos = setup("4k/5/5/5/5/K4 f SP")
    after = GOROGORO.play(pos, "S*c5")
    assert fields(after)[0] == "4k/2S2/5/5/5/K4"
    after = GOROGORO.play(pos, "P*c5")
    assert fields(after)[0] == "4k/2P2/5/5/5/K4"
    # the dropped pawn promotes only by moving: then it must (last rank)
    after = GOROGORO.play(after, "e6e5")
    assert moves_from(after, "c5") == ["c5c6+"]


def test_no_pawn_drop_on_the_last_rank() -> None:
    pos = setup("4k/5/5/5/5/K4 f P")
    assert drops(pos, "P") == sorted(f"P*{sq}" for sq in empty_squares(pos) if not sq.endswith("6"))
    assert_illegal(pos, "P*a6", "P*b6", "P*c6", "P*d6")
    assert "P*c5" in legal(pos)  # the zone is fine, only the last rank is not


def test_second_player_drops_no_pawn_on_rank_one() -> None:
    pos = setup("4k/5/5/5/5/K4 s p")
    assert drops(pos, "P") == sorted(f"P*{sq}" for sq in empty_squares(pos) if not sq.endswith("1"))
    assert_illegal(pos, "P*b1", "P*e1")
    assert fields(GOROGORO.play(pos, "P*c2"))[0] == "4k/5/5/5/2p2/K4"


def test_nifu_no_pawn_drop_on_a_file_with_an_own_unpromoted_pawn() -> None:
    pos = setup("4k/5/5/2P2/5/K4 f P")
    assert drops(pos, "P") == sorted(
        f"P*{sq}" for sq in empty_squares(pos) if sq[0] != "c" and sq[1] != "6"
    )
    assert_illegal(pos, "P*c1", "P*c2", "P*c4", "P*c5")


def test_nifu_a_promoted_pawn_does_not_count() -> None:
    pos = setup("4k/5/5/2+P2/5/K4 f P")
    assert {"P*c1", "P*c2", "P*c4", "P*c5"} <= set(legal(pos))
    assert fields(GOROGORO.play(pos, "P*c4"))[0] == "4k/5/2P2/2+P2/5/K4"


def test_nifu_the_opponents_pawn_does_not_count() -> None:
    pos = setup("4k/5/2p2/5/5/K4 f P")
    assert {"P*c2", "P*c3", "P*c5"} <= set(legal(pos))


def test_second_players_nifu() -> None:
    pos = setup("4k/5/2p2/5/5/K4 s p")
    assert [m for m in drops(pos, "P") if m[2] == "c"] == []
    assert "P*b3" in legal(pos)


def test_uchifuzume_a_pawn_drop_that_mates_is_illegal() -> None:
    # P*a5 would attack the king a6; a5 is defended by the gold b4, b5 is guarded by it, b6
    # holds second's own pawn: checkmate by a pawn drop, so the drop is illegal.
    pos = setup("kp3/5/1G3/5/5/4K f P")
    assert_illegal(pos, "P*a5")
    assert "P*a4" in legal(pos) and "P*c5" in legal(pos)  # other pawn drops are fine


def test_uchifuzume_a_pawn_drop_that_checks_without_mate_is_legal() -> None:
    # Same, but the gold on c4 does not defend a5: the king can take the pawn.
    pos = setup("kp3/5/2G2/5/5/4K f P")
    after = GOROGORO.play(pos, "P*a5")
    assert GOROGORO.result(after) is None
    assert legal(after) == ["a6a5"]  # in check: b5 is guarded, the pawn b6 cannot help


def test_uchifuzume_a_pawn_drop_another_piece_can_capture_is_legal() -> None:
    # The pawn is defended, but second's silver b6 can take it.
    pos = setup("ks3/5/1G3/5/5/4K f P")
    after = GOROGORO.play(pos, "P*a5")
    assert GOROGORO.result(after) is None
    assert legal(after) == ["b6a5"]  # a5 is outside second's zone: no promotion


def test_checkmate_by_a_pawn_move_is_fine() -> None:
    pos = setup("kp3/5/PG3/5/5/4K f -")
    assert {"a4a5", "a4a5+"} <= set(legal(pos))
    after = GOROGORO.play(pos, "a4a5")
    assert GOROGORO.result(after) == Result(Side.FIRST, RuleReason.CHECKMATE)


def test_checkmate_by_a_non_pawn_drop_is_fine() -> None:
    pos = setup("kp3/5/1G3/5/5/4K f G")
    after = GOROGORO.play(pos, "G*a5")
    assert GOROGORO.result(after) == Result(Side.FIRST, RuleReason.CHECKMATE)


def test_second_players_uchifuzume() -> None:
    # The mirror image: the drop p on e2 would mate first's king on e1.
    pos = setup("k4/5/5/3g1/5/3PK s p")
    assert_illegal(pos, "P*e2")
    assert "P*e3" in legal(pos)


# ---- legality, check ----------------------------------------------------------------------------
def test_king_cannot_move_onto_an_attacked_square() -> None:
    # Second's gold c3 guards b2, c2, d2 (forward = down), b3, d3 and c4.
    pos = setup("4k/5/5/2g2/5/2K2 f -")
    assert moves_from(pos, "c1") == ["c1b1", "c1d1"]
    assert_illegal(pos, "c1b2", "c1c2", "c1d2")


def test_in_check_only_capturing_the_checker_or_moving_the_king_is_legal() -> None:
    # Second's gold b2 gives check to a1 (a2 and b1 are guarded by it): the king or the gold
    # c1 may take it; the pawn move and drops (nothing can be blocked) are illegal.
    pos = setup("4k/5/5/P4/1g3/K1G2 f P")
    assert legal(pos) == ["a1b2", "c1b2"]
    assert_illegal(pos, "a3a4", "a1a2", "a1b1", "c1c2", "P*b1", "P*e3")


def test_a_position_with_the_mover_in_check_is_refused() -> None:
    with pytest.raises(engine.InvalidPositionError):
        setup("4k/4G/5/5/5/K4 f -")  # second just moved, its king capturable


# ---- endings -------------------------------------------------------------------------------------
def test_only_checkmate_wins_a_king_on_the_last_rank_does_not() -> None:
    pos = setup("4k/K4/5/5/5/5 f -")
    after = GOROGORO.play(pos, "a5a6")
    assert GOROGORO.result(after) is None
    assert legal(after)
    assert GOROGORO.result(setup("K3k/5/5/5/5/5 s -")) is None
    assert GOROGORO.result(setup("K3k/5/5/5/5/5 f -")) is None


def test_checkmate_loses() -> None:
    # The promoted silver b5 (defended by the gold b4) attacks a6; b6 and a5 are guarded.
    pos = setup("k4/1+S3/1G3/5/5/4K s -")
    assert legal(pos) == []
    assert GOROGORO.result(pos) == Result(Side.FIRST, RuleReason.CHECKMATE)
    with pytest.raises(engine.GameOverError) as err:
        GOROGORO.play(pos, "a6a5")
    assert err.value.code == "game.over"


def test_checkmate_with_pieces_in_hand_still_loses() -> None:
    pos = setup("k4/1+S3/1G3/5/5/4K s gp")
    assert GOROGORO.result(pos) == Result(Side.FIRST, RuleReason.CHECKMATE)


def test_no_legal_move_without_check_loses_by_no_moves() -> None:
    # Second's king a6 is not attacked, but a5, b5 (gold b4) and b6 (silver c5) are.
    pos = setup("k4/2S2/1G3/5/5/4K s -")
    assert legal(pos) == []
    assert GOROGORO.result(pos) == Result(Side.FIRST, RuleReason.NO_MOVES)
    assert GOROGORO.result(setup("k4/2S2/1G3/5/5/4K s p")) is None  # a drop is a move


SHUFFLE = ["b1b2", "b6b5", "b2b1", "b5b6"]


def test_threefold_repetition_is_a_draw() -> None:
    pos = play_all(GOROGORO.start(), SHUFFLE)
    assert GOROGORO.result(pos) is None  # the start, second time
    pos = play_all(pos, SHUFFLE[:3])
    text = GOROGORO.to_text(pos)
    pos = GOROGORO.from_text(text)  # the history survives the round trip
    assert GOROGORO.to_text(pos) == text
    pos = GOROGORO.play(pos, SHUFFLE[3])
    assert GOROGORO.result(pos) == Result(None, RuleReason.REPETITION)
    assert legal(pos) == []


def test_repetition_counts_non_consecutive_occurrences() -> None:
    pos = play_all(GOROGORO.start(), SHUFFLE)
    pos = play_all(pos, ["d1d2", "d6d5", "d2d1"])
    assert GOROGORO.result(pos) is None
    pos = GOROGORO.play(pos, "d5d6")
    assert GOROGORO.result(pos) == Result(None, RuleReason.REPETITION)


# ---- position strings ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        START,
        "4k/5/5/2+P2/2P2/K4 f P",  # a pawn and a promoted pawn on one file
        "4k/+p4/5/5/5/+PK3 s 2SPg",
        "2S2/4k/5/5/5/K4 s -",  # an unpromoted silver on the last rank
        "4k/5/5/5/5/K4 f 2G2S3P3p",
    ],
)
def test_position_strings_round_trip(text: str) -> None:
    assert GOROGORO.to_text(GOROGORO.from_text(text)) == text


@pytest.mark.parametrize(
    "text",
    [
        "",
        "sgkgs/5/1ppp1/1PPP1/5/SGKGS",
        "sgkgs/5/1ppp1/1PPP1/5 f -",  # 5 ranks
        "sgkgs/5/1ppp1/1PPP1/5/SGKGS/5 f -",
        "sgkgs/5/1ppp1/1PPP1/5/SGKGSS f -",
        "sgkgs/5/1ppp1/1PPP1/5/SGKG f -",
        "sgkgs/5/1ppp1/1PPP1/5/SGKGS x -",
        "sgkgs/5/1ppp1/1PPP1/5/SGKGL f -",  # a dobutsu letter
        "4k/5/5/5/5/+K4 f -",  # no promoted king
        "4k/5/5/2+G2/5/K4 f -",  # no promoted gold
        "4k/5/5/2++P2/5/K4 f -",
        "4k/5/5/2+2/5/K4 f -",
        "4k/5/5/5/5/5 f -",  # no first king
        "k3k/5/5/5/5/K4 f -",
        "P3k/5/5/5/5/K4 f -",  # an unpromoted pawn on its last rank
        "4k/5/5/5/5/K3p f -",
        "4k/5/2P2/2P2/5/K4 f -",  # nifu on the board
        "4k/5/2p2/5/2p2/K4 f -",
        "4k/5/5/5/5/K4 f 7P",  # the set has 6 pawns
        "sgkgs/5/1ppp1/1PPP1/5/SGKGS f P",
        "4k/5/5/5/5/K4 f 3G2g",  # the set has 4 golds and 4 silvers
        "4k/5/5/5/5/K4 f 2G2S3g",
        "4k/5/5/5/5/K4 f +P",  # hands hold unpromoted pieces
        "4k/5/5/5/5/K4 f K",
        "4k/5/5/5/5/K4 f PP",
        "4k/5/5/5/5/K4 f 0P",
        "4k/5/5/5/5/K4 f - abcdefg",
        "4k/4G/5/5/5/K4 f -",  # second left its king capturable
    ],
)
def test_malformed_or_impossible_position_strings_are_refused(text: str) -> None:
    with pytest.raises(engine.InvalidPositionError) as err:
        GOROGORO.from_text(text)
    assert err.value.code == "position.invalid"


# ---- options and move texts ------------------------------------------------------------------
def test_gorogoro_has_no_rule_option() -> None:
    assert GOROGORO.options == {}
    assert GOROGORO.describe()["options"] == []
    for options in ({"ruleset": "yokai"}, {"ruleset": "dobutsu"}, {"try": "on"}):
        with pytest.raises(engine.InvalidOptionError) as err:
            engine.get_game("gorogoro", **options)
        assert err.value.code == "option.invalid"


def test_describe_zones_and_camps() -> None:
    data = GOROGORO.describe()
    assert data["start"] == START
    zones = data["squares"]["promotion_zone"]
    assert zones["first"] == [sq for sq in ALL_SQUARES if sq[1] in "56"]
    assert zones["second"] == [sq for sq in ALL_SQUARES if sq[1] in "12"]
    assert data["squares"]["camps"]["first"] == zones["second"]


def test_describe_names_the_official_animals_and_the_yokai() -> None:
    # ごろごろどうぶつしょうぎ's pieces (the default pictures), then Yōkaï no Mori's.
    names = {p["letter"]: p["names"] for p in GOROGORO.describe()["pieces"]}
    assert {letter: n["animals"] for letter, n in names.items()} == {
        "K": "Lion",
        "G": "Dog",
        "S": "Cat",
        "P": "Chick",
        "+S": "Power-up cat",
        "+P": "Hen",
    }
    assert names["K"]["yokai"] == "Koropokkuru" and names["+S"]["yokai"] == "Super oni"
    assert all(set(n) == {"animals", "yokai"} for n in names.values())
    assert engine.describe("gorogoro")["piece_sets"][0] == "animals"


@pytest.mark.parametrize(
    "text",
    ["hello", "B1B2", "b1b2 ", "b1b7", "f1f2", "a0a1", "b3b4++", "p*a3", "P*a7", "P*f3",
     "+P*a3", "P*a3+", "S*a3=", "*a3", "b1-b2", "b3b4="],
)  # fmt: skip
def test_malformed_move_texts_are_invalid(text: str) -> None:
    with pytest.raises(engine.InvalidMoveError) as err:
        GOROGORO.play(GOROGORO.start(), text)
    assert err.value.code == "move.invalid"


@pytest.mark.parametrize("text", ["a1a1", "b3b4+", "b1b3", "c1c2+", "P*a3", "G*a2", "K*a2"])
def test_well_formed_but_illegal_move_texts(text: str) -> None:
    assert_illegal(GOROGORO.start(), text)


def test_drop_of_a_letter_that_is_no_gorogoro_piece_is_invalid() -> None:
    # rules/README.md: a drop is <PIECE>*<to>, PIECE an upper-case letter from the game's page
    # (K G S P): "X*a2" and dobutsu's "C*a2" are no gorogoro move texts at all.
    pos = setup("4k/5/5/5/5/K4 f P")
    for text in ("X*a2", "C*a2", "L*a2"):
        with pytest.raises(engine.InvalidMoveError):
            GOROGORO.play(pos, text)
