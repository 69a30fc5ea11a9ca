"""The table of games (engine/variants.py): one entry per game, agreeing with its engine
module; a game registered at run time is built, listed and described like the others."""

from __future__ import annotations

import dataclasses

import pytest

import engine
from tests.toygame import TOY, registered


def test_every_game_has_one_entry_that_its_engine_module_agrees_with() -> None:
    assert engine.game_ids() == ("dobutsu", "gorogoro", "jungle", "yote", "wali")
    for entry in engine.variants.all_variants():
        game = engine.get_game(entry.id)
        assert (game.id, (game.files, game.ranks)) == (entry.id, entry.board)
        assert set(entry.names) == {"en", "fr", "ja", "zh", "home"} and entry.pools


def test_the_client_gets_the_rules_and_the_entry_facts() -> None:
    yote = engine.describe("yote")
    assert yote["start"] == engine.get_game("yote").describe()["start"]
    assert yote["notation"] == "squares" and yote["names"]["fr"] == "Yoté"
    assert yote["stones"]["jumps"] == [[0, 2], [0, -2], [2, 0], [-2, 0]]
    assert engine.describe("wali")["stones"]["move_while_placing"] is False
    assert engine.describe("gorogoro")["piece_sets"] == ["animals", "yokai"]


def test_a_registered_game_is_built_and_listed_until_taken_out() -> None:
    with registered():
        assert engine.game_ids()[-1] == "col"
        game = engine.get_game("col")
        assert game.to_text(game.start()) == "3/3/3 f 5 5"
        assert engine.describe("col")["names"] == TOY.names
    assert "col" not in engine.game_ids()
    with pytest.raises(engine.UnknownGameError):
        engine.get_game("col")


def test_an_entry_its_module_disagrees_with_is_refused() -> None:
    engine.variants.register(dataclasses.replace(TOY, board=(4, 4)))
    try:
        with pytest.raises(engine.EngineError, match="on 3x3, but the table's entry is"):
            engine.get_game("col")
    finally:
        engine.variants.unregister("col")


def test_a_built_in_game_cannot_be_replaced() -> None:
    with pytest.raises(ValueError, match="built-in"):
        engine.variants.register(dataclasses.replace(TOY, id="dobutsu"))
