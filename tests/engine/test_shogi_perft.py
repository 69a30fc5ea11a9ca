"""Perft (leaves of the legal-move tree) for the shogi family: dobutsu (both rule sets), gorogoro.

Depth 1 and 2 of every position were counted by hand (the counts are written out below).
The deeper counts are the engine's, and they were cross-checked against a separate,
throw-away generator written from the rules pages alone (not kept in the repository); all
depths agree. Depths stay at 7 plies or fewer: a position cannot occur a third time before
ply 8, so repetition never cuts these trees.

Notation in the comments: first's pieces upper case, second's lower case; "x" a capture,
"/att" a square the moving side may not use because it is attacked.
"""

from __future__ import annotations

from typing import Any

import pytest

import engine

from .perft import perft

DOBUTSU = engine.get_game("dobutsu")
YOKAI = engine.get_game("dobutsu", ruleset="yokai")
GOROGORO = engine.get_game("gorogoro")


# ---- start positions ---------------------------------------------------------------------------
# dobutsu start, depth 1: lion b1a2 b1c2, giraffe c1c2, chick b2xb3 (the elephant a1 is boxed
# in) = 4.
# depth 2, second's replies:
#   b2xb3  (second's lion in check from the chick b3): lion b4a3, b4c3, b4xb3 (b3 undefended),
#          elephant c4xb3 = 4
#   b1a2   giraffe a4a3, lion b4c3 (a3/att by the lion a2), chick b3xb2 = 3
#   b1c2   giraffe a4a3, lion b4a3 (c3/att by the lion c2), chick b3xb2 = 3
#   c1c2   giraffe a4a3, lion b4a3 (c3/att by the giraffe c2), chick b3xb2 = 3
#   4 + 3 + 3 + 3 = 13
# yokai start, depth 1: the same 4 (no lion move was refused for safety).
# depth 2: nothing is refused for safety any more:
#   b2xb3  giraffe a4a3, lion b4a3 b4c3 b4xb3, elephant c4xb3 = 5
#   b1a2, b1c2, c1c2: giraffe a4a3, lion b4a3 b4c3, chick b3xb2 = 4 each
#   5 + 4 + 4 + 4 = 17
# gorogoro start, depth 1: silver a1: a2 b2; gold b1: a2 b2 c2; king c1: b2 c2 d2; gold d1:
# c2 d2 e2; silver e1: d2 e2; pawns b3xb4 c3xc4 d3xd4 (rank 4 is no zone: no '+') = 16.
# depth 2: after each of the 13 moves within ranks 1-2 second has its 16 mirrored moves
# (13 * 16 = 208); after b3xb4 second lacks b4xb3 and its king may not go to b5 (attacked by
# the pawn b4): 16 - 2 = 14; the same for c3xc4 (c5/att) and d3xd4 (d5/att): 14 + 14 + 14.
# 208 + 42 = 250.
START_COUNTS = [
    (DOBUTSU, [4, 13, 67, 398, 2179, 12636, 80828]),
    (YOKAI, [4, 17, 123, 976, 8122, 71677]),
    (GOROGORO, [16, 250, 4166, 67517]),
]


@pytest.mark.parametrize(
    ("game", "counts"), START_COUNTS, ids=["dobutsu", "dobutsu-yokai", "gorogoro"]
)
def test_perft_from_the_start(game: engine.Game[Any], counts: list[int]) -> None:
    start = game.start()
    for depth, count in enumerate(counts, start=1):
        assert perft(game, start, depth) == count, f"depth {depth}"


def test_perft_gorogoro_start_depth_5() -> None:
    assert perft(GOROGORO, GOROGORO.start(), 5) == 1186299


# ---- tricky dobutsu positions ------------------------------------------------------------------
DOBUTSU_CASES = [
    # Check evasion with a piece in hand: second's giraffe a2 (defended by the elephant b3)
    # checks the lion a1; b2 is attacked by the giraffe. Only the elephant's b1xa2 answers it,
    # no drop (nothing can be blocked) = 1.
    # depth 2: elephant b3xa2 b3c2 b3a4 (c4 own lion), lion c4b4 c4c3 = 5.
    pytest.param(DOBUTSU, "2l/1e1/g2/LE1 f C", [1, 5, 98, 586, 7153, 40502], id="evasion"),
    # Try: lion a3: a2, a4 (try), b4 (try); b2 and b3 attacked by second's lion c2 = 3.
    # depth 2: after a3a4 and a3b4 the game is over (0 + 0); after a3a2 second's lion:
    #   c2c1 (its own try), c2c3; b1, b2, b3/att by the lion a2 = 2.
    # depth 3: after c2c1 over; after c2c3 the lion a2: a1, b1, a3 (b2, b3/att) = 3.
    # depth 4: lion a1 -> second's lion c3: c2 b3 b4 c4 (b2/att) = 4; lion b1 -> b3 b4 c4 = 3;
    #   lion a3 -> c2 c4 (b2 b3 b4/att) = 2; 4 + 3 + 2 = 9.
    pytest.param(DOBUTSU, "3/L2/2l/3 f -", [3, 2, 3, 9, 26, 68, 202], id="try"),
    # Promotion and drops: lion a1: a2 b1 b2; chick a3a4+ (only the promoting form); the
    # chick in hand on each of the 9 empty squares (two chicks on one file are fine, and the
    # last rank too) = 3 + 1 + 9 = 13.
    # depth 2 (second has only the lion c4, with b4 b3 c3 around it):
    #   C*a2 3, C*a4 3, C*b1 3, C*b2 2 (b3/att), C*b3 2 (b3 taken, b4/att), C*b4 3 (b4 taken),
    #   C*c1 3, C*c2 2 (c3/att), C*c3 3 (check: b4, b3, xc3), a1a2 2 (b3/att), a1b1 3,
    #   a1b2 1 (only b4), a3a4+ 2 (the hen guards b4) = 32.
    pytest.param(DOBUTSU, "2l/C2/3/L2 f C", [13, 32, 181, 586, 3276, 13818], id="promotion-drops"),
    # Checkmate with pieces in hand: no move at any depth.
    pytest.param(DOBUTSU, "2l/1e1/h2/L2 f GCe", [0, 0, 0], id="checkmate"),
    # yokai: both koropokkuru attacked on their zones. Depth 1: koropokkuru b4: a4 c4 xa3 b3 c3
    # (nothing refused); giraffe a2: xa1 (the koropokkuru), xa3, b2 = 8.
    # depth 2: b4a4, b4c4: a safe try, over; a2xa1: capture, over; a2xa3: both safe, drawn
    #   (try); a2b2: second's koropokkuru a1 is left unattacked, second's try, over;
    #   b4xa3: koropokkuru a1: xa2 b1 b2 = 3; b4b3 and b4c3: elephant a3: b4 b2, koropokkuru
    #   a1: xa2 b1 b2 = 5 each. 3 + 5 + 5 = 13.
    pytest.param(YOKAI, "1L1/e2/G2/l2 f -", [8, 13, 97, 547, 3440, 21360], id="yokai-tries"),
    # yokai: koropokkuru a3 next to second's elephant b3: a2 b2 a4 b4 xb3 = 5 (a4 and b4 are
    # attacked by the elephant, so neither is a try yet).
    pytest.param(YOKAI, "3/Le1/2l/3 f -", [5, 26, 115, 622, 3188, 15106], id="yokai-attacked"),
    # yokai: the dobutsu checkmate position goes on: koropokkuru xa2 b1 b2 = 3.
    pytest.param(YOKAI, "2l/1e1/h2/L2 f -", [3, 21, 147, 1093, 6983, 47851], id="yokai-check"),
]


@pytest.mark.parametrize(("game", "text", "counts"), DOBUTSU_CASES)
def test_perft_dobutsu_positions(game: engine.Game[Any], text: str, counts: list[int]) -> None:
    pos = game.from_text(text)
    for depth, count in enumerate(counts, start=1):
        assert perft(game, pos, depth) == count, f"depth {depth}"


# ---- tricky gorogoro positions -----------------------------------------------------------------
GOROGORO_CASES = [
    # Uchifuzume: king e1: d1 d2 e2 = 3; gold b4: a5 b5 c5 a4 c4 b3 = 6; pawn drops on the 26
    # empty squares less c6 d6 e6 (last rank) less a5 (it would mate the king a6: b5 is
    # guarded, b6 is second's own pawn, a5 is defended by the gold) = 22. 3 + 6 + 22 = 31.
    # depth 2: second's king a6 has no square (a5 b5/att), so its only move is the pawn b6b5,
    # except: gold b4a4 1; b4c4 (frees a5) 2; b4a5 (check; the king takes it) 1; b4b5 (check;
    # king or pawn takes it) 2; b4c5 (frees a5) 2; b4b3 (frees a5 b5) 3. King moves 3 * 1,
    # drops 22 * 1 (P*b5 is taken by the pawn). 3 + 11 + 22 = 36.
    pytest.param("kp3/5/1G3/5/5/4K f P", [31, 36, 641, 3813], id="uchifuzume"),
    # Promotions: pawn a5a6+ (forced: it reaches the last rank) = 1; silver c5 in the zone:
    # b6 c6 d6 b4 d4, each with and without '+' = 10; king a1: a2 b1 b2 = 3. 14.
    # depth 2, second's king e6 (d6/att by the silver, d5 e5 free): a5a6+ 2; c5b6 3; c5b6+ 3;
    # c5c6 2 (d5/att); c5c6+ 2 (d6/att); c5d6 2 (xd6, d5); c5d6+ 2 (check: xd6, e5);
    # c5b4 3; c5b4+ 3; c5d4 1 (d6); c5d4+ 1 (d6); king moves 3 * 2. Total 30.
    pytest.param("4k/P1S2/5/5/5/K4 f -", [14, 30, 303, 1617, 16073], id="promotions"),
    # Nifu: king a1: a2 b1 b2; pawn a3a4; pawn drops on the 27 empty squares less a6..d6 (last
    # rank) less a2 a4 a5 (file a holds the pawn a3) = 20. 3 + 1 + 20 = 24.
    # depth 2: second's king e6: d6 d5 e5 = 3 after each move, except after P*d5 (d6/att;
    # xd5, e5), P*d4 (d5/att), P*e4 (e5/att): 24 * 3 - 3 = 69.
    pytest.param("4k/5/5/P4/5/K4 f P", [24, 69, 585, 3501], id="nifu"),
    # The same with a promoted pawn on a3, which does not count for nifu: king 3; promoted
    # pawn a4 b4 b3 a2 = 4; drops on the 27 empty squares less the 4 of rank 6 = 23. 30.
    # depth 2: 30 * 3 - 3 (P*d5, P*d4, P*e4 as above) = 87.
    pytest.param("4k/5/5/+P4/5/K4 f P", [30, 87, 1155, 6733], id="nifu-promoted"),
    # Check evasion: second's gold b2 checks the king a1 (a2 b1/att). King a1xb2 or gold
    # c1xb2; the pawn a3a4, the other gold moves and the drops do not answer the check = 2.
    # depth 2: second has only its king e6: d6 d5 e5 after either capture = 3 + 3 = 6.
    pytest.param("4k/5/5/P4/1g3/K1G2 f P", [2, 6, 320, 1730], id="evasion"),
]


@pytest.mark.parametrize(("text", "counts"), GOROGORO_CASES)
def test_perft_gorogoro_positions(text: str, counts: list[int]) -> None:
    pos = GOROGORO.from_text(text)
    for depth, count in enumerate(counts, start=1):
        assert perft(GOROGORO, pos, depth) == count, f"depth {depth}"


def test_perft_depth_zero_is_one_and_finished_games_have_no_leaves() -> None:
    pos = DOBUTSU.from_text("2l/1e1/h2/L2 f -")  # checkmate
    assert perft(DOBUTSU, pos, 0) == 1
    assert perft(DOBUTSU, pos, 1) == 0
