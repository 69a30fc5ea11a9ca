"""berserk (unmodified) bots playing twenty blitz games at once under the default move limit:
no move is refused, because the limit counts per game (docs/api.md, "Rate limits").

Two BOT accounts each follow every game on its own stream, in its own thread, and move the
moment it is their turn — faster than any opponent over a network would let them."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import berserk
import pytest

import engine
from tests.server import Server, account_token, running

BOT_SCOPES = "bot:play,challenge:read,challenge:write"
GAMES = 20
PLIES = 30  # per game, then white resigns: 600 moves in all, within the address's burst


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with running(
        tmp_path,
        "berserk-many-games-Lw3Nq8XcV5mT2rZa9KpYd6Hj",
        None,
        KODAMA_KEEPALIVE_SECONDS="0.2",
        # the challenges and streams of twenty games at once; moves keep the defaults
        KODAMA_RATELIMIT_CHALLENGE_BURST="200",
        KODAMA_RATELIMIT_STREAM_BURST="200",
    ) as srv:
        yield srv


def bot(server: Server, username: str) -> Any:
    token = account_token(server, username, BOT_SCOPES)
    client = berserk.Client(session=berserk.TokenSession(token), base_url=server.base)
    client.account.upgrade_to_bot()  # type: ignore[no-untyped-call]
    return client


def play_side(client: Any, game_id: str, side: str, seed: int, refused: list[str]) -> None:
    """Follow the game's stream and move at once whenever it is ``side``'s turn."""
    game = engine.get_game("gorogoro")
    choose = random.Random(seed)
    for line in client.bots.stream_game_state(game_id):
        state = line["state"] if line["type"] == "gameFull" else line
        if line["type"] not in ("gameFull", "gameState"):
            continue
        if state["status"] != "started":
            return
        moves = state["moves"].split()
        if (len(moves) % 2 == 0) != (side == "white"):
            continue
        try:
            if len(moves) >= PLIES:
                client.bots.resign_game(game_id)
                continue
            pos = game.start()
            for text in moves:
                pos = game.play(pos, text)
            client.bots.make_move(game_id, choose.choice(game.legal_moves(pos)))
        except berserk.exceptions.ResponseError as error:
            refused.append(f"{game_id} ply {len(moves)}: {error.status_code} {error.cause}")
            return


def test_a_bot_plays_twenty_blitz_games_at_once_without_a_refused_move(server: Server) -> None:
    alpha, bravo = bot(server, "alpha"), bot(server, "bravo")
    game_ids = []
    for _ in range(GAMES):
        created = alpha.challenges.create(
            "bravo",
            rated=False,
            variant="gorogoro",
            color="white",
            clock_limit=180,
            clock_increment=2,
        )
        bravo.bots.accept_challenge(created["id"])
        game_ids.append(created["id"])

    refused: list[str] = []
    threads = [
        threading.Thread(target=play_side, args=(client, game_id, side, n, refused))
        for n, game_id in enumerate(game_ids)
        for client, side in ((alpha, "white"), (bravo, "black"))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    assert refused == []
    played = [alpha.games.export(game_id) for game_id in game_ids]
    assert all(game["status"] != "started" for game in played)
    # random play ends some games early; most run to the resignation
    assert sum(len(game["moves"].split()) for game in played) > GAMES * PLIES // 2
