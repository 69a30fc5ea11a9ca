"""Perft counts for jungle: the number of move sequences of each length.

Depth 1 and 2 were counted by hand (the counts are in the comments); deeper counts were
checked against a separate, naive move generator written from rules/jungle.md.
"""

from __future__ import annotations

import pytest

import engine

from .perft import perft

START = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L f 0 -"

# Start. Depth 1, first: tiger a1: a2 b1; lion g1: f1 g2; cat b2: a2 b1 b3 c2;
# dog f2: e2 f1 f3 g2; elephant a3: a2 a4 b3; wolf c3: b3 c2 d3 (c4 is water);
# leopard e3: d3 e2 f3; rat g3: f3 g2 g4 -> 2+2+4+4+3+3+3+3 = 24.
# Depth 2: second has the mirror 24 moves whatever first played (no first piece gets
# past rank 4, no second piece below rank 6, no jumps yet) -> 24 * 24 = 576.
START_COUNTS = [24, 576, 12_240, 260_099]

# Lake jumps with rats in the way: first L d5, R e4 (water), T e3; second d a5, r f5
# (water), t g5.
#   Depth 1: lion d5: d4 d6, jump to a5 taking the dog (c5 b5 free), no jump to g5 (second's
#   rat on f5); tiger e3: d3 e2 f3, no jump to e7 (its own rat on e4); rat e4: d4 e5 f4 (e3 is
#   its tiger) -> 3+3+3 = 9.
#   Depth 2, second's replies: rat f5: e5 f4 f6 (takes the rat there if it came: rat takes
#   rat in the water); tiger g5: g4 g6, no jump to d5 (its own rat on f5); dog a5: a4 a6
#   -> 7 after each of the 8 moves that leave the dog, 5 after d5a5 -> 8*7 + 5 = 61.
JUMPS = "7/7/7/7/d2L1rt/4R2/4T2/7/7 f 0 -"
JUMPS_COUNTS = [9, 61, 598, 4_468]

# Traps: first R d3, W c1 (first's own trap), D d7; second l d2 (first's trap), c b1,
# e d8 (second's own trap).
#   traps=any, depth 1: rat d3: c3 d4 e3 and d2 taking the lion on the trap; wolf c1: b1
#   (takes the cat), c2, not d1 (own den); dog d7: c7 d6 e7 and d8 taking the elephant
#   on the trap -> 4+2+4 = 10.
#   Depth 2, second's replies: lion d2: d1 (den), d3 (takes the rat if there), c2, e2 -> 4;
#   cat b1: a1 b2 c1 (takes the wolf on its trap, or steps there) -> 3; elephant d8: c8 e8 d7
#   (takes the dog, or steps there), not d9 -> 3. So 10 after each move, except
#   d3d2 (lion gone) 6, c1b1 (cat gone) 7, d7d8 (elephant gone) 7
#   -> 7*10 + 6 + 7 + 7 = 90.
#   traps=opponent, depth 1: the elephant on its own trap d8 keeps its rank -> 9.
#   Depth 2: the cat cannot take the wolf on first's own trap c1 -> cat 2 replies, 3 once
#   the wolf left c1. d3d4 d3c3 d3e3 d7d6 d7c7 d7e7: 4+2+3 = 9 each; d3d2: 2+3 = 5;
#   c1c2: 4+3+3 = 10; c1b1: 4+3 = 7 -> 6*9 + 5 + 10 + 7 = 76.
TRAPS = "7/3e3/3D3/7/7/7/3R3/3l3/1cW4 f 0 -"
TRAPS_COUNTS = [10, 90, 707, 6_326]
TRAPS_OPPONENT_COUNTS = [9, 76, 577, 5_157]

# Den entries and the rat/elephant exceptions: first C d8 (trap next to second's den),
# E a5, R a3; second w e9, e a4, r b5 (water).
#   Depth 1: cat d8: d9 (den), c8 d7 e8; rat a3: a4 (takes the elephant from land), a2 b3;
#   elephant a5: a4 (takes the elephant), a6, not b5 (water, rat) -> 4+3+2 = 9.
#   Depth 2, second's replies: wolf e9: f9 e8, not d9 (own den) -> 2; elephant a4: a5
#   (takes the elephant), a3 only when the rat left it (it cannot take the rat), not b4
#   (water) -> 1 or 2; rat b5: b4 b6 c5, a5 only when the elephant left it (a rat in the
#   water cannot take the elephant) -> 3 or 4. After d8d9 the game is over: 0.
#   d8c8 d8d7 d8e8: 2+1+3 = 6 each; a3a4: 2+3 = 5; a3a2 a3b3: 2+2+3 = 7 each;
#   a5a4: 2+4 = 6; a5a6: 2+1+4 = 7 -> 0 + 18 + 5 + 14 + 6 + 7 = 50.
DENS = "4w2/3C3/7/7/Er5/e6/R6/7/7 f 0 -"
DENS_COUNTS = [9, 50, 414, 2_664]


@pytest.mark.parametrize(
    ("text", "options", "counts"),
    [
        (START, {}, START_COUNTS),
        (JUMPS, {}, JUMPS_COUNTS),
        (TRAPS, {}, TRAPS_COUNTS),
        (TRAPS, {"traps": "opponent"}, TRAPS_OPPONENT_COUNTS),
        (DENS, {}, DENS_COUNTS),
    ],
    ids=["start", "lake_jumps", "traps_any", "traps_opponent", "den_entries"],
)
def test_perft(text: str, options: dict[str, str], counts: list[int]) -> None:
    game = engine.get_game("jungle", **options)
    pos = game.from_text(text)
    assert [perft(game, pos, depth) for depth in range(1, len(counts) + 1)] == counts


def test_hand_counted_depth_1_moves() -> None:
    game = engine.get_game("jungle")
    pos = game.from_text(JUMPS)
    assert game.legal_moves(pos) == [
        "d5a5", "d5d4", "d5d6", "e3d3", "e3e2", "e3f3", "e4d4", "e4e5", "e4f4",
    ]  # fmt: skip
    pos = game.from_text(DENS)
    assert game.legal_moves(pos) == [
        "a3a2", "a3a4", "a3b3", "a5a4", "a5a6", "d8c8", "d8d7", "d8d9", "d8e8",
    ]  # fmt: skip
    pos = game.from_text(TRAPS)
    assert game.legal_moves(pos) == [
        "c1b1", "c1c2", "d3c3", "d3d2", "d3d4", "d3e3", "d7c7", "d7d6", "d7d8", "d7e7",
    ]  # fmt: skip
    game = engine.get_game("jungle", traps="opponent")
    assert "d7d8" not in game.legal_moves(game.from_text(TRAPS))
