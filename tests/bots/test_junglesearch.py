"""Jungle's own search (bots/junglesearch.py) and its board (bots/jungleboard.py): the same
moves, evaluation and digests as the engine's, the same scores as the generic search, and
the repetitions of the game before the search seen."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from bots.jungle import JungleEvaluator
from bots.jungleboard import JungleBoard
from bots.junglesearch import JungleSearch
from bots.players import MATE, AlphaBetaPlayer
from bots.searchbase import CONTEMPT

from .test_search_speedups import random_positions


def board_for(game: engine.Game[Any]) -> JungleBoard:
    return JungleBoard(game, JungleEvaluator(game))


def state(board: JungleBoard) -> tuple[Any, ...]:
    return (board.board, board.side, board.plies, board.loc, board.left, board.key, board.score)


@pytest.mark.parametrize("traps", ["any", "opponent"])
def test_the_board_lists_the_engines_moves_and_its_tactical_ones(traps: str) -> None:
    game = engine.get_game("jungle", traps=traps)
    board = board_for(game)
    for pos in random_positions("jungle", 12, traps=traps):
        board.load(pos)
        moves = {board.text(m) for m in board.moves()}
        assert moves == set(game.legal_moves(pos)), game.to_text(pos)
        den = board.dens[1 - pos.side]
        targets = {t: game.square_index[t[2:]] for t in moves}
        tactical = {board.text(m) for m in board.moves(tactical=True)}
        assert tactical == {t for t, to in targets.items() if pos.board[to] or to == den}


def test_making_and_unmaking_a_move_keeps_the_key_and_evaluation_as_a_fresh_load() -> None:
    game = engine.get_game("jungle")
    ev = JungleEvaluator(game)
    board, fresh = board_for(game), board_for(game)
    for pos in random_positions("jungle", 8):
        board.load(pos)
        before = state(board)
        assert board.evaluate() == ev.evaluate(pos)
        assert board.engine_digest() == pos.digest
        for move in board.moves():
            undo = board.make(move)
            after = game.play(pos, board.text(move))
            fresh.load(after)
            assert state(board) == state(fresh)
            assert board.won(move, undo[0]) is (after.win is not None)
            board.unmake(move, undo)
            assert state(board) == before


def test_the_board_places_every_earlier_position_of_the_game_from_its_digest() -> None:
    game = engine.get_game("jungle")
    board, fresh = board_for(game), board_for(game)
    line: list[Any] = []
    for pos in random_positions("jungle", 3):
        line = [*line, pos] if pos.history else [pos]
        board.load(pos)
        keys, unplaced = board.earlier_keys(pos.history)
        assert not unplaced
        expected = set()
        for earlier in line[:-1][-len(pos.history) :] if pos.history else []:
            fresh.load(earlier)
            expected.add(fresh.key)
        assert keys == expected


def test_a_history_that_is_not_the_games_is_left_to_the_digests() -> None:
    game = engine.get_game("jungle")
    board = board_for(game)
    pos = game.play(game.start(), "a3a4")
    board.load(pos)
    foreign = "AAAAAAAA"
    keys, unplaced = board.earlier_keys((foreign, *pos.history))
    assert len(keys) == 1 and unplaced == {foreign}


@pytest.mark.parametrize("placed", [True, False])
def test_a_move_back_to_a_position_of_the_game_scores_as_a_draw(
    placed: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The elephant went a3-a4 and back, the lion g9-g8: the lion's step back, searched
    # alone, returns to the start, already seen in the game. It scores as a draw (the
    # contempt against the side searching), whether the board placed the start from its
    # digest or left it to be compared by digest.
    game = engine.get_game("jungle")
    pos = game.start()
    for move in ("a3a4", "g9g8", "a4a3"):
        pos = game.play(pos, move)
    search = JungleSearch(game, JungleEvaluator(game), 6, reductions=False, threats=True)
    if not placed:
        monkeypatch.setattr(
            search.board, "earlier_keys", lambda history: (set(), frozenset(history))
        )
    search.start(pos, deadline=float("inf"))
    best, score, complete = search.root(["g8g9"], 1)
    assert (best, score, complete) == ("g8g9", -CONTEMPT, True)


@pytest.mark.parametrize("traps", ["any", "opponent"])
def test_it_scores_positions_as_the_generic_search_does(traps: str) -> None:
    # Without late move reductions (which depend on the order of equal moves), both are the
    # same alpha-beta search: the same score at the same depth.
    game = engine.get_game("jungle", traps=traps)
    positions = random_positions("jungle", 1, seed=5, traps=traps)[10:80:14]
    for pos in positions:
        scores = []
        for native in (False, True):
            player = AlphaBetaPlayer(seed=1, native=native, max_depth=3, reductions=False)
            player.choose(game, pos, 60.0)
            scores.append(player.info.score)
        assert scores[0] == scores[1], game.to_text(pos)


def test_it_walks_into_the_den_and_stops_a_walk_into_its_own() -> None:
    game = engine.get_game("jungle")
    player = AlphaBetaPlayer(seed=1, max_depth=4)
    win = game.from_text("7/3D3/7/7/7/7/1R5/1e5/l6 f 0 -")
    assert player.choose(game, win, 30.0) == "d8d9"
    assert player.info.score == MATE - 1
    defend = game.from_text("6l/7/7/e6/R6/7/7/2Cd3/7 f 0 -")
    assert player.choose(game, defend, 30.0) == "c2d2"


@pytest.mark.parametrize(("options", "native"), [({}, True), ({"repetition": "tiebreak"}, False)])
def test_the_player_searches_jungle_on_its_own_board_where_repetitions_are_draws(
    options: dict[str, str], native: bool
) -> None:
    game = engine.get_game("jungle", **options)
    player = AlphaBetaPlayer(seed=1, max_depth=2)
    player.choose(game, game.start(), 30.0)
    assert (player._native is not None) is native
    plain = AlphaBetaPlayer(seed=1, max_depth=2, native=False)
    plain.choose(game, game.start(), 30.0)
    assert plain._native is None
