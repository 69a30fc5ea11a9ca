"""Dou shou qi (jungle): one named test per rule and per Decision of rules/jungle.md.

Positions are set up with ``place("Ld5 rf5 …")``: a piece letter (upper case ``first``,
lower case ``second``) then its square, every other square empty.
"""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine import GameOverError, IllegalMoveError, InvalidMoveError, InvalidPositionError, Result
from engine.core import RuleReason, Side

START = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L f 0 -"
FILES = "abcdefg"


def place(pieces: str, side: str = "f", counters: str = "0 -") -> str:
    """The position string with ``pieces`` ("Ld5 rf5") on an empty board."""
    grid = [[""] * 7 for _ in range(9)]
    for token in pieces.split():
        grid[int(token[2]) - 1][FILES.index(token[1])] = token[0]
    rows = []
    for cells in reversed(grid):
        row, empty = "", 0
        for cell in cells:
            if cell:
                row += (str(empty) if empty else "") + cell
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    return f"{'/'.join(rows)} {side} {counters}"


def setup(pieces: str, side: str = "f", counters: str = "0 -", **options: str) -> tuple[Any, Any]:
    game = engine.get_game("jungle", **options)
    return game, game.from_text(place(pieces, side, counters))


def moves_from(game: Any, pos: Any, square: str) -> list[str]:
    return [m for m in game.legal_moves(pos) if m[:2] == square]


def assert_illegal(game: Any, pos: Any, *moves: str) -> None:
    legal = game.legal_moves(pos)
    for move in moves:
        assert move not in legal
        with pytest.raises(IllegalMoveError):
            game.play(pos, move)


def play_all(game: Any, pos: Any, moves: str) -> Any:
    for move in moves.split():
        assert game.result(pos) is None, game.to_text(pos)
        pos = game.play(pos, move)
    return pos


# ---- board, pieces, start -------------------------------------------------------------------
def test_board_is_7_files_by_9_ranks_with_dens_traps_and_lakes() -> None:
    data = engine.get_game("jungle").describe()
    assert data["board"] == {"files": 7, "ranks": 9}
    squares = data["squares"]
    assert squares["dens"] == {"first": "d1", "second": "d9"}
    assert sorted(squares["traps"]["first"]) == ["c1", "d2", "e1"]
    assert sorted(squares["traps"]["second"]) == ["c9", "d8", "e9"]
    assert sorted(squares["water"]) == sorted(
        ["b4", "c4", "b5", "c5", "b6", "c6", "e4", "f4", "e5", "f5", "e6", "f6"]
    )


def test_piece_letters_and_ranks() -> None:
    pieces = engine.get_game("jungle").describe()["pieces"]
    assert [(p["letter"], p["name"], p["rank"]) for p in pieces] == [
        ("E", "elephant", 8),
        ("L", "lion", 7),
        ("T", "tiger", 6),
        ("P", "leopard", 5),
        ("D", "dog", 4),
        ("W", "wolf", 3),
        ("C", "cat", 2),
        ("R", "rat", 1),
    ]


def test_dog_4_outranks_wolf_3() -> None:
    # Decision: dog 4 above wolf 3 (seed 002's list). The dog takes the wolf, not the reverse.
    game, pos = setup("Db8 wb7 Wf8 df7")
    assert moves_from(game, pos, "b8") == ["b8a8", "b8b7", "b8b9", "b8c8"]
    assert moves_from(game, pos, "f8") == ["f8e8", "f8f9", "f8g8"]
    assert_illegal(game, pos, "f8f7")
    game, pos = setup("Db8 wb7 Wf8 df7", side="s")
    assert "f7f8" in game.legal_moves(pos)
    assert_illegal(game, pos, "b7b8")


def test_start_position_matches_the_rules_page() -> None:
    game = engine.get_game("jungle")
    first = "Ta1 Lg1 Cb2 Df2 Ea3 Wc3 Pe3 Rg3"
    second = "tg9 la9 cf8 db8 eg7 we7 pc7 ra7"
    assert game.to_text(game.start()) == START == place(f"{first} {second}")
    assert game.side_to_move(game.start()) == "first"
    # second's set-up is the point reflection of first's
    for token in first.split():
        mirrored = FILES[6 - FILES.index(token[1])] + str(10 - int(token[2]))
        assert token[0].lower() + mirrored in second.split()


def test_start_legal_moves() -> None:
    # Tiger a1: a2 b1; lion g1: f1 g2; cat b2: a2 b1 b3 c2; dog f2: e2 f1 f3 g2;
    # elephant a3: a2 a4 b3; wolf c3: b3 c2 d3 (c4 is water); leopard e3: d3 e2 f3;
    # rat g3: f3 g2 g4. 24 moves.
    game = engine.get_game("jungle")
    assert game.legal_moves(game.start()) == [
        "a1a2", "a1b1", "a3a2", "a3a4", "a3b3", "b2a2", "b2b1", "b2b3", "b2c2", "c3b3",
        "c3c2", "c3d3", "e3d3", "e3e2", "e3f3", "f2e2", "f2f1", "f2f3", "f2g2", "g1f1",
        "g1g2", "g3f3", "g3g2", "g3g4",
    ]  # fmt: skip


def test_options_and_their_defaults() -> None:
    game = engine.get_game("jungle")
    assert game.options == {"traps": "any", "repetition": "draw"}
    options = {o["name"]: o["values"] for o in game.describe()["options"]}
    assert options == {"traps": ["any", "opponent"], "repetition": ["draw", "tiebreak"]}
    with pytest.raises(engine.InvalidOptionError):
        engine.get_game("jungle", repetition="tiebreaks")


def test_describe_weak_squares_follow_the_traps_option() -> None:
    weak = engine.get_game("jungle").describe()["weak_squares"]
    assert sorted(weak["first"]) == sorted(weak["second"]) == ["c1", "c9", "d2", "d8", "e1", "e9"]
    weak = engine.get_game("jungle", traps="opponent").describe()["weak_squares"]
    assert sorted(weak["first"]) == ["c9", "d8", "e9"]
    assert sorted(weak["second"]) == ["c1", "d2", "e1"]


# ---- moving ---------------------------------------------------------------------------------
def test_pieces_step_one_square_orthogonally_never_diagonally() -> None:
    game, pos = setup("Db8 ea1")
    assert game.legal_moves(pos) == ["b8a8", "b8b7", "b8b9", "b8c8"]
    assert_illegal(game, pos, "b8a7", "b8c7", "b8a9", "b8c9", "b8b6", "b8d8")


def test_cannot_move_onto_own_piece() -> None:
    game, pos = setup("Db8 Cb7 ea1")
    assert moves_from(game, pos, "b8") == ["b8a8", "b8b9", "b8c8"]
    assert_illegal(game, pos, "b8b7", "b7b8")


def test_no_piece_may_enter_its_own_den() -> None:
    game, pos = setup("Rc1 Pd2 Ee1 rc9 pd8 ee9")
    assert_illegal(game, pos, "c1d1", "d2d1", "e1d1")
    assert moves_from(game, pos, "c1") == ["c1b1", "c1c2"]
    game, pos = setup("Rc1 Pd2 Ee1 rc9 pd8 ee9", side="s")
    assert_illegal(game, pos, "c9d9", "d8d9", "e9d9")
    assert moves_from(game, pos, "d8") == ["d8c8", "d8d7", "d8e8"]


def test_only_the_rat_enters_water() -> None:
    game, pos = setup("Ea4 Pa6 Dd4 Wd6 Cg5 Rb3 ea9")
    assert_illegal(game, pos, "a4b4", "a6b6", "d4c4", "d4e4", "d6c6", "d6e6", "g5f5")
    assert moves_from(game, pos, "d4") == ["d4d3", "d4d5"]
    assert "b3b4" in game.legal_moves(pos)


def test_rat_moves_in_water_like_on_land() -> None:
    game, pos = setup("Rc5 ea9")
    assert game.legal_moves(pos) == ["c5b5", "c5c4", "c5c6", "c5d5"]
    game, pos = setup("Ea1 rf5", side="s")
    assert game.legal_moves(pos) == ["f5e5", "f5f4", "f5f6", "f5g5"]


def test_lion_and_tiger_jump_the_lake_along_a_file() -> None:
    game, pos = setup("Lb3 Tf7 ea9")
    assert moves_from(game, pos, "b3") == ["b3a3", "b3b2", "b3b7", "b3c3"]
    assert moves_from(game, pos, "f7") == ["f7e7", "f7f3", "f7f8", "f7g7"]
    game, pos = setup("La6 Ea9 tc3", side="s")
    assert moves_from(game, pos, "c3") == ["c3b3", "c3c2", "c3c7", "c3d3"]


def test_lion_and_tiger_jump_the_lake_along_a_rank() -> None:
    game, pos = setup("Ld5 Tg4 ea9")
    assert moves_from(game, pos, "d5") == ["d5a5", "d5d4", "d5d6", "d5g5"]
    assert moves_from(game, pos, "g4") == ["g4d4", "g4g3", "g4g5"]


def test_lake_jump_lands_on_the_first_land_square_beyond() -> None:
    game, pos = setup("Lb3 Ta5 ea9")
    assert_illegal(game, pos, "b3b4", "b3b5", "b3b6", "b3b8", "a5b5", "a5c5", "a5e5", "a5g5")
    assert "b3b7" in game.legal_moves(pos)
    assert "a5d5" in game.legal_moves(pos)


@pytest.mark.parametrize("water", ["b4", "b5", "b6"])
def test_lake_jump_blocked_by_own_rat(water: str) -> None:
    game, pos = setup(f"Lb3 R{water} ea9")
    assert moves_from(game, pos, "b3") == ["b3a3", "b3b2", "b3c3"]
    assert_illegal(game, pos, "b3b7")


@pytest.mark.parametrize("water", ["e5", "f5"])
def test_lake_jump_blocked_by_enemy_rat(water: str) -> None:
    game, pos = setup(f"Td5 r{water} ea9")
    assert moves_from(game, pos, "d5") == ["d5a5", "d5d4", "d5d6"]
    assert_illegal(game, pos, "d5g5")
    game, pos = setup(f"Ea1 tg5 R{water}", side="s")
    assert moves_from(game, pos, "g5") == ["g5g4", "g5g6"]
    assert_illegal(game, pos, "g5d5")


def test_rat_beside_the_jump_line_does_not_block() -> None:
    game, pos = setup("Lb3 rc5 Rc4 ea9")
    assert "b3b7" in game.legal_moves(pos)


def test_lake_jump_captures_an_equal_or_weaker_piece() -> None:
    game, pos = setup("Lb3 tb7 Tg4 pd4 ea9")
    assert "b3b7" in game.legal_moves(pos)
    assert "g4d4" in game.legal_moves(pos)
    game, pos = setup("Lb3 lb7 ea9")
    after = game.play(pos, "b3b7")
    assert game.to_text(after) == place("Lb7 ea9", "s", "0 f")


def test_lake_jump_cannot_land_on_a_stronger_or_own_piece() -> None:
    game, pos = setup("Lb3 eb7 Td5 Pg5 la9")
    assert_illegal(game, pos, "b3b7", "d5g5")
    game, pos = setup("Tb3 lb7 Ea9")
    assert_illegal(game, pos, "b3b7")


def test_only_lion_and_tiger_jump() -> None:
    game, pos = setup("Eb3 Pc3 De3 Wf3 Ca5 Rd5 la9")
    assert_illegal(game, pos, "b3b7", "c3c7", "e3e7", "f3f7", "a5d5", "d5a5", "d5g5")


def test_no_pass_and_no_drops() -> None:
    game, pos = setup("Ld5 rd6 ca9")
    for text in ("pass", "", "R*a3", "*a3", "d5d6+", "d5d6xd7"):
        with pytest.raises(InvalidMoveError):
            game.play(pos, text)
    after = game.play(pos, "d5d6")
    assert game.to_text(after) == place("Ld6 ca9", "s", "0 f")  # the rat has left the game
    assert all(game.MOVE_SYNTAX.fullmatch(m) for m in game.legal_moves(after))


def test_move_texts_are_from_and_to_squares() -> None:
    game = engine.get_game("jungle")
    pos = game.start()
    for text in ("a3-a4", "A3A4", "a0a1", "h1h2", "a3a4 ", "a3a10"):
        with pytest.raises(InvalidMoveError) as err:
            game.play(pos, text)
        assert repr(text) in str(err.value)
        assert START in str(err.value)
    for text in ("a3a5", "a1a1", "g7g6"):
        with pytest.raises(IllegalMoveError) as illegal:
            game.play(pos, text)
        assert repr(text) in str(illegal.value)
        assert START in str(illegal.value)


# ---- capturing ------------------------------------------------------------------------------
def test_capture_equal_or_lower_rank() -> None:
    game, pos = setup("Pb8 pb9 da8 wc8 lb7")
    assert moves_from(game, pos, "b8") == ["b8a8", "b8b9", "b8c8"]


def test_cannot_capture_higher_rank() -> None:
    game, pos = setup("Pb8 lb7 ea8 tc8 Wa1")
    assert moves_from(game, pos, "b8") == ["b8b9"]
    assert_illegal(game, pos, "b8b7", "b8a8", "b8c8")


@pytest.mark.parametrize("attacker", "ELTPDWCR")
@pytest.mark.parametrize("defender", "eltpdwcr")
def test_capture_table_on_land(attacker: str, defender: str) -> None:
    ranks = {"E": 8, "L": 7, "T": 6, "P": 5, "D": 4, "W": 3, "C": 2, "R": 1}
    a, d = ranks[attacker], ranks[defender.upper()]
    expected = (a >= d and not (a == 8 and d == 1)) or (a == 1 and d == 8)
    game, pos = setup(f"{attacker}b8 {defender}b7")
    assert ("b8b7" in game.legal_moves(pos)) is expected


def test_rat_captures_elephant_from_land() -> None:
    game, pos = setup("Ra3 ea4")
    assert "a3a4" in game.legal_moves(pos)
    game, pos = setup("Ed5 rd4", side="s")  # d4 is land between the lakes
    assert "d4d5" in game.legal_moves(pos)


def test_elephant_cannot_capture_rat() -> None:
    game, pos = setup("Ea4 ra3")
    assert moves_from(game, pos, "a4") == ["a4a5"]
    assert_illegal(game, pos, "a4a3")


def test_rat_in_water_cannot_capture_elephant() -> None:
    game, pos = setup("Rb5 ea5")
    assert moves_from(game, pos, "b5") == ["b5b4", "b5b6", "b5c5"]
    assert_illegal(game, pos, "b5a5")
    game, pos = setup("Eg5 rf5", side="s")
    assert_illegal(game, pos, "f5g5")


def test_rat_cannot_capture_pieces_above_it_other_than_the_elephant() -> None:
    game, pos = setup("Ra3 ca4 ea9")
    assert_illegal(game, pos, "a3a4")
    game, pos = setup("Rd5 ld6 ea9")
    assert_illegal(game, pos, "d5d6")


@pytest.mark.parametrize(
    ("rat", "enemy_rat"),
    [("b5", "c5"), ("c5", "d5"), ("d5", "c5"), ("d5", "d6")],
    ids=["water_to_water", "water_to_land", "land_to_water", "land_to_land"],
)
def test_rat_captures_rat_in_every_water_and_land_combination(rat: str, enemy_rat: str) -> None:
    game, pos = setup(f"R{rat} r{enemy_rat} ea9")
    assert rat + enemy_rat in game.legal_moves(pos)
    game, pos = setup(f"r{rat} R{enemy_rat} Ea9", side="s")
    assert rat + enemy_rat in game.legal_moves(pos)


def test_land_pieces_cannot_capture_a_rat_in_the_water() -> None:
    game, pos = setup("Ea5 Ld5 rb5 ea9")
    assert_illegal(game, pos, "a5b5", "d5c5", "d5a5")  # the rat also blocks the lion's jump
    assert moves_from(game, pos, "a5") == ["a5a4", "a5a6"]


# ---- traps ----------------------------------------------------------------------------------
def test_any_piece_captures_a_piece_on_a_trap() -> None:
    # The rat takes the lion standing on d2 (a trap) and the elephant standing on c9.
    game, pos = setup("Rd3 ld2 Cb9 ec9")
    assert "d3d2" in game.legal_moves(pos)
    assert "b9c9" in game.legal_moves(pos)


def test_elephant_captures_a_rat_on_a_trap() -> None:
    game, pos = setup("Ed3 rd2 ea9")
    assert "d3d2" in game.legal_moves(pos)
    game, pos = setup("Ed3 rd4 ea9")  # off the trap the exception holds
    assert_illegal(game, pos, "d3d4")


def test_piece_on_a_trap_attacks_with_its_own_rank() -> None:
    # The dog on d8 (an enemy trap) still takes the wolf (3) and the cat (2), not the leopard.
    game, pos = setup("Dd8 wd7 pc8 ce8")
    assert moves_from(game, pos, "d8") == ["d8d7", "d8d9", "d8e8"]
    assert_illegal(game, pos, "d8c8")
    # The rat on a trap still takes the elephant and nothing bigger than itself.
    game, pos = setup("Rc1 eb1 cc2")
    assert moves_from(game, pos, "c1") == ["c1b1"]


def test_piece_regains_its_rank_when_it_leaves_the_trap() -> None:
    game, pos = setup("Cc2 Rc3 ld2")
    assert "c2d2" in game.legal_moves(pos)  # the lion is weak on d2
    game, pos = setup("Cc2 Rc3 ld2", side="s")
    after = game.play(pos, "d2d3")
    assert_illegal(game, after, "c3d3")  # on d3 it is a lion again


def test_trap_option_any_weakens_on_every_trap() -> None:
    # A second piece on its own trap (d8) and a first piece on its own trap (d2) are weak:
    # a cat takes an elephant, a lion.
    game, pos = setup("Cd7 ed8 Ea1")
    assert "d7d8" in game.legal_moves(pos)
    game, pos = setup("Ld2 cd3 ea9", side="s")
    assert "d3d2" in game.legal_moves(pos)


def test_trap_option_opponent_only_weakens_in_enemy_traps() -> None:
    # On its own side's traps a piece keeps its rank ...
    game, pos = setup("Cd7 ed8 Ea1", traps="opponent")
    assert_illegal(game, pos, "d7d8")
    game, pos = setup("Ld2 cd3 ea9", side="s", traps="opponent")
    assert_illegal(game, pos, "d3d2")
    game, pos = setup("Wc1 cb1 ea9", side="s", traps="opponent")
    assert_illegal(game, pos, "b1c1")
    # ... and on the traps around its opponent's den it has rank 0.
    game, pos = setup("Rd3 ld2 Cb9 ec9", traps="opponent")
    assert "d3d2" in game.legal_moves(pos)
    assert_illegal(game, pos, "b9c9")
    game, pos = setup("Ld8 cd7 ea1", side="s", traps="opponent")
    assert "d7d8" in game.legal_moves(pos)


def test_trap_option_opponent_keeps_the_rat_elephant_exception_on_own_traps() -> None:
    game, pos = setup("Ed7 rd8 La1", traps="opponent")
    assert_illegal(game, pos, "d7d8")
    game, pos = setup("Ed7 rd8 La1")
    assert "d7d8" in game.legal_moves(pos)


# ---- end of the game ------------------------------------------------------------------------
def test_den_entry_wins() -> None:
    game, pos = setup("Cd8 ea1")
    after = game.play(pos, "d8d9")
    assert game.result(after) == Result(Side.FIRST, RuleReason.DEN)
    assert game.legal_moves(after) == []
    with pytest.raises(GameOverError) as err:
        game.play(after, "a1a2")
    assert err.value.code == "game.over"
    assert game.to_text(after) in str(err.value)


def test_den_entry_wins_for_second_too() -> None:
    game, pos = setup("Ea9 Rg1 le1", side="s")
    after = game.play(pos, "e1d1")
    assert game.result(after) == Result(Side.SECOND, RuleReason.DEN)
    assert game.to_text(after) == place("Ea9 Rg1 ld1", "f", "1 -") + " " + pos.digest


def test_capturing_the_last_enemy_piece_wins() -> None:
    game, pos = setup("Ld5 rd6")
    after = game.play(pos, "d5d6")
    assert game.result(after) == Result(Side.FIRST, RuleReason.NO_PIECES)
    assert game.legal_moves(after) == []
    assert game.to_text(after) == place("Ld6", "s", "0 f")


def test_side_with_no_legal_move_loses() -> None:
    game, pos = setup("La8 Tb9 ca9", side="s")
    assert game.legal_moves(pos) == []
    assert game.result(pos) == Result(Side.FIRST, RuleReason.NO_MOVES)
    game, pos = setup("La8 Tb9 ca9")
    assert game.result(pos) is None


CYCLE = "a1a2 g9g8 a2a1 g8g9 a1b1 g9f9 b1a1 f9g9"  # back to the set-up twice


def test_repetition_third_occurrence_is_a_draw() -> None:
    game, pos = setup("La1 lg9")
    second = play_all(game, pos, CYCLE[:19])
    assert game.to_text(second).split()[:2] == game.to_text(pos).split()[:2]  # board, side
    assert second.repetitions() == 2
    assert game.result(second) is None
    third = play_all(game, second, CYCLE[20:])
    assert third.repetitions() == 3
    assert game.result(third) == Result(None, RuleReason.REPETITION)
    assert game.legal_moves(third) == []


def test_repetition_is_remembered_through_the_position_string() -> None:
    game, pos = setup("La1 lg9")
    almost = play_all(game, pos, CYCLE[:-5])
    back = game.from_text(game.to_text(almost))
    assert back == almost
    assert game.result(game.play(back, "f9g9")) == Result(None, RuleReason.REPETITION)
    # the same board without its history is a first occurrence
    bare = game.from_text(" ".join(game.to_text(almost).split()[:4]))
    assert game.result(game.play(bare, "f9g9")) is None


def test_capture_clears_the_history() -> None:
    game, pos = setup("La1 lg9 rd6 Ed4")
    pos = play_all(game, pos, "a1a2 g9g8")
    assert len(pos.history) == 2
    after = game.play(pos, "d4d5")
    after = game.play(after, "d6d5")  # the rat takes the elephant: irreversible
    assert after.history == ()
    assert game.to_text(after) == place("La2 lg8 rd5", "f", "0 s")


def test_repetition_draw_option_ignores_the_totals() -> None:
    game, pos = setup("La1 lg9 rg1")
    assert game.result(play_all(game, pos, CYCLE)) == Result(None, RuleReason.REPETITION)


def test_repetition_tiebreak_larger_total_loses() -> None:
    game, pos = setup("La1 tg9", repetition="tiebreak")  # 7 against 6: first loses
    assert game.result(play_all(game, pos, CYCLE)) == Result(
        Side.SECOND, RuleReason.REPETITION_TIEBREAK
    )
    game, pos = setup("La1 lg9 rg1", repetition="tiebreak")  # 7 against 8: second loses
    assert game.result(play_all(game, pos, CYCLE)) == Result(
        Side.FIRST, RuleReason.REPETITION_TIEBREAK
    )


def test_repetition_tiebreak_counts_full_rank_on_a_trap() -> None:
    # second: tiger (6) on its trap e9 + lion (7) = 13 against first's 7 + 5 = 12.
    game, pos = setup("La1 Pa3 lg9 te9", repetition="tiebreak")
    assert game.result(play_all(game, pos, CYCLE)) == Result(
        Side.FIRST, RuleReason.REPETITION_TIEBREAK
    )


@pytest.mark.parametrize(("capturer", "winner"), [("f", "second"), ("s", "first")])
def test_repetition_tiebreak_equal_totals_last_capturer_loses(capturer: str, winner: str) -> None:
    game, pos = setup("La1 lg9", counters=f"10 {capturer}", repetition="tiebreak")
    end = play_all(game, pos, CYCLE)
    assert game.result(end) == Result(Side(winner), RuleReason.REPETITION_TIEBREAK)


def test_repetition_tiebreak_equal_totals_without_capture_is_a_draw() -> None:
    game, pos = setup("La1 lg9", repetition="tiebreak")
    assert game.result(play_all(game, pos, CYCLE)) == Result(None, RuleReason.REPETITION)


def test_no_progress_draw_after_100_plies_without_capture() -> None:
    game, pos = setup("Ld5 rd7 pa9", counters="98 -")
    pos = game.play(pos, "d5d4")
    assert pos.plies == 99
    assert game.result(pos) is None
    pos = game.play(pos, "a9a8")
    assert game.to_text(pos) == place("Ld4 rd7 pa8", "f", "100 -") + " " + "".join(pos.history)
    assert game.result(pos) == Result(None, RuleReason.NO_PROGRESS)
    assert game.legal_moves(pos) == []


def test_no_progress_counter_resets_on_capture() -> None:
    game, pos = setup("Ld5 rd6 pa9", counters="99 -")
    after = game.play(pos, "d5d6")
    assert (after.plies, after.capturer) == (0, 0)
    assert game.result(after) is None
    game = engine.get_game("jungle")
    pos = play_all(game, game.start(), "a3a4 g7g6 a4a5")
    assert game.to_text(pos).split()[1:4] == ["s", "3", "-"]


def test_den_entry_on_the_hundredth_ply_wins() -> None:
    game, pos = setup("Cd8 ea1", counters="99 -")
    after = game.play(pos, "d8d9")
    assert after.plies == 100
    assert game.result(after) == Result(Side.FIRST, RuleReason.DEN)


def test_no_legal_move_comes_before_no_progress() -> None:
    game, pos = setup("La8 Tb9 ca9", side="s", counters="100 -")
    assert game.result(pos) == Result(Side.FIRST, RuleReason.NO_MOVES)


def test_last_piece_captured_comes_before_repetition_and_no_progress() -> None:
    game, pos = setup("Ld5 rd6", counters="99 -")
    assert game.result(game.play(pos, "d5d6")) == Result(Side.FIRST, RuleReason.NO_PIECES)


# ---- position strings -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        START,
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L s 1 -",
        "7/7/7/7/d2L1rt/4R2/4T2/7/7 f 0 -",
        "7/3e3/3D3/7/7/7/3R3/3l3/1cW4 s 57 f",
        "3C3/7/7/7/7/7/7/7/e6 s 1 -",  # first has entered the den
        "7/7/7/7/3L3/7/7/7/7 s 0 f",  # second has lost its last piece
        "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L f 2 s AAAAAAAAbbbbbbbb",
    ],
)
def test_position_strings_round_trip(text: str) -> None:
    game = engine.get_game("jungle")
    pos = game.from_text(text)
    assert game.to_text(pos) == text
    assert game.from_text(game.to_text(pos)) == pos


def test_played_positions_round_trip_with_their_history() -> None:
    game = engine.get_game("jungle")
    pos = play_all(game, game.start(), "a3a4 g7g6 g3g4 g6g5 g4g5")
    text = game.to_text(pos)
    assert text == "l5t/1d3c1/r1p1w2/7/6R/E6/2W1P2/1C3D1/T5L s 0 f"  # the rat took the elephant
    pos = play_all(game, pos, "a7a6 a4a5")
    fields = game.to_text(pos).split()
    assert fields[1:4] == ["s", "2", "f"]
    assert len(fields[4]) == 16  # two earlier positions since the capture
    assert game.from_text(game.to_text(pos)) == pos
    assert game.result(game.from_text("3C3/7/7/7/7/7/7/7/e6 s 1 -")) == Result(
        Side.FIRST, RuleReason.DEN
    )
    assert game.result(game.from_text("7/7/7/7/3L3/7/7/7/7 s 0 f")) == Result(
        Side.FIRST, RuleReason.NO_PIECES
    )


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L f 0", "expected 4 fields"),
        (START + " AAAAAAAA x", "expected 4 fields"),
        (START.replace(" f ", "  f "), "one space"),
        ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1 f 0 -", "9 ranks, not 8"),
        ("l6t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L f 0 -", "8 squares"),
        ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T4L f 0 -", "6 squares"),
        ("l5t/1d3c1/r1p1w1x/7/7/7/E1W1P1R/1C3D1/T5L f 0 -", "unknown piece"),
        ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T0L5 f 0 -", "unknown piece"),
        ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T4LL f 0 -", "only one lion"),
        ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C1R1D1/T5L f 0 -", "only one rat"),
        ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/TC4L f 0 -", "only one cat"),
        ("l6/7/7/7/7/7/7/7/3C3 f 0 -", "own den d1"),
        ("3e3/7/7/7/7/7/7/7/L6 f 0 -", "own den d9"),
        ("l6/7/7/1E5/7/7/7/7/7 f 0 -", "in the water on b6"),
        ("l6/7/7/7/7/5t1/7/7/7 f 0 -", "in the water on f4"),
        (START.replace(" f 0 -", " x 0 -"), "side to move"),
        (START.replace(" f 0 -", " f 101 -"), "at most 100"),
        (START.replace(" f 0 -", " f 01 -"), "must be a number"),
        (START.replace(" f 0 -", " f -1 -"), "must be a number"),
        (START.replace(" f 0 -", " f 0 x"), "last capturer"),
        (START.replace(" f 0 -", " f 0 f"), "to move again"),
        (START + " AAAAAAAA", "1 earlier positions"),
        (START.replace(" f 0 -", " f 1 -") + " AAAA", "history field"),
        (START.replace("1d3c1", "\u0661d3c1"), "ASCII"),
        ("3C3/7/7/7/7/7/7/7/e6 f 1 -", "second must be to move"),
        ("3C3/7/7/7/7/7/7/7/e6 s 0 -", "cannot be 0"),
        ("3C3/7/7/7/7/7/7/7/3e3 s 1 -", "two ways"),
        ("7/7/7/7/3L3/7/7/7/7 f 3 -", "second must be to move"),
        ("7/7/7/7/3L3/7/7/7/7 s 3 f", "no piece left"),
        ("7/7/7/7/3L3/7/7/7/7 s 0 -", "no piece left"),
        ("7/7/7/7/7/7/7/7/7 f 0 -", "empty"),
    ],
)
def test_invalid_position_strings_are_refused(text: str, says: str) -> None:
    game = engine.get_game("jungle")
    with pytest.raises(InvalidPositionError) as err:
        game.from_text(text)
    assert err.value.code == "position.invalid"
    assert repr(text) in str(err.value)
    assert says in str(err.value)
