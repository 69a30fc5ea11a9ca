"""The shared vocabulary: sides, rule reasons, statuses and end reasons are StrEnums whose
members are the protocol's texts."""

import json

import engine
from app.domain.enums import ENDED, EndReason, GameStatus
from engine import RuleReason, Side


def test_a_side_is_its_text_and_knows_the_other() -> None:
    assert Side.FIRST.value == "first" and Side("second").other is Side.FIRST
    assert json.dumps({"winner": Side.SECOND}) == '{"winner": "second"}'
    game = engine.get_game("dobutsu")
    assert game.side_to_move(game.start()) is Side.FIRST


def test_every_rule_reason_is_an_end_reason_with_the_same_text() -> None:
    for reason in RuleReason:
        assert EndReason.of(reason) == reason.value


def test_the_ended_statuses_are_all_but_created_and_started() -> None:
    assert set(GameStatus) - {GameStatus.CREATED, GameStatus.STARTED} == ENDED
    assert GameStatus("noStart") is GameStatus.NO_START
