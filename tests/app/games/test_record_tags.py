"""A finished game's record (``GET /game/export/{id}``, docs/notation.md "Game records") for
each of the five games, with rule options and a start other than the game's: its tags say
the event, site, date, players, result, the game and its options and the start position; it
downloads as a file; it reads back and replays to the game's last position. A rated game's
record adds the ratings. On SQLite and PostgreSQL."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from app.games import record
from tests.app.accounts_and_streams import MATE, Account, assert_error
from tests.app.botapi.test_lichess_endpoints import JSON, get, play, start

# A rule option other than the default where the game has one.
RULES: dict[str, dict[str, str]] = {
    "dobutsu": {"ruleset": "yokai"},
    "gorogoro": {},
    "jungle": {"traps": "opponent", "repetition": "tiebreak"},
    "yote": {},
    "wali": {},
}
# 1_800_000_000_000 ms, the tests' ManualClock at its start.
DAY, TIME = "2027.01.15", "08:00:00"


def position_after(variant: str, rules: dict[str, str], plies: int, seed: int) -> str:
    """A position some random plies into the game: a start that is not the game's."""
    game = engine.get_game(variant, **rules)
    pos, chooser = game.start(), random.Random(seed)
    for _ in range(plies):
        pos = game.play(pos, chooser.choice(game.legal_moves(pos)))
    assert game.result(pos) is None and game.side_to_move(pos) == "first"
    return str(game.to_text(pos))


def legal_moves(client: Any, game_id: str) -> list[str]:
    moves: list[str] = client.get(f"/api/games/{game_id}").json()["game"]["legalMoves"]
    return moves


@pytest.mark.parametrize("variant", engine.game_ids())
def test_the_record_of_each_game_names_its_rules_and_start(client, variant):
    alice, bob = Account(client, "alice"), Account(client, "bob")
    fen = position_after(variant, RULES[variant], 2, seed=len(variant))
    game_id = start(alice, bob, variant=variant, rules=RULES[variant], fen=fen)
    played: list[str] = []
    for ply in range(3):  # alice, bob, alice: then alice resigns, bob wins
        text = legal_moves(client, game_id)[0]
        who = alice if ply % 2 == 0 else bob
        assert who.post(f"/api/board/game/{game_id}/move/{text}").status_code == 200
        played.append(text)
    assert alice.post(f"/api/board/game/{game_id}/resign").status_code == 200

    response = get(client, f"/game/export/{game_id}")
    assert response.status_code == 200, response.text
    assert response.headers["content-disposition"] == (
        f'attachment; filename="kodama-{variant}-{game_id}.txt"'
    )
    found = record.parse(response.text)
    tags = found.tags
    game = engine.get_game(variant, **RULES[variant])
    assert list(tags)[:14] == list(record.TAG_ORDER)
    assert tags["Event"] == f"Casual {variant} game"
    assert tags["Site"] == f"http://testserver/game/{game_id}"
    assert tags["Date"] == tags["UTCDate"] == DAY and tags["UTCTime"] == TIME
    assert (tags["White"], tags["Black"]) == ("alice", "bob")
    assert tags["WhiteElo"] == tags["BlackElo"] == "1500"  # accounts: their ratings at the start
    assert tags["Result"] == found.result == "0-1"
    assert tags["Termination"] == "Normal" and tags["Reason"] == "resign"
    assert tags["Variant"] == variant
    # Every option in force, the defaults too: the record is replayable on its own.
    assert record.parse_rules(tags["Rules"]) == game.options
    assert tags["FEN"] == fen and tags["SetUp"] == "1"
    assert "WhiteRatingDiff" not in tags  # a casual game
    assert found.moves == played
    last = get(client, f"/game/export/{game_id}", **JSON).json()["lastFen"]
    assert record.replay(found)[-1] == last


def test_a_game_from_the_start_has_no_setup_tag_and_an_ongoing_one_no_result(client):
    alice, bob = Account(client, "alice"), Account(client, "bob")
    game_id = start(alice, bob, variant="wali")
    tags = record.parse(get(client, f"/game/export/{game_id}").text).tags
    assert tags["FEN"] == "6/6/6/6/6 f 12 12 0" and "SetUp" not in tags
    assert tags["Rules"] == "" and tags["Result"] == "*" and tags["Termination"] == "Unterminated"
    assert "Reason" not in tags
    # The JSON export is not a file to save.
    assert "content-disposition" not in get(client, f"/game/export/{game_id}", **JSON).headers
    assert_error(get(client, "/game/export/nothere"), 404, "game.not_found")


def test_a_rated_game_says_so_with_the_ratings_and_what_the_end_did(client):
    alice, bob = Account(client, "alice"), Account(client, "bob")
    game_id = start(alice, bob, rated=True)
    client.cookies.clear()
    with client.websocket_connect(f"/ws/game/{game_id}") as spectator:
        play(alice, bob, game_id, MATE)
        for _ in range(30):  # the ratings are told once the end is counted (the outbox)
            if spectator.receive_json()["type"] == "ratings":
                break
        else:
            raise AssertionError("no ratings message")
    tags = record.parse(get(client, f"/game/export/{game_id}").text).tags
    assert tags["Event"] == "Rated dobutsu game" and tags["Result"] == "1-0"
    assert (tags["WhiteElo"], tags["BlackElo"]) == ("1500", "1500")
    assert (tags["WhiteRatingDiff"], tags["BlackRatingDiff"]) == ("+242", "-242")
    assert "SetUp" not in tags and tags["Reason"] == "checkmate"
