"""The core flow, on SQLite and on PostgreSQL: invite link -> live play -> result, watched."""

from __future__ import annotations

from tests.app.conftest import Player, invite_token, move_at, receive, send, started_game
from tests.openings import WALI_PLACEMENTS


def test_invite_link_seats_the_first_visitor_and_starts_the_game(alice: Player, bob: Player):
    created = alice.create(
        "jungle", rules={"traps": "opponent"}, clock={"minutes": 5, "increment": 3}
    )
    assert created["game"]["status"] == "created"
    assert created["game"]["rules"] == {"traps": "opponent", "repetition": "draw"}
    joined = bob.post(f"/api/invite/{invite_token(created)}")
    assert joined.status_code == 200
    assert joined.json()["seat"] == "second"
    game = bob.get(f"/api/games/{created['id']}").json()["game"]
    assert game["status"] == "started"
    assert game["players"]["first"]["name"].startswith("Anonymous ")
    assert game["clock"]["first"] == 300_000


def test_players_move_and_spectators_see_every_move_live(alice: Player, bob: Player, carol: Player):
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as a, bob.socket(game_id) as b, carol.socket(game_id) as c:
        state = receive(c, "state")
        assert state["game"]["legalMoves"] == ["b1a2", "b1c2", "b2b3", "c1c2"]
        receive(a, "state")
        receive(b, "state")
        for ply, (ws, move) in enumerate([(a, "b2b3"), (b, "b4b3"), (a, "c1c2")]):
            send(ws, type="move", move=move, ply=ply)
            for watcher in (a, b, c):
                got = receive(watcher, "move")
                assert (got["move"], got["ply"]) == (move, ply + 1)
        assert got["turn"] == "second"


def test_a_game_is_played_to_its_result(alice: Player, bob: Player, carol: Player):
    game_id = started_game(alice, bob)
    moves = ["b1c2", "b4a3", "c2c3", "a3a2", "c3c4"]  # the lion takes c4: a try
    with alice.socket(game_id) as a, bob.socket(game_id) as b, carol.socket(game_id) as c:
        for ws in (a, b, c):
            receive(ws, "state")
        for ply, move in enumerate(moves):
            send(a if ply % 2 == 0 else b, type="move", move=move, ply=ply)
            last = receive(c, "move")
        assert last["status"] == "variantEnd"
        assert last["result"] == {"winner": "first", "reason": "try", "status": "variantEnd"}
        assert last["legalMoves"] == []
    game = carol.get(f"/api/games/{game_id}").json()["game"]
    assert game["moves"] == moves
    assert game["result"]["winner"] == "first"


def test_movers_follow_who_moved_through_wali_passes(alice: Player, bob: Player):
    # After 20 placements second has no legal square left: it passes, and first places twice.
    placements = WALI_PLACEMENTS
    game_id = started_game(alice, bob, "wali")
    with alice.socket(game_id) as a, bob.socket(game_id) as b:
        turn = receive(a, "state")["game"]["turn"]
        receive(b, "state")
        for ply, move in enumerate(placements):
            send(a if turn == "first" else b, type="move", move=move, ply=ply)
            turn = move_at(a, ply + 1)["turn"]
    movers = alice.get(f"/api/games/{game_id}").json()["game"]["movers"]
    assert movers == ["first", "second"] * 10 + ["first", "first"]
