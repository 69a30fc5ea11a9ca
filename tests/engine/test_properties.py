"""Properties every game must have, checked on random playouts (hypothesis).

- random playouts from every start position end or stay within bounds (every position on the
  way is a valid position: its text is accepted back);
- every listed move is accepted by ``play``; no move is listed once ``result`` is set;
- position text and move text round-trip, and the round-tripped position plays on exactly
  as the original would (same moves, same result, same successors);
- arbitrary strings given to ``play`` and ``from_text`` raise ``EngineError`` subclasses only.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine import EngineError, GameOverError, IllegalMoveError, InvalidMoveError

# Every game with every value of every rule option.
VARIANTS: list[tuple[str, dict[str, str]]] = []
for _gid in engine.game_ids():
    VARIANTS.append((_gid, {}))
    for _option in engine.get_game(_gid).describe()["options"]:
        for _value in _option["values"][1:]:
            VARIANTS.append((_gid, {_option["name"]: _value}))
IDS = [gid + "".join(f"-{k}={v}" for k, v in opts.items()) for gid, opts in VARIANTS]

MAX_PLIES = 400
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def playout(game: Any, choices: list[int]) -> list[Any]:
    """Positions of a playout whose n-th move is choices[n] modulo the number of moves."""
    pos = game.start()
    seen = [pos]
    for choice in choices:
        moves = game.legal_moves(pos)
        if not moves:
            break
        pos = game.play(pos, moves[choice % len(moves)])
        seen.append(pos)
    return seen


def assert_same_future(game: Any, a: Any, b: Any) -> None:
    assert a == b
    assert game.to_text(a) == game.to_text(b)
    assert game.result(a) == game.result(b)
    moves = game.legal_moves(a)
    assert moves == game.legal_moves(b)
    assert game.side_to_move(a) == game.side_to_move(b)
    for move in moves:
        assert game.play(a, move) == game.play(b, move)


@pytest.mark.parametrize(("gid", "options"), VARIANTS, ids=IDS)
@SETTINGS
@given(choices=st.lists(st.integers(min_value=0, max_value=10_000), max_size=MAX_PLIES))
def test_random_playouts_stay_valid_and_round_trip(
    gid: str, options: dict[str, str], choices: list[int]
) -> None:
    game = engine.get_game(gid, **options)
    for pos in playout(game, choices):
        text = game.to_text(pos)
        back = game.from_text(text)
        assert_same_future(game, pos, back)
        moves = game.legal_moves(pos)
        result = game.result(pos)
        assert moves == sorted(set(moves)), "moves are listed once each, sorted"
        if result is None:
            assert moves, "a game that goes on has a move"
            for move in moves:
                assert game.MOVE_SYNTAX.fullmatch(move), move
                game.play(pos, move)  # every listed move is accepted
        else:
            assert moves == []
            assert result.winner in ("first", "second", None)
            assert result.reason in engine.core.REASONS
            with pytest.raises(GameOverError) as err:
                game.play(pos, "a1a2")
            assert err.value.code == "game.over"


@pytest.mark.parametrize(("gid", "options"), VARIANTS, ids=IDS)
@SETTINGS
@given(choices=st.lists(st.integers(min_value=0, max_value=10_000), max_size=60))
def test_play_leaves_the_position_unchanged(
    gid: str, options: dict[str, str], choices: list[int]
) -> None:
    game = engine.get_game(gid, **options)
    positions = playout(game, choices)
    before = [game.to_text(p) for p in positions]
    for pos in positions:
        for move in game.legal_moves(pos)[:5]:
            game.play(pos, move)
    assert [game.to_text(p) for p in positions] == before


@pytest.mark.parametrize("gid", engine.game_ids())
@SETTINGS
@given(text=st.text(max_size=40), choices=st.lists(st.integers(0, 10_000), max_size=30))
def test_arbitrary_move_strings_raise_engine_errors_only(
    gid: str, text: str, choices: list[int]
) -> None:
    game = engine.get_game(gid)
    pos = playout(game, choices)[-1]
    try:
        after = game.play(pos, text)
    except EngineError as exc:
        assert isinstance(exc.code, str)
        assert exc.code.count(".") == 1
    else:
        assert text in game.legal_moves(pos)
        assert game.to_text(after) != game.to_text(pos)


@pytest.mark.parametrize("gid", engine.game_ids())
@SETTINGS
@given(choices=st.lists(st.integers(0, 10_000), max_size=30), data=st.data())
def test_mangled_moves_are_invalid_or_illegal_never_anything_else(
    gid: str, choices: list[int], data: st.DataObject
) -> None:
    game = engine.get_game(gid)
    pos = playout(game, choices)[-1]
    moves = game.legal_moves(pos)
    if not moves:
        return
    move = data.draw(st.sampled_from(moves))
    mangled = data.draw(
        st.sampled_from(
            [move.upper(), " " + move, move + " ", move + "+", move[::-1], move + "x", move * 2]
        )
    )
    if mangled in moves:
        return
    with pytest.raises((InvalidMoveError, IllegalMoveError)):
        game.play(pos, mangled)


@pytest.mark.parametrize("gid", engine.game_ids())
@SETTINGS
@given(text=st.text(max_size=80))
def test_arbitrary_position_strings_raise_engine_errors_only(gid: str, text: str) -> None:
    game = engine.get_game(gid)
    try:
        pos = game.from_text(text)
    except EngineError as exc:
        assert exc.code == "position.invalid"
    else:
        assert game.from_text(game.to_text(pos)) == pos


@pytest.mark.parametrize("gid", engine.game_ids())
@SETTINGS
@given(
    choices=st.lists(st.integers(0, 10_000), max_size=40),
    index=st.integers(min_value=0),
    char=st.characters(codec="ascii"),
)
def test_mutated_position_strings_raise_engine_errors_only(
    gid: str, choices: list[int], index: int, char: str
) -> None:
    game = engine.get_game(gid)
    text = game.to_text(playout(game, choices)[-1])
    i = index % len(text)
    for mutated in (text[:i] + char + text[i + 1 :], text[:i] + char + text[i:], text[:i]):
        try:
            pos = game.from_text(mutated)
        except EngineError as exc:
            assert exc.code == "position.invalid"
        else:
            assert game.from_text(game.to_text(pos)) == pos


@pytest.mark.parametrize("gid", engine.game_ids())
def test_non_string_input_raises_engine_errors(gid: str) -> None:
    game = engine.get_game(gid)
    pos = game.start()
    for bad in (None, 12, b"a1a2", ["a1a2"]):
        with pytest.raises(InvalidMoveError):
            game.play(pos, bad)  # type: ignore[arg-type]
        with pytest.raises(engine.InvalidPositionError):
            game.from_text(bad)  # type: ignore[arg-type]
    with pytest.raises(engine.InvalidPositionError):
        game.legal_moves("not a position")
