"""Computer reviews running behind bench/server.py's loads (``--reviews N``): N games are
played to a finish (random legal moves over the game socket, then a resignation), each
one's review is requested by one of its players, and once the loads are measured the
reviews' states are counted, to show they were running meanwhile."""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection

REVIEW_PLIES = 30  # moves of each reviewed game at most


async def _next(ws: ClientConnection, kinds: tuple[str, ...]) -> dict[str, Any]:
    async with asyncio.timeout(30):
        while True:
            message: dict[str, Any] = json.loads(await ws.recv())
            if message.get("type") in kinds:
                return message


async def finished_game(
    port: int, made: tuple[str, str, str], seed: str, open_socket: Any, first_state: Any
) -> str:
    """Play the made game (id, first's cookie, second's) to REVIEW_PLIES random moves, then
    resign for whoever is to move: its id."""
    game_id, first_cookie, second_cookie = made
    url = f"ws://127.0.0.1:{port}/ws/game/{game_id}"
    seats = {"first": await open_socket(url, first_cookie)}
    seats["second"] = await open_socket(url, second_cookie)
    state = await first_state(seats["first"])
    await first_state(seats["second"])
    rng = random.Random(seed)
    turn, legal, status = state["turn"], state["legalMoves"], state["status"]
    try:
        for ply in range(REVIEW_PLIES):
            if status != "started" or not legal:
                break
            ws = seats[turn]
            await ws.send(json.dumps({"type": "move", "move": rng.choice(legal), "ply": ply}))
            while True:
                got = await _next(ws, ("move", "state", "error"))
                if got["type"] == "error":
                    raise RuntimeError(f"a reviewed game's move was refused: {got}")
                if got.get("ply") == ply + 1:
                    break
            game = got.get("game", got)
            turn, legal, status = game["turn"], game["legalMoves"], game["status"]
        if status == "started":
            await seats[turn].send(json.dumps({"type": "resign"}))
            await _next(seats[turn], ("state",))
    finally:
        for ws in seats.values():
            await ws.close()
    return game_id


async def request_reviews(port: int, made: list[tuple[str, str, str]]) -> list[str]:
    """Each game's review asked by its first player: the games' ids."""
    base = f"http://127.0.0.1:{port}"
    async with httpx.AsyncClient(base_url=base, trust_env=False, timeout=30) as web:
        for game_id, cookie, _ in made:
            asked = await web.post(
                f"/api/game/{game_id}/analysis", headers={"Cookie": f"kodama_player={cookie}"}
            )
            asked.raise_for_status()
    return [m[0] for m in made]


async def review_states(port: int, ids: list[str]) -> str:
    """How many of the reviews are done, running, queued: "2 done, 1 running, 1 queued"."""
    base = f"http://127.0.0.1:{port}"
    counts: Counter[str] = Counter()
    async with httpx.AsyncClient(base_url=base, trust_env=False, timeout=30) as web:
        for game_id in ids:
            found = await web.get(f"/api/game/{game_id}/analysis")
            found.raise_for_status()
            body = found.json()
            progress = body.get("progress", {})
            label = body["status"]
            if label == "running":
                label += f" ({progress.get('done')}/{progress.get('total')} positions)"
            counts[label] += 1
    return ", ".join(f"{n} {label}" for label, n in sorted(counts.items()))
