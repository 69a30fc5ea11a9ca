"""The server's built-in opponents: every level's BOT account played by one process.

The server starts it (app/builtin/service.py) with the accounts' tokens in the environment,
never on the command line (where any user of the machine could read them)::

    KODAMA_BUILTIN_TOKENS='{"kodama-easy": "kdm_…", …}' python -m bots.builtin --server URL

Each account's level is its username's suffix (``kodama-medium`` plays ``medium``); how many
games each plays at once is ``KODAMA_BUILTIN_MAX_GAMES`` (``{"kodama-easy": 36, …}``, from the
server's app/builtin/seats.py SEATS), else ``DEFAULT_SEATS``. They accept rated challenges too: they
are accounts, so a bot's author can get a rating against them.

Two accounts are more than a search level: ``kodama-perfect`` plays Dōbutsu from the solved
tables under ``KODAMA_TABLEBASE_PATH`` (bots/perfect.py), and ``kodama-fairy`` is
Fairy-Stockfish (the command in ``KODAMA_FAIRY_STOCKFISH``) through the engine bridge
(bots/bridge.py); the server runs the latter only when it finds the engine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import sys
import threading
from pathlib import Path

from . import perfect
from .bridge import BridgeRunner
from .client import ApiError, Client, backoff
from .engineproc import EngineFailed, EnginePlayer, EngineProcess
from .players import LEVELS, make_player
from .runner import Runner, Settings

log = logging.getLogger("bots.builtin")

TOKENS_VARIABLE = "KODAMA_BUILTIN_TOKENS"
GAMES_VARIABLE = "KODAMA_BUILTIN_MAX_GAMES"
TABLES_VARIABLE = "KODAMA_TABLEBASE_PATH"
FAIRY_VARIABLE = "KODAMA_FAIRY_STOCKFISH"
PREFIX = "kodama-"
PERFECT, FAIRY = "perfect", "fairy"
# Games at once of a level the server did not give a figure for.
DEFAULT_SEATS = 4
# Fairy-Stockfish's time a move in a game without a clock (with one, it shares its clock
# out itself), and what it leaves of its clock for the way to the server.
FAIRY_MOVETIME_MS = 1000
FAIRY_OVERHEAD_MS = 300


def level_of(username: str) -> str:
    level = username.removeprefix(PREFIX)
    known = (*LEVELS, PERFECT, FAIRY)
    if not username.startswith(PREFIX) or level not in known:
        raise ValueError(
            f"{username!r} is not a built-in bot ({PREFIX}<level>, levels {', '.join(known)})"
        )
    return level


def greeting(username: str, about: str) -> str:
    return f"Hello! I am {username}, a built-in computer opponent ({about}). Have a good game!"


class FairyRunner(BridgeRunner):
    """``kodama-fairy``: the bridge's runner over one Fairy-Stockfish process (closed with
    the bots)."""

    def __init__(self, client: Client, process: EngineProcess, settings: Settings) -> None:
        super().__init__(
            client, lambda: EnginePlayer(process, FAIRY_MOVETIME_MS, FAIRY_OVERHEAD_MS), settings
        )
        self.process = process


def runner(server: str, username: str, token: str, seats: int = DEFAULT_SEATS) -> Runner:
    """The account's runner; EngineFailed or OSError when Fairy-Stockfish does not start."""
    level_name = level_of(username)
    if level_name == FAIRY:
        process = EngineProcess(os.environ.get(FAIRY_VARIABLE) or "fairy-stockfish")
        try:
            process.start()
        except (OSError, EngineFailed):
            process.close()
            raise
        settings = Settings(
            time_budget_s=FAIRY_MOVETIME_MS / 1000,
            games=process.games(),
            max_games=seats,
            rated=True,
            greeting=greeting(username, f"{process.name}, through the engine bridge"),
        )
        return FairyRunner(Client(server, token, user_agent="kodama-builtin"), process, settings)
    client = Client(server, token, user_agent="kodama-builtin")
    if level_name == PERFECT:
        hard = LEVELS["hard"]
        settings = Settings(
            time_budget_s=hard.time_budget_s,  # for a position missing from the table
            games=(perfect.GAME,),
            max_games=seats,
            rated=True,
            greeting=greeting(username, "perfect play from the solved table"),
        )
        folder = Path(os.environ.get(TABLES_VARIABLE) or "data/tablebase")
        return perfect.runner(client, folder, settings)
    level = LEVELS[level_name]
    settings = Settings(
        time_budget_s=level.time_budget_s,
        max_games=seats,
        rated=True,
        greeting=greeting(username, f"{level.name}: {level.description}"),
    )
    return Runner(client, lambda: make_player(level.name), settings)


async def keep_running(bot: Runner) -> None:
    """One bot's loop: a refused token or a crash is logged and retried with backoff."""
    attempt = 0
    while True:
        try:
            await bot.run()
        except ApiError as exc:
            log.error("%s: the server refused: %s", bot.name, exc)
        except Exception:
            log.exception("%s: stopped unexpectedly", bot.name)
        wait = backoff(attempt + 3)
        attempt += 1
        await asyncio.sleep(wait)


def parent_gone(loop: asyncio.AbstractEventLoop, done: asyncio.Event) -> None:
    """Sets ``done`` when standard input closes: the server that started us has exited."""

    def watch() -> None:
        # The file descriptor, not sys.stdin's buffered reader: a daemon thread blocked in
        # that reader holds its lock, and an exit for another reason (a signal) then ends in
        # "Fatal Python error: could not acquire lock ... at interpreter shutdown".
        with contextlib.suppress(OSError):
            while os.read(sys.stdin.fileno(), 4096):
                pass
        loop.call_soon_threadsafe(done.set)

    threading.Thread(target=watch, name="stdin-watch", daemon=True).start()


async def run_all(
    server: str, tokens: dict[str, str], watch_stdin: bool, seats: dict[str, int] | None = None
) -> None:
    seats = seats or {}
    bots = []
    for name, token in tokens.items():
        try:
            bots.append(runner(server, name, token, seats.get(name, DEFAULT_SEATS)))
        except (OSError, EngineFailed) as exc:
            log.error("%s: its engine did not start (%s); it does not play", name, exc)
    tasks = [asyncio.create_task(keep_running(bot)) for bot in bots]
    done = asyncio.Event()
    if watch_stdin:
        parent_gone(asyncio.get_running_loop(), done)
    try:
        await done.wait()
        log.info("the server has exited; stopping the built-in bots")
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for bot in bots:
            await bot.client.close()
            if isinstance(bot, FairyRunner):
                bot.process.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Kodama's built-in opponents.")
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument(
        "--watch-stdin", action="store_true", help="exit when standard input closes"
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    try:
        tokens = json.loads(os.environ.get(TOKENS_VARIABLE) or "{}")
        if not isinstance(tokens, dict) or not tokens:
            raise ValueError("no tokens")
        for name in tokens:
            level_of(name)
    except ValueError as exc:
        print(
            f"{TOKENS_VARIABLE} must hold a JSON object {{username: token}} of built-in bot"
            f" accounts ({exc})",
            file=sys.stderr,
        )
        return 2
    try:
        seats = json.loads(os.environ.get(GAMES_VARIABLE) or "{}")
    except ValueError:
        seats = None
    if not isinstance(seats, dict) or not all(isinstance(n, int) and n > 0 for n in seats.values()):
        print(
            f"{GAMES_VARIABLE} must hold a JSON object {{username: games at once}}",
            file=sys.stderr,
        )
        return 2
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(
            run_all(
                args.server,
                {str(k): str(v) for k, v in tokens.items()},
                args.watch_stdin,
                {str(k): v for k, v in seats.items()},
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
