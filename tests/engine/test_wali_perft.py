"""Perft counts for wali: the number of move sequences of each length.

Depth 1 and 2 (and 3 where noted) were counted by hand (the counts are in the comments);
deeper counts were checked against a separate, naive move generator written from
rules/wali.md.
"""

from __future__ import annotations

import pytest

import engine

from .perft import perft

START = "6/6/6/6/6 f 12 12 0"

# Start. No side has two stones before its third placement, so nothing is barred until
# depth 5: 30, 30 * 29, 30 * 29 * 28, 30 * 29 * 28 * 27.
START_COUNTS = [30, 870, 24_360, 657_720]

# A line formed by one step (phase 2). first: a1 b1, c2; second: e5 f5, f4.
#   Depth 1: a1a2; b1c1 b1b2; c2 to c3 b2 d2, and c2c1 forming a1 b1 c1, removing e5, f5 or
#   f4 -> 1 + 2 + 3 + 3 = 9.
#   Depth 2: second's e5 steps to e4 d5, f4 to e4 f3 (f5 is boxed in; nothing forms) -> 4
#   after each of first's 6 plain steps; after xe5: f5e5, f4e4, f4f3 -> 3; after xf5: e5
#   to e4 d5 f5, f4 to f5 e4 f3 -> 6; after xf4: e5e4 e5d5 f5f4 -> 3. 24 + 3 + 6 + 3 = 36.
LINE = "4ss/5s/6/2S3/SS4 f 0 0 0"
LINE_COUNTS = [9, 36, 240, 1_284, 10_664, 70_684]

# Automatic pass (phase 1, 10 + 10 placed). Every one of the 10 empty squares would give
# second three in a row (a5 f5 c4 d4 b3 e3 a2 d2 c1 f1), so second passes.
#   Depth 1: first is barred from a5 (b5 c5), f5 (f3 f4), d4 (e4 f4), b3 (b1 b2), e3 (e2
#   e4), a2 d2 (b2 c2), c1 (a1 b1): it places on c4 or f1 -> 2.
#   Depth 2: second passes; first places on the other square -> 1 + 1 = 2.
#   Depth 3: neither side can place: second's 2 stones are set aside and second, who did
#   not place last, steps in phase 2: a4a5, e5f5, d5d4, d3d4, c3b3, d3e3, a3a2, d3d2, d1d2,
#   d1c1 plain, and b4b3, a3b3 forming a3 b3 c3 / b3 c3 d3, removing one of first's 12
#   stones -> 10 + 24 = 34, twice: 68.
PASS = "1SSss1/ss2SS/s1ss1S/1SS1Ss/SS1ss1 f 2 2 0"
PASS_COUNTS = [2, 2, 68, 3_336, 72_876]

# Phase change (phase 1, second's 12th stone). second is barred everywhere but a3.
#   Depth 1: *a3 -> 1. Phase 2 begins, first to move (second placed last).
#   Depth 2: first steps b5c5, c4c5, f4f5, d3e3, f3e3, b2c2; none forms a line; e2 and d1
#   have no stone of first next to them -> 6.
PHASE_CHANGE = "sS1ss1/SsSSsS/1SsS1S/SS1s1s/Sss1sS s 0 1 0"
PHASE_CHANGE_COUNTS = [1, 6, 326, 4_041, 123_675]


@pytest.mark.parametrize(
    ("text", "counts"),
    [
        (START, START_COUNTS),
        (LINE, LINE_COUNTS),
        (PASS, PASS_COUNTS),
        (PHASE_CHANGE, PHASE_CHANGE_COUNTS),
    ],
    ids=["start", "line", "automatic-pass", "phase-change"],
)
def test_wali_perft(text: str, counts: list[int]) -> None:
    game = engine.get_game("wali")
    pos = game.from_text(text)
    assert [perft(game, pos, depth) for depth in range(1, len(counts) + 1)] == counts
