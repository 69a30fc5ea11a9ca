"""The public interface shared by all games: names, registry, errors, describe()."""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

import pytest

import engine
from engine.core import RuleReason, Side

ENGINE_DIR = Path(engine.__file__).parent


def test_games_are_the_five_in_order() -> None:
    assert engine.game_ids() == ("dobutsu", "gorogoro", "jungle", "yote", "wali")


@pytest.mark.parametrize("gid", engine.game_ids())
def test_get_game_returns_a_game_with_its_id(gid: str) -> None:
    game = engine.get_game(gid)
    assert game.id == gid
    assert isinstance(game, engine.Game)
    assert engine.get_game(gid) is game  # games are stateless values, built once


@pytest.mark.parametrize("bad", ["chess", "", "Dobutsu", None, 3])
def test_unknown_game_is_refused(bad: object) -> None:
    with pytest.raises(engine.UnknownGameError) as err:
        engine.get_game(bad)  # type: ignore[arg-type]
    assert err.value.code == "game.unknown"
    assert repr(bad) in str(err.value)


def test_options_by_keyword() -> None:
    game = engine.get_game("jungle", traps="opponent")
    assert game.options == {"traps": "opponent", "repetition": "draw"}
    assert engine.get_game("dobutsu", ruleset="yokai").options == {"ruleset": "yokai"}


@pytest.mark.parametrize(
    ("gid", "options"),
    [
        ("jungle", {"trap": "any"}),
        ("jungle", {"traps": "none"}),
        ("dobutsu", {"ruleset": "shogi"}),
        ("gorogoro", {"ruleset": "dobutsu"}),
        ("yote", {"anything": "x"}),
        ("jungle", {"traps": 1}),
    ],
)
def test_unknown_options_and_values_are_refused(gid: str, options: dict[str, object]) -> None:
    with pytest.raises(engine.InvalidOptionError) as err:
        engine.get_game(gid, **options)
    assert err.value.code == "option.invalid"
    name, value = next(iter(options.items()))
    assert repr(name) in str(err.value) or repr(value) in str(err.value)


def test_error_classes_and_codes_are_stable() -> None:
    codes = {
        engine.EngineError: "engine.error",
        engine.InvalidMoveError: "move.invalid",
        engine.IllegalMoveError: "move.illegal",
        engine.GameOverError: "game.over",
        engine.InvalidPositionError: "position.invalid",
        engine.UnknownGameError: "game.unknown",
        engine.InvalidOptionError: "option.invalid",
    }
    for cls, code in codes.items():
        assert issubclass(cls, engine.EngineError)
        assert issubclass(cls, ValueError)
        assert cls.code == code


@pytest.mark.parametrize("gid", engine.game_ids())
def test_messages_quote_the_input_and_the_position(gid: str) -> None:
    game = engine.get_game(gid)
    pos = game.start()
    with pytest.raises(engine.InvalidMoveError) as bad:
        game.play(pos, "hello")
    assert "'hello'" in str(bad.value)
    assert game.to_text(pos) in str(bad.value)
    with pytest.raises(engine.IllegalMoveError) as illegal:
        game.play(pos, "a1a1")
    assert "'a1a1'" in str(illegal.value)
    assert game.to_text(pos) in str(illegal.value)
    with pytest.raises(engine.InvalidPositionError) as position:
        game.from_text("nonsense here")
    assert "'nonsense here'" in str(position.value)


@pytest.mark.parametrize("gid", engine.game_ids())
def test_start_position_and_side_to_move(gid: str) -> None:
    game = engine.get_game(gid)
    pos = game.start()
    assert game.side_to_move(pos) == "first"
    assert game.result(pos) is None
    assert game.legal_moves(pos)
    assert game.from_text(game.to_text(pos)) == pos


@pytest.mark.parametrize("gid", engine.game_ids())
def test_positions_are_immutable(gid: str) -> None:
    game = engine.get_game(gid)
    pos = game.start()
    with pytest.raises(AttributeError):
        pos.side = 1
    moves = game.legal_moves(pos)
    moves.clear()  # the caller's copy: the position's own list is untouched
    assert game.legal_moves(pos)


@pytest.mark.parametrize("gid", engine.game_ids())
def test_describe_is_json_ready_and_complete(gid: str) -> None:
    game = engine.get_game(gid)
    data = game.describe()
    assert json.loads(json.dumps(data)) == data
    assert data["id"] == gid
    assert data["board"] == {"files": game.files, "ranks": game.ranks}
    assert data["start"] == game.to_text(game.start())
    assert data["pieces"]
    for option in data["options"]:
        assert option["default"] == option["values"][0]
        assert data["rules"][option["name"]] == option["default"]


def test_result_has_winner_and_reason() -> None:
    result = engine.Result(Side.FIRST, RuleReason.DEN)
    assert (result.winner, result.reason) == ("first", "den")
    assert result.to_dict() == {"winner": "first", "reason": "den"}


def test_engine_imports_only_the_standard_library() -> None:
    for path in ENGINE_DIR.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names, f"{path.name} imports {name}"


def test_in_check_reports_an_attacked_royal_piece_of_the_side_to_move() -> None:
    dobutsu = engine.get_game("dobutsu")
    assert dobutsu.in_check(dobutsu.from_text("2l/1e1/g2/LE1 f C"))
    assert not dobutsu.in_check(dobutsu.start())
    gorogoro = engine.get_game("gorogoro")
    mated = gorogoro.play(gorogoro.from_text("kp3/5/1G3/5/5/4K f G"), "G*a5")
    assert gorogoro.in_check(mated)
    assert not gorogoro.in_check(gorogoro.start())


@pytest.mark.parametrize("gid", ["jungle", "yote", "wali"])
def test_games_without_a_royal_piece_are_never_in_check(gid: str) -> None:
    game = engine.get_game(gid)
    assert not game.in_check(game.start())
