"""Races that would break invariants, fired at a real server process (uvicorn) on SQLite and
PostgreSQL: requests released together by a barrier, over connections opened beforehand, so
that they really overlap in the server.

- One player never holds both seats of an open challenge (nor of its game), however its two
  links are opened at once.
- A new visitor's first requests, all at once with the same fresh cookie, all succeed: the
  player row is created once, never a duplicate key (a 500).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.http.identity import COOKIE
from tests.server import Server, running

ROUNDS = 12


@pytest.fixture(params=["sqlite", "postgres"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    url = request.getfixturevalue("postgres_url") if request.param == "postgres" else None
    # Rate limits out of the way: this many challenges and accepts from one address are the
    # point here, not an abuse.
    with running(
        tmp_path,
        "races-C6sTmq6Z-392FaCDXbMQQbvLH48w8SkA",
        url,
        KODAMA_RATELIMIT_CHALLENGE_BURST="10000",
        KODAMA_RATELIMIT_CHALLENGE_PER_S="1000",
    ) as srv:
        yield srv


def fresh_cookie(server: Server) -> str:
    """A new visitor's identity cookie, as the first page view gives it (no player row yet)."""
    response = httpx.get(f"{server.base}/api/me", timeout=10)
    response.raise_for_status()
    return f"{COOKIE}={response.cookies[COOKIE]}"


def at_once(
    server: Server, cookie: str, requests: list[Callable[[httpx.Client], httpx.Response]]
) -> list[httpx.Response]:
    """Run the requests together, each on its own connection already open, all released by
    one barrier."""
    clients = [
        httpx.Client(base_url=server.base, timeout=30, headers={"cookie": cookie}) for _ in requests
    ]
    try:
        for client in clients:
            client.get("/api/variants").raise_for_status()  # the connection is open now
        barrier = threading.Barrier(len(requests))

        def fire(index: int) -> httpx.Response:
            barrier.wait(timeout=30)
            return requests[index](clients[index])

        with ThreadPoolExecutor(len(requests)) as pool:
            return list(pool.map(fire, range(len(requests))))
    finally:
        for client in clients:
            client.close()


def test_one_player_opening_both_links_of_an_open_challenge_at_once_takes_one_seat(
    server: Server,
) -> None:
    creator = httpx.Client(base_url=server.base, timeout=30)
    bob = fresh_cookie(server)
    with httpx.Client(base_url=server.base, timeout=30, headers={"cookie": bob}) as warm:
        # Bob's player row exists before the races: this test is about the seats alone.
        warm.post("/api/challenge/open", json={"variant": "dobutsu"}).raise_for_status()
        bob_id = warm.get("/api/me").json()["id"]
    for _ in range(ROUNDS):
        created = creator.post("/api/challenge/open", json={"variant": "dobutsu"})
        created.raise_for_status()
        cid = created.json()["id"]

        def accept(color: str, cid: str = cid) -> Callable[[httpx.Client], httpx.Response]:
            return lambda client: client.post(f"/api/challenge/{cid}/accept?color={color}")

        answers = at_once(server, bob, [accept("white"), accept("black")])
        for answer in answers:
            # Both are clean answers: the seat taken, or "already seated, nothing more".
            assert answer.status_code == 200, answer.text
            seats = answer.json()["challenge"]["seats"]
            assert [seats["white"], seats["black"]].count(None) == 1, seats
        shown = creator.get(f"/api/challenge/{cid}/show").json()
        assert shown["status"] == "created", shown
        held = [s["id"] for s in shown["seats"].values() if s is not None]
        assert held == [bob_id], shown["seats"]
        game = creator.get(f"/api/games/{cid}")
        assert game.status_code == 404, game.text  # no game with bob on both sides
    creator.close()


def test_a_new_visitors_first_requests_at_once_all_succeed(server: Server) -> None:
    def create(client: httpx.Client) -> httpx.Response:
        return client.post("/api/games", json={"variant": "yote", "public": False})

    def open_challenge(client: httpx.Client) -> httpx.Response:
        return client.post("/api/challenge/open", json={"variant": "wali"})

    for _ in range(ROUNDS):
        cookie = fresh_cookie(server)
        answers = at_once(server, cookie, [create, create, open_challenge, open_challenge])
        codes = [a.status_code for a in answers]
        assert codes == [201, 201, 200, 200], [a.text for a in answers]
        with httpx.Client(base_url=server.base, timeout=30, headers={"cookie": cookie}) as c:
            me: dict[str, Any] = c.get("/api/me").json()
        creators = {a.json()["game"]["players"]["creator"]["id"] for a in answers[:2]}
        challengers = {a.json()["challenger"]["id"] for a in answers[2:]}
        assert creators == challengers == {me["id"]}
