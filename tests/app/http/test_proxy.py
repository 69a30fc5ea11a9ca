"""Two real server processes on one PostgreSQL behind real nginx, run with the repository's
config (deploy/nginx/kodama.conf): a game whose first player connects through the proxy, and
whose second player and a spectator connect directly to different instances. Moves, presence,
draw offers, a claim and the end reach everyone; an instance killed mid-game (``kill -9``)
and the game goes on through the other. Select with ``-m proxy``."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from app.http.identity import COOKIE
from tests.nginx import UPSTREAM_HEADER, Nginx
from tests.server import Server, running

pytestmark = pytest.mark.proxy

SECRET = "proxy-test-Qm4vX8rT1zLw0pN6sKd3HyB7"
TRY_GAME = ["b1c2", "b4a3", "c2c3", "a3a2", "c3c4"]  # dobutsu: first's lion walks to c4
SETTINGS = {
    "KODAMA_GONE_SECONDS": "0",  # a claim is allowed as soon as the opponent is gone
    "KODAMA_GONE_UNMOVED_SECONDS": "0",
    "KODAMA_PRESENCE_FLUSH_SECONDS": "0",
    "KODAMA_PRESENCE_BEAT_SECONDS": "0.5",  # a killed instance's report expires in ~2 s
}


@dataclass
class Site:
    one: Server
    two: Server
    proxy: Nginx


@pytest.fixture
def site(postgres_url: str, tmp_path: Path) -> Iterator[Site]:
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    with (
        running(tmp_path / "one", SECRET, postgres_url, **SETTINGS) as one,
        running(tmp_path / "two", SECRET, postgres_url, **SETTINGS) as two,
    ):
        proxy = Nginx([one.port, two.port], tmp_path / "nginx")
        proxy.start()
        try:
            yield Site(one, two, proxy)
        finally:
            proxy.stop()


class Person:
    """A browser: its cookie, and a socket to the game at one address."""

    def __init__(self, base: str) -> None:
        self.web = httpx.Client(base_url=base, timeout=15)
        self.web.get("/api/me").raise_for_status()  # the first visit gives the cookie
        self.ws: ClientConnection | None = None
        self._socket = contextlib.ExitStack()
        self.upstream: str | None = None  # the instance behind the proxy (its address)

    def open(self, base: str, game_id: str) -> dict[str, Any]:
        """A socket to ``base`` (a server or the proxy); its first message, the state."""
        cookie = f"{COOKIE}={self.web.cookies[COOKIE]}"
        url = base.replace("http://", "ws://") + f"/ws/game/{game_id}"
        self.ws = self._socket.enter_context(connect(url, additional_headers={"Cookie": cookie}))
        assert self.ws.response is not None
        self.upstream = self.ws.response.headers.get(UPSTREAM_HEADER)
        return self.next("state")

    def close(self) -> None:
        self._socket.close()
        self.ws = None

    def send(self, **message: Any) -> None:
        assert self.ws is not None
        self.ws.send(json.dumps(message))

    def next(self, kind: str, **match: Any) -> dict[str, Any]:
        assert self.ws is not None
        for _ in range(60):
            message: dict[str, Any] = json.loads(self.ws.recv(timeout=15))
            if message["type"] == kind and all(message.get(k) == v for k, v in match.items()):
                return message
        raise AssertionError(f"no {kind} {match}")

    def state_until(self, **game: Any) -> dict[str, Any]:
        for _ in range(20):
            state: dict[str, Any] = self.next("state")["game"]
            if all(state.get(k) == v for k, v in game.items()):
                return state
        raise AssertionError(f"no state with {game}")

    def alive(self) -> bool:
        """Whether its socket still answers (the instance behind it may have been killed)."""
        try:
            self.send(type="ping")
            self.next("pong")
        except (ConnectionClosed, OSError, TimeoutError):
            return False
        return True


def _everyone_sees(people: list[Person], **presence: Any) -> None:
    for person in people:
        person.next("presence", **presence)


def _play(first: Person, second: Person, watchers: list[Person], plies: range) -> None:
    for ply in plies:
        mover, other = (first, second) if ply % 2 == 0 else (second, first)
        mover.send(type="move", move=TRY_GAME[ply], ply=ply)
        for person in (mover, other, *watchers):
            person.next("move", ply=ply + 1)


def test_a_game_through_the_proxy_and_two_instances_survives_one_killed(site: Site):
    proxy = site.proxy.base
    alice, carol = Person(proxy), Person(proxy)
    created = alice.web.post("/api/games", json={"variant": "dobutsu", "color": "first"})
    created.raise_for_status()
    game_id = created.json()["id"]
    token = created.json()["inviteUrl"].rsplit("/", 1)[1]

    # alice through the proxy (to the instance her game's id hashes to: "hers"), bob directly
    # to that one, carol (a spectator) directly to the other
    alice.open(proxy, game_id)
    hers, other = (site.one, site.two)
    if alice.upstream == f"127.0.0.1:{site.two.port}":
        hers, other = other, hers
    assert alice.upstream == f"127.0.0.1:{hers.port}"
    bob = Person(hers.base)
    bob.web.post(f"/api/invite/{token}").raise_for_status()
    alice.state_until(status="started")
    bob.open(hers.base, game_id)
    carol.open(other.base, game_id)
    everyone = [alice, bob, carol]
    both = {"first": True, "second": True}
    _everyone_sees(everyone, online=both, spectators=1)

    # bob is connected (to another instance than carol's): no claim against him
    alice.send(type="claim", result="victory")
    assert alice.next("error")["code"] == "claim.opponent_present"
    _play(alice, bob, [carol], range(0, 2))

    # a draw offered and declined: everyone sees both
    alice.send(type="draw", action="offer")
    for person in everyone:
        person.state_until(drawOffer="first")
    bob.send(type="draw", action="decline")
    for person in everyone:
        person.state_until(drawOffer=None)

    # alice's and bob's instance is killed mid-game: bob goes to the other one, alice
    # reconnects through the proxy (which now sends her there too); the game goes on
    hers.kill()
    for person in (alice, bob):
        assert not person.alive()
        person.close()
    assert alice.open(proxy, game_id)["game"]["ply"] == 2
    assert alice.upstream is not None  # (nginx tried the killed one first, maybe: a list)
    assert alice.upstream.split(", ")[-1] == f"127.0.0.1:{other.port}"
    assert bob.open(other.base, game_id)["game"]["ply"] == 2
    _everyone_sees([alice, carol], online=both, spectators=1)
    _play(alice, bob, [carol], range(2, 4))

    # bob leaves: everyone sees him gone, and alice claims the game
    bob.close()
    _everyone_sees([alice, carol], online={"first": True, "second": False}, spectators=1)
    alice.send(type="claim", result="victory")
    result = {"winner": "first", "reason": "opponent_gone", "status": "timeout"}
    assert alice.state_until(status="timeout")["result"] == result
    assert carol.state_until(status="timeout")["result"] == result
    assert bob.open(proxy, game_id)["game"]["result"] == result  # back: he sees the end
    for person in everyone:
        person.close()
