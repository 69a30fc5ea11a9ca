"""Perft counts for yote: the number of move sequences of each length.

Depth 1 and 2 were counted by hand (the counts are in the comments); deeper counts were
checked against a separate, naive move generator written from rules/yote.md.
"""

from __future__ import annotations

import pytest

import engine

from .perft import perft

START = "6/6/6/6/6 f 12 12 - - 0"

# Start. Depth 1: 30 placements. Depth 2: second places on one of the 29 others: 30 * 29.
# Depth 3: first has 28 placements, plus the steps of its stone a (to every neighbour but
# second's stone b) and one jump when b is next to a with a square beyond (no second
# removal: b was second's only stone). Over the 870 (a, b): 870 * 28 + (29 - 1) * 98
# (98 = sum of the neighbour counts, twice the 49 edges) + 76 jumps = 27_180.
START_COUNTS = [30, 870, 27_180, 823_848]

# Double removal. first: c3; second: a5, c4, d2, f1; no stones in hand.
#   Depth 1: c3 steps to b3 d3 c2 (c4 is taken); c3 jumps c4 to c5 and removes a5, d2 or
#   f1 -> 3 + 3 = 6.
#   Depth 2, second's replies: after c3b3: a5 2 (a4 b5), c4 4 (c5 b4 d4 c3), d2 4, f1 2 ->
#   12; after c3d3: d2 d3 is taken, but d2 jumps d3 to d4 (first has no stone left: no
#   second removal) -> 2 + 4 + 3 + 1 + 2 = 12; after c3c2: d2 jumps c2 to b2 -> 2 + 4 + 4 +
#   2 = 12; after c3c5xa5: d2 4, f1 2 = 6; xd2: a5 2, f1 2 = 4; xf1: a5 2, d2 4 = 6.
#   12 * 3 + 6 + 4 + 6 = 52.
DOUBLE = "s5/2s3/2S3/3s2/5s f 0 0 - - 0"
DOUBLE_COUNTS = [6, 52, 195, 1_480, 4_481, 34_948]

# No second removal. first: c2; second: c3 and 3 stones in hand.
#   Depth 1: c2 steps to b2 d2 c1; jumps c3 to c4 with no removal (second has no other
#   stone on the board) -> 4.
#   Depth 2: after a step, second places on 28 squares and steps c3 to c4 b3 d3 (and c2 now
#   empty) -> 32, three times; after c2c4, second has only placements: 29 -> 96 + 29 = 125.
NO_SECOND = "6/6/2s3/2S3/6 f 0 3 - - 0"
NO_SECOND_COUNTS = [4, 125, 373, 12_187, 32_349]

# Take-back. first: c2 (stepped from c3) and 1 in hand; second: c1 (stepped from d1).
#   Depth 1: 28 placements; c2 steps to b2 d2, not back to c3 (c1 is taken) -> 30.
#   Depth 2: second's c1 may not step back to d1; it steps to b1 and jumps c2 to c3, taking
#   the placed stone X as second removal. X = c3: b1 only -> 1; X = d1: b1, c1c3xd1 and
#   c1e1xc2 (jumping X) -> 3; X = b1: c1c3xb1 and c1a1xc2 -> 2; the 25 other X: b1 and
#   c1c3xX -> 50. After c2b2 or c2d2: c1 steps to b1 or c2 (d1 is barred) -> 2 + 2.
#   1 + 3 + 2 + 50 + 4 = 60.
TAKE_BACK = "6/6/6/2S3/2s3 f 1 0 c3c2 d1c1 2"
TAKE_BACK_COUNTS = [30, 60, 314, 702, 4_203]


@pytest.mark.parametrize(
    ("text", "counts"),
    [
        (START, START_COUNTS),
        (DOUBLE, DOUBLE_COUNTS),
        (NO_SECOND, NO_SECOND_COUNTS),
        (TAKE_BACK, TAKE_BACK_COUNTS),
    ],
    ids=["start", "double-removal", "no-second-removal", "take-back"],
)
def test_yote_perft(text: str, counts: list[int]) -> None:
    game = engine.get_game("yote")
    pos = game.from_text(text)
    assert [perft(game, pos, depth) for depth in range(1, len(counts) + 1)] == counts
