"""berserk's ``tv`` client (the lichess Python client, unmodified) against a real server:
the channels, the feed switching to the next best game when the featured one ends, a
game's channel, and a channel's best games (docs/api.md, "Client compatibility")."""

from __future__ import annotations

import datetime
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import berserk
import httpx

from tests.app.accounts_and_streams import MATE
from tests.server import Server, account_token, running

SCOPES = "board:play,challenge:write"


def featured_until(feed: Iterator[dict[str, Any]], game_id: str) -> dict[str, Any]:
    """The feed's lines up to the ``featured`` line of this game (the channel may show an
    earlier game first: it switches as the server hears of each start)."""
    for _ in range(20):
        data = next(feed)
        if data["t"] == "featured" and data["d"]["id"] == game_id:
            return data
    raise AssertionError(f"{game_id} was never featured")


def rating(server: Server, username: str) -> int:
    found: int = httpx.get(f"{server.base}/api/user/{username}", timeout=10).json()["perfs"][
        "dobutsu"
    ]["rating"]
    return found


def test_berserk_watches_tv_switch_to_the_next_best_game(tmp_path: Path) -> None:
    with running(tmp_path, "tv-berserk-Hq2Lm8Zx4Vc7Bn1Kd9Rw3Ty6") as server:
        players: dict[str, Any] = {
            name: berserk.Client(
                session=berserk.TokenSession(account_token(server, name, SCOPES)),
                base_url=server.base,
            )
            for name in ("alice", "bob", "carol", "dave")
        }

        def play(white: str, black: str, rated: bool) -> str:
            created = players[white].challenges.create(
                black, rated=rated, variant="dobutsu", color="white", clock_limit=300,
                clock_increment=0,
            )  # fmt: skip
            players[black].challenges.accept(created["id"])
            return str(created["id"])

        # A rated game first: alice wins it, so the accounts' ratings differ.
        first = play("alice", "bob", rated=True)
        for ply, move in enumerate(MATE):
            players["alice" if ply % 2 == 0 else "bob"].board.make_move(first, move)
        deadline = time.monotonic() + 30
        while rating(server, "alice") == 1500:  # the ratings are counted after the end
            assert time.monotonic() < deadline, "alice's rating never changed"
            time.sleep(0.05)  # polling another process, not making time pass
        assert rating(server, "bob") < 1500 < rating(server, "alice")

        watcher: Any = berserk.Client(base_url=server.base)  # anyone: no token
        assert watcher.tv.get_current_games()["best"]["gameId"] == first  # the last one stays

        weaker = play("bob", "dave", rated=False)  # bob's ~1340 + 1500
        stronger = play("carol", "alice", rated=False)  # 1500 + alice's ~1660
        feed = watcher.tv.stream_current_game()
        shown = featured_until(feed, stronger)["d"]
        assert shown["orientation"] == "black"  # alice's side: the higher rating
        assert [p["user"]["name"] for p in shown["players"]] == ["carol", "alice"]
        assert [p["seconds"] for p in shown["players"]] == [300, 300]

        players["carol"].board.make_move(stronger, "b1a2")
        moved = next(feed)
        assert moved["t"] == "fen" and moved["d"]["lm"] == "b1a2"
        players["alice"].board.resign_game(stronger)
        assert next(feed)["d"]["id"] == weaker  # the next best: its featured line

        channels = watcher.tv.get_current_games()
        assert channels["best"] == channels["dobutsu"]
        assert channels["best"] == {
            "user": {"id": "dave", "name": "dave", "title": None},
            "rating": 1500,
            "gameId": weaker,
            "color": "black",
        }
        of_channel = watcher.tv.stream_current_game_of_channel("dobutsu")
        assert next(of_channel)["d"]["id"] == weaker
        best = watcher.tv.get_best_ongoing("dobutsu", count=5)
        assert [game["id"] for game in best] == [weaker]
        assert best[0]["players"]["white"]["user"]["name"] == "bob"
        assert isinstance(best[0]["createdAt"], datetime.datetime)
        assert isinstance(best[0]["lastMoveAt"], datetime.datetime)
        record = watcher.tv.get_best_ongoing("best", as_pgn=True)
        assert f'[Site "{server.base}/game/{weaker}"]' in record
