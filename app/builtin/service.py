"""The built-in opponents: BOT accounts the server owns, played by a child process.

At start-up the server makes sure the accounts ``kodama-random``, ``kodama-easy``,
``kodama-medium`` and ``kodama-hard`` exist as BOTs, revokes their old API tokens, mints a
fresh one each, and starts ``python -m bots.builtin`` with the tokens in its environment. That
process plays through the public bot API like any other bot, so the API is exercised for real.
If it dies it is restarted with backoff; on shutdown its standard input is closed (its signal
to exit, which also fires if the server is killed) and it is terminated if it lingers.

However many instances share the database, one runs the bots: the one holding the lease
(app/realtime/lease.py, a PostgreSQL advisory lock); the others wait to take over. The holder
also ends the games whose opponent left (app/builtin/seats.py), and tells the child how many
games each level plays at once (``GAMES_VARIABLE``).

Beyond the search levels, ``kodama-perfect`` plays Dōbutsu from the solved tables (the child
reads them from the folder the server gives it; without a table it declines, and the lobby
says so), and ``kodama-fairy`` is Fairy-Stockfish through the engine bridge, run only when
the engine is found (``fairy_command``). docs/decisions/strongest-opponents.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from app.accounts.service import BOT, AccountService
from app.builtin.seats import PREFIX, SEATS, SWEEP_S, Seats
from app.core.config import Settings
from app.core.errors import ServiceError
from app.core.time import Clock
from app.realtime.lease import Lease, SoleHolder

log = logging.getLogger(__name__)

# The levels of bots/players.py LEVELS (a test checks they agree); usernames are PREFIX+level.
LEVELS = ("random", "easy", "medium", "hard")
# The opponents that are not a search level (bots/builtin.py): perfect play from the solved
# Dōbutsu tables, and Fairy-Stockfish when it is installed.
PERFECT, FAIRY = "perfect", "fairy"

# lichess's AI levels 1-8 onto the built-in opponents (LEVELS), two levels each, weakest
# first (POST /api/challenge/ai).
AI_LEVELS = {
    1: "random",
    2: "random",
    3: "easy",
    4: "easy",
    5: "medium",
    6: "medium",
    7: "hard",
    8: "hard",
}

# The variable bots/builtin.py reads its tokens from: {username: token}, as JSON.
TOKENS_VARIABLE = "KODAMA_BUILTIN_TOKENS"
# And the games at once of each: {username: games}, as JSON (app/builtin/seats.py SEATS).
GAMES_VARIABLE = "KODAMA_BUILTIN_MAX_GAMES"
# Where the child reads the tables, and the command of Fairy-Stockfish (bots/builtin.py).
TABLES_VARIABLE = "KODAMA_TABLEBASE_PATH"
FAIRY_VARIABLE = "KODAMA_FAIRY_STOCKFISH"
SCOPES = ("bot:play", "challenge:read", "challenge:write")
TOKEN_DESCRIPTION = "built-in opponent (a new token at each server start)"
BACKOFF_START_S = 1.0
BACKOFF_MAX_S = 60.0
HEALTHY_AFTER_S = 60.0  # a process that ran this long resets the backoff
STOP_GRACE_S = 5.0


def usernames(levels: Sequence[str] = LEVELS) -> list[str]:
    return [PREFIX + level for level in levels]


def fairy_command(settings: Settings) -> str | None:
    """Fairy-Stockfish's command: the configured one, else ``fairy-stockfish`` found on
    PATH; None when there is none (an empty setting turns it off)."""
    if settings.fairy_stockfish is not None:
        return settings.fairy_stockfish.strip() or None
    return shutil.which("fairy-stockfish")


def offered(settings: Settings) -> tuple[str, ...]:
    """The levels the server runs: the search levels, perfect play, and Fairy-Stockfish
    when it is found."""
    return (*LEVELS, PERFECT, *((FAIRY,) if fairy_command(settings) else ()))


def local_url(host: str, port: int) -> str:
    """The address the child process reaches this server at (the address it listens on)."""
    if host in ("", "0.0.0.0"):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


class BuiltinBots:
    """Owns the built-in accounts' tokens and the process that plays them."""

    def __init__(
        self,
        accounts: AccountService,
        server_url: str,
        clock: Clock,
        *,
        levels: Sequence[str] = LEVELS,
        command: Sequence[str] | None = None,
        lease: Lease | None = None,
        seats: Seats | None = None,
        tables: Path | None = None,
        fairy: str | None = None,
    ) -> None:
        self.accounts = accounts
        self.seats = seats  # None: nobody ends the games whose opponent left
        self.clock = clock
        self.lease: Lease = lease or SoleHolder()
        self.holding = False  # this instance holds the lease (and runs the bots)
        self.server_url = server_url
        self.levels = tuple(levels)
        self.tables = tables  # the solved tables' folder, for kodama-perfect
        self.fairy = fairy  # Fairy-Stockfish's command, for kodama-fairy
        self.command = list(
            command or (sys.executable, "-m", "bots.builtin", "--server", server_url)
        )
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0  # processes started so far (restarts included)
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    async def start(self) -> None:
        """Begins in the background: the server does not wait for the accounts or the bots."""
        self._task = asyncio.get_running_loop().create_task(self._while_holding())

    async def stop(self) -> None:
        self._stopping = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self._end_process()
        await self.lease.release()

    async def _while_holding(self) -> None:
        """Run the bots while this instance holds the lease; wait for it again if lost."""
        while not self._stopping:
            await self.lease.acquire()
            self.holding = True
            log.info("this instance runs the built-in bots (it holds their lease)")
            loop = asyncio.get_running_loop()
            supervising = loop.create_task(self._supervise())
            losing = loop.create_task(self.lease.lost())
            sweeping = loop.create_task(self._sweep_leavers())
            try:
                await asyncio.wait((supervising, losing), return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in (supervising, losing, sweeping):
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
                self.holding = False
                await self._end_process()
            log.warning("lost the built-in bots' lease: waiting to hold it again")

    async def _sweep_leavers(self) -> None:
        """End the games whose opponent left, every SWEEP_S on the server's clock."""
        if self.seats is None:
            return
        while True:
            await self.clock.sleep(SWEEP_S)
            try:
                await self.seats.sweep()
            except Exception:  # the database away for a moment: the next sweep tries again
                log.exception("the sweep of the built-in bots' abandoned games failed")

    # ---- the accounts --------------------------------------------------------------------
    async def ensure_accounts(self) -> dict[str, str]:
        """Each built-in account, created and upgraded to BOT if needed: username -> a fresh
        token (the account's older tokens are revoked)."""
        tokens: dict[str, str] = {}
        for username in usernames(self.levels):
            player = await self.accounts.by_username(username)
            if player is None:
                try:
                    # Nobody logs in as a built-in bot: a random password nobody knows.
                    player = await self.accounts.register(username, secrets.token_urlsafe(24))
                except ServiceError as exc:
                    if exc.code != "account.username_taken":
                        raise
                    player = await self.accounts.by_username(username)  # another instance
                    assert player is not None
                log.info("created the built-in bot account %s", username)
            if player.title != BOT:
                await self.accounts.upgrade_to_bot(player.id)
            for old in await self.accounts.tokens(player.id):
                with contextlib.suppress(ServiceError):  # revoked meanwhile
                    await self.accounts.revoke_token(player.id, old.id)
            tokens[username] = await self.accounts.create_token(
                player.id, TOKEN_DESCRIPTION, SCOPES
            )
        return tokens

    # ---- the process ---------------------------------------------------------------------
    async def _supervise(self) -> None:
        attempt = 0
        tokens: dict[str, str] | None = None
        while not self._stopping:
            started = self.clock.monotonic()
            try:
                if tokens is None:
                    tokens = await self.ensure_accounts()
                await self._run_once(tokens)
                why = f"exited with status {self.process.returncode if self.process else '?'}"
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                why = f"failed: {exc!r}"
                log.exception("the built-in bots could not start")
            if self._stopping:
                return
            if self.clock.monotonic() - started > HEALTHY_AFTER_S:
                attempt = 0
            wait = min(BACKOFF_MAX_S, BACKOFF_START_S * 2**attempt)
            attempt += 1
            log.warning("the built-in bots %s; restarting in %.0f s", why, wait)
            await self.clock.sleep(wait)

    async def _run_once(self, tokens: dict[str, str]) -> None:
        seats = SEATS if self.seats is None else self.seats.seats
        env = {
            **os.environ,
            TOKENS_VARIABLE: json.dumps(tokens),
            GAMES_VARIABLE: json.dumps({PREFIX + level: n for level, n in seats.items()}),
        }
        if self.tables is not None:
            env[TABLES_VARIABLE] = str(self.tables.resolve())
        if self.fairy is not None:
            env[FAIRY_VARIABLE] = self.fairy
        self.process = await asyncio.create_subprocess_exec(
            *self.command, "--watch-stdin", stdin=asyncio.subprocess.PIPE, env=env
        )
        self.starts += 1
        log.info(
            "started the built-in bots (%s) for %s, process %d",
            ", ".join(tokens),
            self.server_url,
            self.process.pid,
        )
        await self.process.wait()

    async def _end_process(self) -> None:
        process = self.process
        if process is None or process.returncode is not None:
            return
        if process.stdin is not None:
            process.stdin.close()  # the child exits when its standard input closes
        try:
            await asyncio.wait_for(process.wait(), STOP_GRACE_S)
            return
        except TimeoutError:
            pass
        with contextlib.suppress(ProcessLookupError):
            process.terminate()
        try:
            await asyncio.wait_for(process.wait(), STOP_GRACE_S)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
