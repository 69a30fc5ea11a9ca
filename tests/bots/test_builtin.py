"""The server side of the built-in opponents: their accounts, tokens and process."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest

from app.accounts.service import BOT, AccountService
from app.builtin.seats import SEATS
from app.builtin.service import (
    GAMES_VARIABLE,
    LEVELS,
    PERFECT,
    SCOPES,
    BuiltinBots,
    local_url,
    usernames,
)
from app.core.time import ManualClock
from app.db.engine import make_engine, make_sessionmaker
from app.realtime.hub import asyncpg_dsn
from app.realtime.lease import BUILTIN_BOTS_LOCK, AdvisoryLease
from bots import builtin
from tests.server import Server, running


def test_local_url() -> None:
    assert local_url("127.0.0.1", 8000) == "http://127.0.0.1:8000"
    assert local_url("0.0.0.0", 80) == "http://127.0.0.1:80"
    assert local_url("::", 8000) == "http://[::1]:8000"
    assert local_url("example.org", 8000) == "http://example.org:8000"


def test_accounts_are_made_once_and_tokens_renewed_at_each_start(sqlite_url: str) -> None:
    url = sqlite_url

    async def main() -> None:
        db = make_engine(url)
        clock = ManualClock()
        accounts = AccountService(make_sessionmaker(db), clock)
        bots = BuiltinBots(accounts, "http://127.0.0.1:1", clock)
        try:
            first = await bots.ensure_accounts()
            assert list(first) == usernames()
            ids = {}
            for name, token in first.items():
                owner = await accounts.check_token(token)
                assert owner is not None
                assert owner.player.username == name and owner.player.title == BOT
                assert owner.scopes == frozenset(SCOPES)
                ids[name] = owner.player.id
            second = await bots.ensure_accounts()
            for name in usernames():
                assert await accounts.check_token(first[name]) is None  # revoked
                owner = await accounts.check_token(second[name])
                assert owner is not None and owner.player.id == ids[name]  # the same account
                assert len(await accounts.tokens(ids[name])) == 1
        finally:
            await db.dispose()

    asyncio.run(main())


class FakeBots(BuiltinBots):
    """The supervisor with a stand-in process and no database."""

    async def ensure_accounts(self) -> dict[str, str]:
        return {"kodama-random": "kdm_not-a-real-token"}


def test_a_process_that_dies_is_restarted_after_a_backoff_on_the_clock() -> None:
    async def main() -> None:
        clock = ManualClock()
        died = [sys.executable, "-c", "raise SystemExit(3)"]
        bots = FakeBots(None, "http://x", clock, command=died)  # type: ignore[arg-type]
        await bots.start()
        # The child is a real process: its exit is waited for in real time.
        await _until_async(lambda: clock.pending > 0, "the supervisor waits on the clock")
        assert bots.starts == 1  # not restarted before the backoff's second has passed
        await clock.advance_async(999)
        assert bots.starts == 1
        await clock.advance_async(1)
        await _until_async(lambda: bots.starts == 2, "restarted")
        await bots.stop()

    asyncio.run(main())


async def _until_async(condition: Callable[[], bool], what: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        await asyncio.sleep(0.05)  # polling for another process, not making time pass


def test_stopping_closes_the_process_standard_input() -> None:
    # The child exits by itself when its standard input closes, as bots.builtin does.
    child = "import sys; sys.stdin.read(); print('bye')"

    async def main() -> int | None:
        bots = FakeBots(None, "http://x", ManualClock(), command=[sys.executable, "-c", child])  # type: ignore[arg-type]
        await bots.start()
        await _until_async(lambda: bots.process is not None, "the child started")
        process = bots.process
        assert process is not None
        await asyncio.sleep(0.2)
        assert process.returncode is None  # still running: it waits for its input to close
        await bots.stop()
        return process.returncode

    assert asyncio.run(main()) == 0


# ---- once per database ------------------------------------------------------------------------
def test_an_advisory_lease_has_one_holder_and_passes_on_when_its_connection_dies(
    postgres_url: str,
) -> None:
    dsn = asyncpg_dsn(postgres_url)

    async def main() -> None:
        one = AdvisoryLease(dsn, BUILTIN_BOTS_LOCK, retry_s=0.05)
        two = AdvisoryLease(dsn, BUILTIN_BOTS_LOCK, retry_s=0.05)
        try:
            assert await one.try_acquire()
            assert not await two.try_acquire()
            assert await one.try_acquire()  # held already: still its own
            # The holder's connection dies (its instance killed, say): PostgreSQL frees the lock.
            admin = await asyncpg.connect(dsn)
            try:
                pid = one._conn.get_server_pid()
                await admin.execute("SELECT pg_terminate_backend($1)", pid)
            finally:
                await admin.close()
            await asyncio.wait_for(one.lost(), 30)
            assert not one.held
            await asyncio.wait_for(two.acquire(), 30)
            assert two.held and not await one.try_acquire()
            await two.release()
            assert await one.try_acquire()
        finally:
            await one.release()
            await two.release()

    asyncio.run(main())


def _bots_online(server: Server) -> list[str]:
    with contextlib.suppress(httpx.HTTPError):
        answer = httpx.get(f"{server.base}/api/bot/online", timeout=10)
        return [json.loads(row)["username"] for row in answer.text.splitlines() if row]
    return []


def _until(condition: Callable[[], bool], what: str, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.1)  # polling for another process, not making time pass


def test_of_two_instances_on_one_database_one_runs_the_bots_and_the_other_takes_over(
    postgres_url: str, tmp_path: Path
) -> None:
    settings = {
        "KODAMA_BUILTIN_BOTS": "true",
        "KODAMA_BUILTIN_LEASE_RETRY_SECONDS": "0.2",
        "KODAMA_FAIRY_STOCKFISH": "",  # Fairy-Stockfish off, wherever it is installed
    }
    secret = "builtin-lease-3kS0aPzq9YwL1xVhR7nT2mBc"
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    with (
        running(tmp_path / "one", secret, postgres_url, **settings) as one,
        running(tmp_path / "two", secret, postgres_url, **settings) as two,
    ):
        names = sorted(usernames((*LEVELS, PERFECT)))
        _until(lambda: sorted(_bots_online(one) + _bots_online(two)) == names, "bots online")
        holder, other = (one, two) if _bots_online(one) else (two, one)
        assert _bots_online(other) == []  # one instance runs them, not both
        holder.kill()
        _until(lambda: sorted(_bots_online(other)) == names, "the other instance took over")


# ---- the bots' side: which challenges they take -----------------------------------------------
def _challenge(**extra: Any) -> dict[str, Any]:
    return {"id": "c1", "status": "created", "challenger": {"id": "alice"},
            "variant": {"key": "dobutsu"}, "rules": {}, **extra}  # fmt: skip


def test_the_builtin_bots_accept_rated_challenges() -> None:
    bot = builtin.runner("http://x", "kodama-hard", "kdm_not-a-real-token")
    assert bot.decline_reason(_challenge(rated=True)) is None
    assert bot.decline_reason(_challenge(rated=False)) is None


def test_a_game_whose_opponent_is_gone_holds_no_seat() -> None:
    bot = builtin.runner("http://x", "kodama-hard", "kdm_not-a-real-token", seats=1)

    async def main() -> list[str | None]:
        bot.games["g1"] = asyncio.create_task(asyncio.sleep(10))
        try:
            full = bot.decline_reason(_challenge())
            bot.away.add("g1")  # the game stream said opponentGone
            gone = bot.decline_reason(_challenge())
            bot.away.discard("g1")  # and then that the opponent is back
            back = bot.decline_reason(_challenge())
            return [full, gone, back]
        finally:
            bot.games["g1"].cancel()

    assert asyncio.run(main()) == ["later", None, "later"]


def test_the_server_tells_the_bots_process_its_seats(monkeypatch: pytest.MonkeyPatch) -> None:
    """The figures of app/builtin/seats.py reach bots/builtin.py's runners."""
    assert GAMES_VARIABLE == builtin.GAMES_VARIABLE
    seen: dict[str, Any] = {}

    async def run_all(server: str, tokens: dict[str, str], watch: bool, seats: Any) -> None:
        seen.update(seats)

    env = {
        builtin.TOKENS_VARIABLE: json.dumps({"kodama-hard": "kdm_x"}),
        builtin.GAMES_VARIABLE: json.dumps({"kodama-" + k: v for k, v in SEATS.items()}),
    }
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(builtin, "run_all", run_all)
    assert builtin.main(["--server", "http://x"]) == 0
    assert seen == {"kodama-" + k: v for k, v in SEATS.items()}
    monkeypatch.setenv(builtin.GAMES_VARIABLE, '{"kodama-hard": 0}')
    assert builtin.main(["--server", "http://x"]) == 2
