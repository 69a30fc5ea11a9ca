"""The computer players on hand-made positions of each game (no server involved).

Searches here have a depth cap and a generous budget, so what they find does not depend on
the machine's speed; speed itself is measured in bench/strength.py, never asserted here.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

import engine
from app.builtin import service as builtin
from bots.evaluation import evaluator
from bots.players import LEVELS, MATE, AlphaBetaPlayer, RandomPlayer, make_player

# (game, position, how the side to move wins at once with the right move)
WINS_AT_ONCE = [
    ("dobutsu", "2l/L2/3/3 f -", "try"),  # a3a4: the lion reaches the last rank unattacked
    # G*a5 mates (the pawn on a4 guards it); G*c5 leaves the king no move at all.
    ("gorogoro", "k4/5/P4/5/5/4K f G", "checkmate no_moves"),
    ("jungle", "7/3D3/7/7/7/7/1R5/1e5/l6 f 0 -", "den"),  # d8d9, though b3b2 takes the elephant
    ("yote", "6/6/6/6/Ss4 f 5 0 - - 0", "no_pieces"),  # a1c1 jumps the last stone
    ("wali", "5s/6/6/6/SS1S2 f 0 0 0", "no_pieces"),  # d1c1xf5 makes a line, takes the last
]


def searcher(depth: int = 4) -> AlphaBetaPlayer:
    return AlphaBetaPlayer(max_depth=depth, seed=7)


@pytest.mark.parametrize(("game_id", "text", "reasons"), WINS_AT_ONCE)
def test_the_search_finds_the_win_in_one(game_id: str, text: str, reasons: str) -> None:
    game = engine.get_game(game_id)
    pos = game.from_text(text)
    move = searcher().choose(game, pos, 30.0)
    result = game.result(game.play(pos, move))
    assert result is not None, move
    assert result.winner == game.side_to_move(pos), move
    assert result.reason in reasons.split(), move


@pytest.mark.parametrize(("game_id", "text", "reasons"), WINS_AT_ONCE)
def test_the_easy_level_finds_the_win_in_one(game_id: str, text: str, reasons: str) -> None:
    game = engine.get_game(game_id)
    pos = game.from_text(text)
    move = make_player("easy", seed=3).choose(game, pos, 30.0)
    result = game.result(game.play(pos, move))
    assert result is not None and result.winner == game.side_to_move(pos), move


def test_dobutsu_takes_the_giraffe_left_unguarded() -> None:
    game = engine.get_game("dobutsu")
    pos = game.from_text("2l/g2/1E1/L2 f -")
    assert searcher().choose(game, pos, 30.0) == "b2a3"


def test_jungle_stops_the_dog_about_to_enter_its_den_instead_of_taking_the_elephant() -> None:
    game = engine.get_game("jungle")
    # Second's dog on first's trap d2, next to the den d1; the rat on a5 could take the
    # elephant on a6, but then the dog walks in.
    pos = game.from_text("6l/7/7/e6/R6/7/7/2Cd3/7 f 0 -")
    assert searcher().choose(game, pos, 30.0) == "c2d2"


def test_gorogoro_defends_against_a_mate_in_one() -> None:
    game = engine.get_game("gorogoro")
    # The mate above, with second to move: it must stop G*a5 (for one, by leaving the corner).
    pos = game.from_text("k4/5/P4/5/5/4K s G")
    move = searcher().choose(game, pos, 30.0)
    after = game.play(pos, move)
    for reply in game.legal_moves(after):
        result = game.result(game.play(after, reply))
        assert result is None or result.winner != "first", (move, reply)


@pytest.mark.parametrize(("game_id", "text", "reasons"), WINS_AT_ONCE)
def test_a_win_in_one_scores_as_the_fastest_win(game_id: str, text: str, reasons: str) -> None:
    game = engine.get_game(game_id)
    player = searcher()
    player.choose(game, game.from_text(text), 30.0)
    assert player.info.score == MATE - 1
    assert player.last_score() == MATE - 1


@pytest.mark.parametrize("game_id", engine.game_ids())
def test_moves_are_always_legal_even_with_no_time(game_id: str) -> None:
    game = engine.get_game(game_id)
    rng = random.Random(game_id)
    players: list[Any] = [AlphaBetaPlayer(seed=1), make_player("easy", seed=2)]
    for playout in range(3):
        pos = game.start()
        for ply in range(60):
            if game.result(pos) is not None:
                break
            if ply % 7 == playout:
                for player in players:
                    for budget in (0.0, 0.005):
                        assert player.choose(game, pos, budget) in game.legal_moves(pos)
            pos = game.play(pos, rng.choice(game.legal_moves(pos)))


@pytest.mark.parametrize("game_id", engine.game_ids())
def test_the_budget_stops_the_search(game_id: str) -> None:
    game = engine.get_game(game_id)
    player = AlphaBetaPlayer(seed=1)  # no depth cap: only the clock can stop it
    started = time.perf_counter()
    move = player.choose(game, game.start(), 0.05)
    # Loose on purpose (no timing assertion that could flake): an unbounded search of the
    # start position would run for hours, so this only shows the clock is obeyed.
    assert time.perf_counter() - started < 30
    assert move in game.legal_moves(game.start())
    assert 0 < player.info.depth < player.max_depth
    assert player.info.nodes > 0


def test_a_search_sees_a_repetition_in_the_position_history() -> None:
    game = engine.get_game("dobutsu")
    pos = game.start()
    for move in ["b1a2", "b4c3", "a2b1", "c3b4"] * 1:
        pos = game.play(pos, move)
    # Back at the start once already: its text carries the history, and so does the search.
    text = game.to_text(pos)
    again = game.from_text(text)
    assert again.repetitions() == 2
    move = searcher(2).choose(game, again, 30.0)
    assert move in game.legal_moves(again)


def test_the_random_player_is_reproducible_with_a_seed() -> None:
    game = engine.get_game("yote")

    def playout(seed: int) -> list[str]:
        player, pos, moves = RandomPlayer(seed), game.start(), []
        for _ in range(20):
            move = player.choose(game, pos, 0.0)
            moves.append(move)
            pos = game.play(pos, move)
        return moves

    assert playout(5) == playout(5)
    assert playout(5) != playout(6)


def test_players_refuse_a_finished_position() -> None:
    game = engine.get_game("dobutsu")
    over = game.play(game.from_text("2l/L2/3/3 f -"), "a3a4")
    for player in (RandomPlayer(1), searcher()):
        with pytest.raises(ValueError, match="over"):
            player.choose(game, over, 1.0)


def test_unknown_level() -> None:
    with pytest.raises(ValueError, match="unknown level"):
        make_player("grandmaster")


def test_the_server_creates_one_account_per_level() -> None:
    assert tuple(LEVELS) == builtin.LEVELS
    assert builtin.usernames() == [f"kodama-{name}" for name in LEVELS]


def mirror(game: engine.Game[Any], text: str) -> str:
    """The position turned half a turn with the colours swapped (history dropped)."""
    fields = text.split(" ")[: game.TEXT_FIELDS]
    token = re.compile(r"\+?[A-Za-z]|\d")
    rows = fields[0].split("/")
    fields[0] = "/".join("".join(token.findall(row)[::-1]) for row in rows[::-1]).swapcase()
    fields[1] = {"f": "s", "s": "f"}[fields[1]]
    if game.id in ("dobutsu", "gorogoro"):
        counts = {letter.swapcase(): int(n or 1) for n, letter in HAND.findall(fields[2])}
        order = game.describe()["hand_order"]
        fields[2] = (
            "".join(
                (str(counts[x]) if counts[x] > 1 else "") + x
                for x in [*order, *(o.lower() for o in order)]
                if x in counts
            )
            or "-"
        )
    elif game.id == "jungle":
        fields[3] = {"f": "s", "s": "f", "-": "-"}[fields[3]]
    else:
        fields[2], fields[3] = fields[3], fields[2]
        if game.id == "yote":

            def turn(square: str) -> str:
                return chr(ord("a") + ord("f") - ord(square[0])) + str(6 - int(square[1]))

            steps = [s if s == "-" else turn(s[:2]) + turn(s[2:]) for s in fields[4:6]]
            fields[4], fields[5] = steps[1], steps[0]
    return " ".join(fields)


HAND = re.compile(r"(\d*)([A-Za-z])")


@pytest.mark.parametrize("game_id", engine.game_ids())
def test_evaluations_are_symmetric(game_id: str) -> None:
    """A position and its mirror image (colours swapped) score the same for the side to
    move: the evaluation has no side-dependent sign error."""
    game = engine.get_game(game_id)
    ev = evaluator(game)
    rng = random.Random(11)
    checked = 0
    for _ in range(20):
        pos = game.start()
        for _ in range(rng.randrange(1, 70)):
            if game.result(pos) is not None:
                break
            pos = game.play(pos, rng.choice(game.legal_moves(pos)))
        if game.result(pos) is not None or (game_id == "wali" and any(pos.hands)):
            continue  # wali's placement order is not symmetric: mirror only phase 2
        flipped = game.from_text(mirror(game, game.to_text(pos)))
        assert ev.evaluate(flipped) == ev.evaluate(pos), game.to_text(pos)
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize(
    ("options", "draws"),
    [({"repetition": "draw"}, True), ({"repetition": "tiebreak"}, False)],
)
def test_jungle_repetitions_are_draws_only_under_the_draw_rule(
    options: dict[str, str], draws: bool
) -> None:
    assert evaluator(engine.get_game("jungle", **options)).repetition_is_draw is draws


def test_wali_evaluation_values_room_to_move() -> None:
    """Phase 2: a side with no step loses, so a boxed-in stone is worth less than a free one
    (same material, no line in sight)."""
    game = engine.get_game("wali")
    ev = evaluator(game)
    boxed = game.from_text("5S/6/6/s5/Ss4 f 0 0 0")  # first's a1 cannot move
    free = game.from_text("5S/6/2S3/s5/1s4 f 0 0 0")  # the same stone on c3
    assert ev.evaluate(free) > ev.evaluate(boxed)


def test_wali_evaluation_sees_lines_in_the_making_during_placement() -> None:
    """Placement: two stones in a row with the third square empty (a step completes it in
    phase 2) beat the same stones apart, though apart they have a little more room."""
    game = engine.get_game("wali")
    ev = evaluator(game)
    pair = game.from_text("3s2/6/2s3/6/SS4 f 10 10 0")  # a1 b1: c1 completes a line
    apart = game.from_text("3s1S/6/2s3/6/S5 f 10 10 0")  # a1 f5
    assert ev.evaluate(pair) > ev.evaluate(apart)


def test_a_forced_move_has_no_score_so_it_never_accepts_a_draw_by_itself() -> None:
    """One legal move is played without a search: the player has no score for it (a 0
    would read as "drawn" and accept any draw offer, winning or not)."""
    game = engine.get_game("dobutsu")
    pos = game.from_text("2g/1l1/1eC/1L1 f egc")
    assert game.legal_moves(pos) == ["c2c3"]
    player = searcher()
    assert player.choose(game, pos, 1.0) == "c2c3"
    assert player.last_score() is None
    player.choose(game, game.start(), 0.2)
    assert player.last_score() is not None
