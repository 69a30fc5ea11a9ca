"""The engine bridge (bots/bridge.py, bots/engineproc.py): Kodama's notation to USI and UCI
and back; Fairy-Stockfish, with the shipped variants file, knowing exactly Kodama's legal
moves; and Fairy-Stockfish playing built-in opponents on a real server, to the end."""

from __future__ import annotations

import logging
import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import engine
from bots.bridge import BridgeRunner
from bots.client import Client
from bots.engineproc import BOARDS, PROTOCOLS, VARIANTS_FILE, Dialect, EnginePlayer, EngineProcess
from bots.players import RandomPlayer
from bots.runner import Settings
from engine.core import RuleReason
from tests.server import Server, account_token, running

ROOT = Path(__file__).resolve().parents[2]
OPPONENT = "kodama-random"
# Endings by the rules: neither an abort nor a forfeit (an illegal move is refused, and the
# bridge would then lose on time or abandonment).
RULE_REASONS = {reason.value for reason in RuleReason}


def playouts(game_id: str, count: int, seed: int) -> Iterator[tuple[list[str], engine.Position]]:
    """Positions of random games (the moves from the start, and the position), not over."""
    game = engine.get_game(game_id)
    rng = random.Random(seed)
    for _ in range(count):
        position, moves = game.start(), list[str]()
        yield moves[:], position
        for _ply in range(rng.randrange(1, 40)):
            legal = game.legal_moves(position)
            if not legal:
                break
            move = rng.choice(legal)
            after = game.play(position, move)
            if game.result(after) is not None:
                break
            moves.append(move)
            position = after
            yield moves[:], position


# ---- notation, without an engine ---------------------------------------------------------
@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("game_id", sorted(BOARDS))
def test_every_move_goes_out_and_comes_back_unchanged(protocol: str, game_id: str) -> None:
    game = engine.get_game(game_id)
    dialect = Dialect.of(protocol, game_id)
    seen = 0
    for _moves, position in playouts(game_id, 30, seed=3):
        for move in game.legal_moves(position):
            out = dialect.move_out(move)
            assert "*" not in out if protocol == "uci" else "@" not in out
            assert dialect.move_in(out) == move
            seen += 1
    assert seen > 1000


def test_squares_and_moves_in_each_protocol() -> None:
    uci, usi = Dialect.of("uci", "dobutsu"), Dialect.of("usi", "dobutsu")
    assert uci.move_out("C*a3") == "C@a3" and uci.move_out("b3b4+") == "b3b4+"
    # USI: files numbered from first's right, ranks lettered from the top.
    assert [usi.square_out(s) for s in ("a1", "c1", "a4", "b2")] == ["3d", "1d", "3a", "2c"]
    assert usi.move_out("b2b3") == "2c2b" and usi.move_out("C*a3") == "C*3b"
    assert usi.move_in("2b2a+") == "b3b4+" and uci.move_in("c@a3") == "C*a3"
    gorogoro = Dialect.of("usi", "gorogoro")
    assert gorogoro.square_out("a1") == "5f" and gorogoro.square_in("1a") == "e6"


def test_positions_in_each_protocol() -> None:
    start = "gle/1c1/1C1/ELG f -"
    uci, usi = Dialect.of("uci", "dobutsu"), Dialect.of("usi", "dobutsu")
    assert uci.position_out(start) == "fen gle/1c1/1C1/ELG[] w - - 0 1"
    assert usi.position_out(start) == "sfen gle/1c1/1C1/ELG b - 1"
    taken = "gle/1C1/3/ELG s C -6CMJHfG"  # after b2b3: first holds a chick
    assert uci.position_out(taken) == "fen gle/1C1/3/ELG[C] b - - 0 1"
    assert usi.position_out("g1e/1L1/3/E1G s 2Cgl") == "sfen g1e/1L1/3/E1G w 2Cgl 1"
    assert uci.position_out("g1e/1L1/3/E1G s 2Cgl") == "fen g1e/1L1/3/E1G[CCgl] b - - 0 1"
    assert (
        usi.position_command(start, ["b2b3", "b4a3"])
        == "position sfen gle/1c1/1C1/ELG b - 1 moves 2c2b 2a3b"
    )


def test_clocks_are_passed_on() -> None:
    state = {"wtime": 60_000, "btime": 55_000, "winc": 2000, "binc": 2000}
    uci, usi = Dialect.of("uci", "gorogoro"), Dialect.of("usi", "gorogoro")
    assert uci.go_command(state, 100) == "go wtime 60000 btime 55000 winc 2000 binc 2000"
    # USI: b (sente) is first, Kodama's white.
    assert usi.go_command(state, 100) == "go btime 60000 wtime 55000 binc 2000 winc 2000"
    byoyomi = {"wtime": 0, "btime": 30_000, "byoyomi": 10_000}
    assert usi.go_command(byoyomi, 100) == "go btime 0 wtime 30000 binc 0 winc 0 byoyomi 10000"
    assert uci.go_command(byoyomi, 100).startswith("go wtime 10000 btime 40000")
    # The way to the server is taken off: the engine must not use the whole period.
    assert usi.go_command(byoyomi, 100, 300).endswith("wtime 29700 binc 0 winc 0 byoyomi 9700")
    assert uci.go_command(state, 100, 300).startswith("go wtime 59700 btime 54700")
    untimed = {"wtime": 2_147_483_647, "btime": 2_147_483_647}
    assert uci.go_command(untimed, 250) == "go movetime 250"


def test_challenges_are_filtered_by_game_and_rules() -> None:
    settings = Settings(games=("dobutsu",), rated=False)
    bridge = BridgeRunner(Client("http://127.0.0.1:9", "kdm_x"), RandomPlayer, settings)

    def challenge(variant: str, **rules: str) -> dict[str, Any]:
        return {"id": "c1", "variant": {"key": variant}, "rules": rules, "rated": False}

    assert bridge.decline_reason(challenge("dobutsu")) is None
    assert bridge.decline_reason(challenge("dobutsu", ruleset="dobutsu")) is None
    # The engine's dōbutsu has one ruleset: the Yōkaï no Mori sheet is another game.
    assert bridge.decline_reason(challenge("dobutsu", ruleset="yokai")) == "variant"
    assert bridge.decline_reason(challenge("gorogoro")) == "variant"
    assert bridge.decline_reason({**challenge("dobutsu"), "rated": True}) == "casual"


# ---- Fairy-Stockfish (the ``fairy`` fixture: tests/bots/conftest.py) ----------------------
def engine_moves(
    process: EngineProcess, game_id: str, moves: list[str], start: str | None = None
) -> set[str]:
    """The engine's legal moves (``go perft 1``) after ``moves``, in Kodama's notation."""
    game = engine.get_game(game_id)
    dialect = Dialect.of(process.protocol, game_id)
    process.use_variant(game_id)
    process.send(dialect.position_command(start or game.to_text(game.start()), moves))
    process.send("go perft 1")
    lines = process.expect("Nodes", 10)
    return {
        dialect.move_in(line.split(":")[0]) for line in lines if re.fullmatch(r"\S+: \d+", line)
    }


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_fairy_stockfish_lists_kodamas_legal_moves_on_random_positions(
    fairy: str, protocol: str
) -> None:
    process = EngineProcess(fairy, protocol)
    process.start()
    try:
        assert set(process.games()) == set(BOARDS)
        for game_id in sorted(BOARDS):
            game = engine.get_game(game_id)
            for moves, position in playouts(game_id, 12, seed=11):
                expected = set(game.legal_moves(position))
                assert engine_moves(process, game_id, moves) == expected, (game_id, moves)
    finally:
        process.close()


def test_an_engine_that_exited_is_started_again(fairy: str) -> None:
    process = EngineProcess(fairy, "usi")
    process.start()
    try:
        assert process.process is not None
        process.process.kill()
        process.process.wait()
        start = "gle/1c1/1C1/ELG f -"
        answer = process.best_move("dobutsu", start, ["b2b3"], "go movetime 20", 0.02)
    finally:
        process.close()
    game = engine.get_game("dobutsu")
    after = game.play(game.start(), "b2b3")
    assert Dialect.of("usi", "dobutsu").move_in(answer) in game.legal_moves(after)


# A chick that may step onto the last rank; a pawn in hand whose drop on e5 would mate.
CHICK = "l2/1C1/3/1L1 f 2E2Gc"
PAWN_MATE = "3pk/5/4G/5/5/K4 f P"


@pytest.mark.parametrize("variants", [None, VARIANTS_FILE])
def test_the_variants_file_makes_a_chick_promote(fairy: str, variants: Path | None) -> None:
    """Fairy-Stockfish's own dōbutsu lets a chick stay one on the last rank; with the shipped
    file it must promote, as in Kodama."""
    process = EngineProcess(fairy, "uci", variants=variants)
    process.start()
    try:
        chick = engine_moves(process, "dobutsu", [], CHICK)
    finally:
        process.close()
    assert "b3b4+" in chick
    assert ("b3b4" in chick) is (variants is None)


def test_fairy_stockfish_never_plays_the_pawn_drop_that_mates(fairy: str) -> None:
    """Its move list has the drop (``perft``), but its search, with the shipped file, never
    plays it: here the pawn in hand mates at once on e5, and the engine mates otherwise."""
    process = EngineProcess(fairy, "uci")
    process.start()
    try:
        assert "P*e5" in engine_moves(process, "gorogoro", [], PAWN_MATE)
        go = "go movetime 100"
        answer = process.best_move("gorogoro", PAWN_MATE, [], go, 0.1)
    finally:
        process.close()
    assert answer != "P@e5"


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_move_kodama_refuses_is_never_sent(
    fairy: str, protocol: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A variants file whose gorogoro allows the pawn drop that mates: the engine answers it,
    and the player has the engine search again among Kodama's legal moves."""
    loose = tmp_path / "loose.ini"
    loose.write_text("[kodama-gorogoro:gorogoro]\nshogiPawnDropMateIllegal = false\n")
    game = engine.get_game("gorogoro")
    position = game.from_text(PAWN_MATE)
    process = EngineProcess(fairy, protocol, variants=loose)
    process.start()
    try:
        dialect = Dialect.of(protocol, "gorogoro")
        answer = process.best_move("gorogoro", PAWN_MATE, [], "go movetime 100", 0.1)
        assert dialect.move_in(answer) == "P*e5"
        player = EnginePlayer(process, movetime_ms=100)
        player.observe(PAWN_MATE, {"moves": ""})
        with caplog.at_level(logging.INFO, logger="bots.engineproc"):
            move = player.choose(game, position, 0.1)
    finally:
        process.close()
    assert move in game.legal_moves(position)
    assert "searching Kodama's moves" in caplog.text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


# ---- on a server -------------------------------------------------------------------------
@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with running(
        tmp_path, "engine-bridge-fairy-Hq4Zt8Wn2Lc6Rb9X", KODAMA_BUILTIN_BOTS="true"
    ) as srv:
        wait_online(srv, OPPONENT)
        yield srv


def wait_online(server: Server, username: str) -> None:
    deadline = time.monotonic() + 90
    while username not in httpx.get(f"{server.base}/api/bot/online", timeout=10).text:
        assert time.monotonic() < deadline, f"{username} never came online"
        time.sleep(0.1)  # polling another process, not making time pass


# Dōbutsu on a clock the engine is given (lichess's Fischer clock in UCI, byo-yomi in USI);
# gorogoro without one (go movetime).
CLOCKS = {
    "uci": ({"limit": 3, "increment": 1}, " < go wtime "),
    # (periods of 2 s, of which the engine is given 500 ms: a loaded machine's latency fits)
    "usi": ({"limit": 1, "byoyomi": 2, "periods": 5}, " byoyomi 500"),
}


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_fairy_stockfish_plays_both_games_to_the_end(
    fairy: str, server: Server, tmp_path: Path, protocol: str
) -> None:
    name = f"fairy-{protocol}"
    token = account_token(server, name, "bot:play,challenge:read,challenge:write")
    auth = {"Authorization": f"Bearer {token}"}
    web = httpx.Client(base_url=server.base, headers=auth, timeout=30)
    web.post("/api/bot/account/upgrade").raise_for_status()
    log = (tmp_path / "bridge.log").open("w+")
    bridge = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bots.bridge",
            "--server",
            server.base,
            "--engine",
            fairy,
            "--protocol",
            protocol,
            "--movetime",
            "30",
            "--overhead",
            "1500",
            "--verbose",  # the engine's dialogue is in the log
        ],
        cwd=ROOT,
        env={**os.environ, "KODAMA_BOT_TOKEN": token},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_online(server, name)
        online = [
            line
            for line in httpx.get(f"{server.base}/api/bot/online").text.splitlines()
            if f'"{name}"' in line
        ]
        assert '"games":["dobutsu","gorogoro"]' in online[0]
        clock, go = CLOCKS[protocol]
        terms: dict[str, dict[str, Any]] = {"dobutsu": {"clock": clock}, "gorogoro": {}}
        for game_id, clock_terms in terms.items():
            body = {"variant": game_id, "color": "white", **clock_terms}
            created = web.post(f"/api/challenge/{OPPONENT}", json=body)
            created.raise_for_status()
            finished = wait_finished(web, created.json()["id"])
            assert finished["status"] not in ("aborted", "outoftime", "timeout", "resign")
            assert finished.get("reason") in RULE_REASONS, finished
            assert finished["players"]["white"]["user"]["name"] == name
            assert len(finished["moves"].split()) >= 2
        log.seek(0)
        output = log.read()
        assert "not legal here" not in output and "Traceback" not in output, output
        assert go in output and " < go movetime 30" in output
    finally:
        bridge.terminate()
        bridge.wait(timeout=30)
        web.close()
        log.close()


def wait_finished(web: httpx.Client, game_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while True:
        answer = web.get(f"/api/game/{game_id}")
        game: dict[str, Any] = answer.json()
        # 404 until the opponent has accepted the challenge
        if answer.status_code != 404 and game["status"] not in ("created", "started"):
            return game
        assert time.monotonic() < deadline, f"game {game_id} did not end: {game}"
        time.sleep(0.2)  # polling another process, not making time pass
