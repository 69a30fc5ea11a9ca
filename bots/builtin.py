"""The server's built-in opponents: every level's BOT account played by one process.

The server starts it (app/builtin/service.py) with the accounts' tokens in the environment,
never on the command line (where any user of the machine could read them)::

    KODAMA_BUILTIN_TOKENS='{"kodama-easy": "kdm_…", …}' python -m bots.builtin --server URL

Each account's level is its username's suffix (``kodama-medium`` plays ``medium``); how many
games each plays at once is ``KODAMA_BUILTIN_MAX_GAMES`` (``{"kodama-easy": 36, …}``, from the
server's app/builtin/seats.py SEATS), else ``DEFAULT_SEATS``. They accept rated challenges too: they
are accounts, so a bot's author can get a rating against them.
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

from .client import ApiError, Client, backoff
from .players import LEVELS, make_player
from .runner import Runner, Settings

log = logging.getLogger("bots.builtin")

TOKENS_VARIABLE = "KODAMA_BUILTIN_TOKENS"
GAMES_VARIABLE = "KODAMA_BUILTIN_MAX_GAMES"
PREFIX = "kodama-"
# Games at once of a level the server did not give a figure for.
DEFAULT_SEATS = 4


def level_of(username: str) -> str:
    level = username.removeprefix(PREFIX)
    if not username.startswith(PREFIX) or level not in LEVELS:
        raise ValueError(
            f"{username!r} is not a built-in bot ({PREFIX}<level>, levels {', '.join(LEVELS)})"
        )
    return level


def runner(server: str, username: str, token: str, seats: int = DEFAULT_SEATS) -> Runner:
    level = LEVELS[level_of(username)]
    settings = Settings(
        time_budget_s=level.time_budget_s,
        max_games=seats,
        rated=True,
        greeting=f"Hello! I am {username}, a built-in computer opponent ({level.name}:"
        f" {level.description}). Have a good game!",
    )
    return Runner(
        Client(server, token, user_agent="kodama-builtin"),
        lambda: make_player(level.name),
        settings,
    )


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
    bots = [
        runner(server, name, token, seats.get(name, DEFAULT_SEATS))
        for name, token in tokens.items()
    ]
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
