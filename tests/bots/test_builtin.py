"""The server side of the built-in opponents: their accounts, tokens and process."""

from __future__ import annotations

import asyncio
import sys
import time

from app.db import make_engine, make_sessionmaker
from app.services.accounts import BOT, AccountService
from app.services.builtin import SCOPES, BuiltinBots, local_url, usernames


def test_local_url() -> None:
    assert local_url("127.0.0.1", 8000) == "http://127.0.0.1:8000"
    assert local_url("0.0.0.0", 80) == "http://127.0.0.1:80"
    assert local_url("::", 8000) == "http://[::1]:8000"
    assert local_url("example.org", 8000) == "http://example.org:8000"


def test_accounts_are_made_once_and_tokens_renewed_at_each_start(sqlite_url: str) -> None:
    url = sqlite_url

    async def main() -> None:
        db = make_engine(url)
        accounts = AccountService(make_sessionmaker(db))
        bots = BuiltinBots(accounts, "http://127.0.0.1:1")
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


def test_a_process_that_dies_is_restarted() -> None:
    async def main() -> int:
        bots = FakeBots(None, "http://x", command=[sys.executable, "-c", "raise SystemExit(3)"])  # type: ignore[arg-type]
        await bots.start()
        deadline = time.monotonic() + 30
        while bots.starts < 2:
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)
        await bots.stop()
        return bots.starts

    assert asyncio.run(main()) >= 2


def test_stopping_closes_the_process_standard_input() -> None:
    # The child exits by itself when its standard input closes, as bots.builtin does.
    child = "import sys; sys.stdin.read(); print('bye')"

    async def main() -> int | None:
        bots = FakeBots(None, "http://x", command=[sys.executable, "-c", child])  # type: ignore[arg-type]
        await bots.start()
        deadline = time.monotonic() + 30
        while bots.process is None:
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)
        process = bots.process
        await asyncio.sleep(0.2)
        assert process.returncode is None  # still running: it waits for its input to close
        await bots.stop()
        return process.returncode

    assert asyncio.run(main()) == 0
