"""The hard level's search changes: each keeps what the search finds, at a fixed depth.

bench/strength.py measures what they gain in play; here only that they lose nothing: the same
move and score with and without lazy move generation, the short forced wins still found with
null-move pruning, and the faster evaluations giving the same values as plain ones.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from bench import strength
from bots.evaluation import evaluator
from bots.nullmove import passed
from bots.players import LEVELS, MATE, AlphaBetaPlayer
from bots.stones import WaliEvaluator, YoteEvaluator

# (game, position): the side to move wins in three plies (its move, any reply, its win), and
# not sooner.
WINS_IN_THREE = [
    ("gorogoro", "sp3/1k1s1/1ggp1/3PP/2K2/P+s1GS s gp"),  # G*b2 then mate
    ("gorogoro", "1k2s/p1P1+P/1G1p1/1s1P1/1K1SG/+s4 f 2GP"),
    ("yote", "5S/2s3/1s3S/sS1s1s/sS4 s 0 0 c1b1 d4c4 3"),
    ("yote", "4ss/2ssSS/1S4/1S1s2/2s3 s 0 2 f3f4 b1c1 3"),
    ("wali", "sS4/2sss1/2ss2/1ssss1/S1s3 s 0 0 1"),
    ("wali", "2ssSS/1S2S1/S1SSSS/1S4/6 f 0 0 3"),
]


def opened(game: engine.Game[Any], seed: int, plies: int = 6) -> Any:
    rng = random.Random(seed)
    pos = game.start()
    for _ in range(plies):
        pos = game.play(pos, rng.choice(game.legal_moves(pos)))
    return pos


@pytest.mark.parametrize("game_id", engine.game_ids())
def test_lazy_move_generation_searches_the_same_tree(game_id: str) -> None:
    game = engine.get_game(game_id)
    for seed in range(3):
        pos = opened(game, seed)
        found = []
        for lazy in (False, True):
            player = AlphaBetaPlayer(max_depth=3, seed=7, lazy_moves=lazy)
            move = player.choose(game, pos, 60.0)
            found.append((move, player.info.score, player.info.depth, player.info.nodes))
        assert found[0] == found[1], game.to_text(pos)


@pytest.mark.parametrize(("game_id", "text"), WINS_IN_THREE)
def test_the_search_finds_the_win_in_three_plies(game_id: str, text: str) -> None:
    game = engine.get_game(game_id)
    pos = game.from_text(text)
    player = AlphaBetaPlayer(max_depth=4, seed=7)
    move = player.choose(game, pos, 60.0)
    assert player.info.score == MATE - 3
    # The move found does win: after any reply there is a winning move.
    after = game.play(pos, move)
    for reply in game.legal_moves(after):
        then = game.play(after, reply)
        wins = [
            m
            for m in game.legal_moves(then)
            if (r := game.result(game.play(then, m))) is not None
            and r.winner == engine.SIDES[pos.side]
        ]
        assert wins, (move, reply)


def test_the_bench_pits_the_hard_level_against_its_old_search_at_equal_time() -> None:
    old, new = strength.player("hard-v1", 1), strength.player("hard", 1)
    assert isinstance(old, AlphaBetaPlayer) and isinstance(new, AlphaBetaPlayer)
    assert (old.lazy_moves, new.lazy_moves) == (False, True)
    assert (old.null_move, new.null_move) == (False, True)
    assert (old.native, new.native) == (False, True)
    generic = strength.player("hard-v5", 1)
    assert isinstance(generic, AlphaBetaPlayer)
    assert (generic.native, generic.tuned, generic.threats) == (False, True, True)
    assert old.max_depth == new.max_depth == LEVELS["hard"].max_depth
    assert strength.budget("hard-v1", 0.1) == strength.budget("hard", 0.1) == 0.2
    # Scores in rating points: 64% is about +100, 76% about +200; a sweep is clipped.
    assert [round(strength.elo(s)) for s in (0.5, 0.64, 0.76, 0.0)] == [0, 100, 200, -999]
    assert strength.wilson_low(0.5, 40) < 0.5 < strength.wilson_high(0.5, 40)


@pytest.mark.parametrize(
    ("game_id", "text", "passed_text"),
    [
        ("dobutsu", "gle/1c1/1C1/ELG f -", "gle/1c1/1C1/ELG s -"),
        (
            "gorogoro",
            "sgkgs/5/1pp2/1PPp1/5/SGKGS f P",
            "sgkgs/5/1pp2/1PPp1/5/SGKGS s P",
        ),
    ],
)
def test_a_null_move_passes_the_turn_and_changes_nothing_else(
    game_id: str, text: str, passed_text: str
) -> None:
    game = engine.get_game(game_id)
    pos = game.from_text(text)
    null = passed(pos)
    other = game.from_text(passed_text)
    assert null.side == other.side == 1 - pos.side
    assert sorted(game.legal_moves(null)) == sorted(game.legal_moves(other))
    # Its own digest: the search's table never takes it for a real position.
    assert null.digest not in (pos.digest, other.digest)
    assert pos.side == 0 and game.legal_moves(pos)  # the position passed from is untouched


def test_null_moves_are_tried_only_where_having_to_move_cannot_lose() -> None:
    allowed = {
        game_id: evaluator(engine.get_game(game_id)).null_move for game_id in engine.game_ids()
    }
    assert allowed == {
        "dobutsu": True,
        "gorogoro": True,
        "jungle": False,
        "yote": False,
        "wali": False,
    }


def random_positions(game_id: str, games: int, seed: int = 2, **options: str) -> list[Any]:
    """Every position of ``games`` seeded random playouts of the game (with rule options)."""
    game, rng, found = engine.get_game(game_id, **options), random.Random(seed), []
    for _ in range(games):
        pos = game.start()
        while game.result(pos) is None:
            found.append(pos)
            pos = game.play(pos, rng.choice(game.legal_moves(pos)))
    return found


def test_wali_squares_ready_for_a_line_are_counted_as_the_plain_rule_says() -> None:
    ev = evaluator(engine.get_game("wali"))
    assert isinstance(ev, WaliEvaluator)

    def ready(board: Any, stone: int) -> int:
        # An empty square where two stones of a line wait and a third stone next to it can
        # step in: one count a square.
        return sum(
            any(
                board[a] == board[b] == stone
                and any(board[n] == stone and n not in (a, b) for n in ev.neighbours[sq])
                for a, b in ev.triples_at[sq]
            )
            for sq, v in enumerate(board)
            if not v
        )

    for pos in random_positions("wali", 40):
        assert ev._ready(pos.board) == (ready(pos.board, 1), ready(pos.board, -1))


def test_yote_threatened_stones_are_counted_as_the_plain_rule_says() -> None:
    game = engine.get_game("yote")
    ev = evaluator(game)
    assert isinstance(ev, YoteEvaluator)

    def threatened(board: Any, victim: int) -> int:
        return len(
            {
                over
                for sq, v in enumerate(board)
                if v == -victim
                for over, land in ev.jumps[sq]
                if board[over] == victim and not board[land]
            }
        )

    for pos in random_positions("yote", 40):
        assert ev._threatened(pos.board) == (threatened(pos.board, -1), threatened(pos.board, 1))
        for move in game.legal_moves(pos):  # a move's text says what it takes, cached or not
            assert ev.victim(pos, move) == ev._victim(move)
