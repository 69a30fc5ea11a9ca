"""Bots playing through the real server: a server process, bot accounts made over the API,
runners following the NDJSON streams and posting moves, the built-in opponents it starts."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import httpx
import pytest

import engine
from bots.client import Client
from bots.players import RandomPlayer, make_player
from bots.runner import Runner, Settings
from tests.server import Server, running

SCOPES = ["bot:play", "challenge:read", "challenge:write"]
ENDED = {"aborted", "mate", "resign", "stalemate", "timeout", "draw", "outoftime", "noStart"}
_databases = itertools.count()


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """A server with its built-in bots on, and two bot accounts: ``alpha`` and ``beta``."""
    data = tmp_path_factory.mktemp(f"bots-{request.param}")
    url = None
    if request.param == "postgres":
        url = request.getfixturevalue("postgres").create_database(
            f"bots_{next(_databases)}", template=request.getfixturevalue("postgres_template")
        )
    with running(
        data, "bot-tests-NvKLJPKUgPK5y9LFX_A9ZVUsSxjRCuTG", url, KODAMA_BUILTIN_BOTS="true"
    ) as srv:
        srv.tokens = {name: register_bot(srv.base, name) for name in ("alpha", "beta")}  # type: ignore[attr-defined]
        yield srv


def register_bot(base: str, name: str) -> str:
    """Registers ``name``, gets a token with the bot scopes, upgrades it to BOT: the token."""
    password = f"{name}-secret-password"
    answer = httpx.post(
        f"{base}/api/account/register", json={"username": name, "password": password}
    )
    assert answer.status_code in (200, 201), answer.text
    answer = httpx.post(
        f"{base}/api/token",
        json={"username": name, "password": password, "scopes": SCOPES, "description": "tests"},
    )
    assert answer.status_code in (200, 201), answer.text
    token = str(answer.json()["token"])
    answer = httpx.post(
        f"{base}/api/bot/account/upgrade", headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status_code == 200, answer.text
    return token


def tokens(server: Server) -> dict[str, str]:
    found: dict[str, str] = server.tokens  # type: ignore[attr-defined]
    return found


async def with_bots(
    server: Server,
    bots: dict[str, tuple[Callable[[], Any], Settings]],
    body: Callable[[dict[str, Runner]], Awaitable[None]],
) -> None:
    """Runs a runner per bot (name -> player factory, settings) while ``body`` runs."""
    runners = {
        name: Runner(Client(server.base, tokens(server)[name]), factory, settings)
        for name, (factory, settings) in bots.items()
    }
    tasks = [asyncio.create_task(r.run()) for r in runners.values()]
    try:
        # Each runner has read its account before it opens its event stream.
        await wait_for(lambda: all(r.me for r in runners.values()), 30)
        await body(runners)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for runner in runners.values():
            await runner.client.close()


async def wait_for(done: Callable[[], bool], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.05)


async def finished_game(
    client: httpx.AsyncClient, game_id: str, seconds: float = 180
) -> dict[str, Any]:
    """The game's export once it is over. A challenge's id is its game's once accepted:
    until the bot has accepted it (at once, or later on a busy machine) there is no game."""
    deadline = time.monotonic() + seconds
    while True:
        answer = await client.get(f"/api/game/{game_id}")
        if answer.status_code == 404 and time.monotonic() < deadline:
            await asyncio.sleep(0.3)
            continue
        assert answer.status_code == 200, answer.text
        game: dict[str, Any] = answer.json()
        if game["status"] in ENDED or game["status"] == "variantEnd":
            return game
        assert time.monotonic() < deadline, f"game {game_id} not over: {game}"
        await asyncio.sleep(0.3)


def check_played_out(game: dict[str, Any]) -> engine.Result:
    """Replays the game's moves with the engine: every move legal, and the game ended by the
    rules with the result the server reports."""
    rules = engine.get_game(game["variant"]["key"], **game["rules"])
    pos = rules.start()
    for move in game["moves"].split():
        pos = rules.play(pos, move)
    result = rules.result(pos)
    assert result is not None, f"{game['id']} is not over by the rules: {game['status']}"
    assert game["status"] == ("mate" if result.reason == "checkmate" else "variantEnd")
    assert game["reason"] == result.reason
    colour = {"first": "white", "second": "black", None: None}[result.winner]
    assert game["winner"] == colour
    assert rules.to_text(pos) == game["fen"]
    return result


def test_two_bots_play_a_complete_game_of_each_game(server: Server) -> None:
    """alpha (the easy level) challenges beta (random) to one game of each of the five games
    at once; both play them all through the streams to a result by the rules."""
    fast = Settings(time_budget_s=0.05, max_games=len(engine.game_ids()))
    bots = {
        "alpha": (lambda: make_player("easy", seed=1), fast),
        "beta": (lambda: RandomPlayer(seed=2), fast),
    }

    async def body(runners: dict[str, Runner]) -> None:
        alpha = runners["alpha"].client
        ids = []
        for i, game_id in enumerate(engine.game_ids()):
            terms: dict[str, Any] = {"variant": game_id, "color": ("white", "black")[i % 2]}
            if i % 2:
                terms["clock"] = {"limit": 300, "increment": 2}
            challenge = await alpha.challenge("beta", **terms)
            assert challenge["status"] == "created"
            ids.append(challenge["id"])
        async with httpx.AsyncClient(base_url=server.base) as http:
            games = [await finished_game(http, game_id) for game_id in ids]
        results = {}
        for game_id, game in zip(engine.game_ids(), games, strict=True):
            assert game["variant"]["key"] == game_id
            names = {game["players"][c]["user"]["name"] for c in ("white", "black")}
            assert names == {"alpha", "beta"}
            results[game_id] = check_played_out(game)
            assert len(game["moves"].split()) >= 2
        # Every game is over for the runners too: their game tasks have ended.
        await wait_for(lambda: not runners["alpha"].games and not runners["beta"].games, 30)
        assert set(results) == set(engine.game_ids())

    asyncio.run(with_bots(server, bots, body))


def test_a_bot_declines_a_game_it_does_not_play(server: Server) -> None:
    only_dobutsu = Settings(time_budget_s=0.05, games=("dobutsu",))
    bots = {"beta": (lambda: RandomPlayer(seed=3), only_dobutsu)}

    async def body(runners: dict[str, Runner]) -> None:
        async with Client(server.base, tokens(server)["alpha"]) as alpha:
            challenge = await alpha.challenge("beta", variant="jungle")
            shown: dict[str, Any] = {}

            async def declined() -> None:
                shown.update(await alpha.request("GET", f"/api/challenge/{challenge['id']}/show"))

            deadline = time.monotonic() + 30
            while shown.get("status") != "declined":
                assert time.monotonic() < deadline, shown
                await declined()
                await asyncio.sleep(0.1)
            assert shown["declineReasonKey"] == "variant"
            online = (await alpha.http.get("/api/bot/online")).text.splitlines()
            assert any('"beta"' in line and '"games":["dobutsu"]' in line for line in online)

    asyncio.run(with_bots(server, bots, body))


def test_the_built_in_opponents_accept_challenges_and_play(server: Server) -> None:
    """The server's own bot process: online, and it plays a challenge through to the end."""
    fast = Settings(time_budget_s=0.05)
    bots = {"alpha": (lambda: make_player("easy", seed=4), fast)}

    async def body(runners: dict[str, Runner]) -> None:
        alpha = runners["alpha"].client
        deadline = time.monotonic() + 60
        while True:  # the server starts its bots in the background
            online = (await alpha.http.get("/api/bot/online")).text
            if all(f'"kodama-{level}"' in online for level in ("random", "easy", "medium", "hard")):
                break
            assert time.monotonic() < deadline, online
            await asyncio.sleep(0.3)
        ids = [
            (await alpha.challenge("kodama-random", variant="yote", color="white"))["id"],
            (await alpha.challenge("kodama-easy", variant="dobutsu", color="black"))["id"],
        ]
        async with httpx.AsyncClient(base_url=server.base) as http:
            for game_id in ids:
                game = await finished_game(http, game_id)
                check_played_out(game)
                players = {game["players"][c]["user"]["name"] for c in ("white", "black")}
                assert players & {"kodama-random", "kodama-easy"}
                answer = await http.get(
                    f"/api/bot/game/{game_id}/chat",
                    headers={"Authorization": f"Bearer {tokens(server)['alpha']}"},
                )
                assert answer.status_code == 200, answer.text
                assert any("kodama-" in line["text"] for line in answer.json())

    asyncio.run(with_bots(server, bots, body))
