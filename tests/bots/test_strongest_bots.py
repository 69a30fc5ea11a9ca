"""The strongest built-in opponents on a real server: with Fairy-Stockfish installed (Debian's
package: the ``fairy`` fixture, tests/bots/conftest.py) the server runs it as
``kodama-fairy`` and it plays a Gorogoro game to the end; ``kodama-perfect`` plays from the
table it is given (a reduced problem's here) and wins a won position, and declines a
ruleset with no table."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from engine.core import RuleReason
from tests.bots.test_bridge import wait_finished, wait_online
from tests.bots.test_perfect import build
from tests.server import Server, account_token, running

ROOT = Path(__file__).resolve().parents[2]
RULE_REASONS = {reason.value for reason in RuleReason}
# A reduced problem: a lion each and a giraffe in first's hand, first wins in 5 plies.
WON = "l2/3/3/2L f G"
WON_IN = 5


@pytest.fixture
def server(fairy: str, tmp_path: Path) -> Iterator[Server]:
    build(tmp_path / "tables", WON)
    with running(
        tmp_path,
        "strongest-bots-Vx7Kp2Qm9Rt4Lw8Nz3Hc",
        KODAMA_BUILTIN_BOTS="true",
        KODAMA_FAIRY_STOCKFISH=fairy,
        KODAMA_TABLEBASE_PATH=str(tmp_path / "tables"),
    ) as srv:
        wait_online(srv, "kodama-fairy")
        wait_online(srv, "kodama-perfect")
        yield srv


def online(server: Server) -> dict[str, list[str]]:
    """The bots online: username -> the games it plays."""
    text = httpx.get(f"{server.base}/api/bot/online", timeout=10).text
    bots = [json.loads(line) for line in text.splitlines() if line.strip()]
    return {bot["username"]: bot["bot"]["games"] for bot in bots}


def test_fairy_stockfish_and_perfect_play_on_the_server(server: Server, tmp_path: Path) -> None:
    games = online(server)
    assert sorted(games["kodama-fairy"]) == ["dobutsu", "gorogoro"]
    assert games["kodama-perfect"] == ["dobutsu"]
    seats = {r["username"]: r for r in httpx.get(f"{server.base}/api/builtin/seats").json()}
    assert seats["kodama-perfect"]["rulesets"] == ["dobutsu"]
    assert "kodama-fairy" in seats

    # A random bot of the test's challenges them; its runner plays its side.
    token = account_token(server, "random-mover", "bot:play,challenge:read,challenge:write")
    web = httpx.Client(
        base_url=server.base, headers={"Authorization": f"Bearer {token}"}, timeout=30
    )
    web.post("/api/bot/account/upgrade").raise_for_status()
    log = (tmp_path / "random.log").open("w+")
    mover = subprocess.Popen(
        [sys.executable, "-m", "bots.random", "--server", server.base, "--seed", "5"],
        cwd=ROOT,
        env={**os.environ, "KODAMA_BOT_TOKEN": token},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_online(server, "random-mover")
        # Fairy-Stockfish plays Gorogoro to the end, rated.
        made = web.post(
            "/api/challenge/kodama-fairy",
            json={"variant": "gorogoro", "color": "white", "rated": True},
        )
        made.raise_for_status()
        finished = wait_finished(web, made.json()["id"])
        assert finished.get("reason") in RULE_REASONS, finished
        assert finished["players"]["black"]["user"]["name"] == "kodama-fairy"
        assert finished["rated"] is True

        # Perfect play wins a won position, within the table's distance.
        made = web.post(
            "/api/challenge/kodama-perfect",
            json={"variant": "dobutsu", "color": "black", "fen": WON},
        )
        made.raise_for_status()
        finished = wait_finished(web, made.json()["id"])
        assert finished["players"]["white"]["user"]["name"] == "kodama-perfect"
        assert finished.get("winner") == "white", finished
        assert len(finished["moves"].split()) <= WON_IN

        # No yokai table here: declined, with lichess's reason. The request stays open until
        # the answer (keepAliveStream): the challenge, then how it ended.
        asked = {"variant": "dobutsu", "rules": {"ruleset": "yokai"}, "keepAliveStream": True}
        with web.stream("POST", "/api/challenge/kodama-perfect", json=asked) as stream:
            stream.raise_for_status()
            lines = [json.loads(line) for line in stream.iter_lines() if line.strip()]
        assert lines[-1] == {"done": "declined"}, lines
        answer = web.get(f"/api/challenge/{lines[0]['id']}/show").json()
        assert answer["status"] == "declined" and answer["declineReason"], answer
        log.seek(0)
        assert "Traceback" not in log.read()
    finally:
        mover.terminate()
        mover.wait(timeout=30)
        web.close()
        log.close()
