"""Real-browser fixtures: the server as a process (SQLite in a temporary folder), Debian's
headless Chromium driven by Playwright (never a downloaded browser), a fresh context per
player."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright import sync_api as playwright_sync

from tests.apt import install_once
from tests.browser.accounts import sign_in
from tests.server import Server, migrated_sqlite, running

if TYPE_CHECKING:
    from playwright.sync_api import Browser

# Debian's chromium-headless-shell: Chromium's own headless build (Blink and V8 as in the
# browser, without the browser's windowing layers), the build Playwright itself runs for
# headless tests. It used 40 % less CPU than the full /usr/bin/chromium for the same tests
# (docs/benchmarks.md, "Test suite"), and the browser tests are the suite's largest CPU cost.
CHROMIUM = Path("/usr/bin/chromium-headless-shell")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
OUTPUT = Path(__file__).resolve().parents[1] / "output"


def ensure_chromium() -> Path:
    """Debian's headless Chromium, installed with apt when missing and we may (root): no
    download."""
    # With its recommended packages: the fonts a page needs to render come with them.
    return install_once(
        "chromium-headless-shell",
        lambda: CHROMIUM if CHROMIUM.exists() else None,
        recommends=True,
    )


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(
        tmp_path_factory.mktemp("browser-server"), "browser-wLPM5-LAoWHFGFVAEQGN9aqGmpt9yYbK"
    ) as srv:
        yield srv


# Per module, not per worker: while Playwright's sync API runs, its event loop stays marked as
# running in the main thread, so every asyncio.run() after it in this worker (the app tests)
# would fail. A module's tests run on one worker (tests/conftest.py), and a start costs ~0.5 s
# of CPU (Playwright's driver and Chromium).
@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    executable = ensure_chromium()
    # The servers' migrated database, made now if this worker has not made it yet: migrating
    # runs asyncio.run(), which fails once Playwright's loop runs (a module's server fixture
    # may be set up after its browser, and browser modules now run first on a worker).
    migrated_sqlite()
    with playwright_sync.sync_playwright() as pw:
        launched = pw.chromium.launch(
            executable_path=str(executable), headless=True, args=LAUNCH_ARGS
        )
        try:
            yield launched
        finally:
            launched.close()


# A player who prefers reduced motion, unless a test says otherwise: moves do not slide, so a
# page draws fewer frames (the browser tests' CPU is mostly Chromium's; docs/benchmarks.md,
# "Test suite"). The slides themselves are tested with motion on (test_boards.py).
DEFAULT_OPTIONS = {"reduced_motion": "reduce"}


@pytest.fixture
def new_context(browser, server):
    """``new_context(**options)``: a fresh browser context (one player: its own cookie)."""
    made = []

    def make(**options):
        context = browser.new_context(base_url=server.base, **{**DEFAULT_OPTIONS, **options})
        context.set_default_timeout(10_000)
        made.append(context)
        return context

    yield make
    for context in made:
        context.close()


@pytest.fixture
def account(new_context, server):
    """``account(prefix, **options)``: a page in a fresh context logged in as a new account
    (registered from its own address: tests/browser/accounts.py); (the page, the username)."""

    def make(prefix: str, **options):
        context = new_context(**options)
        username = sign_in(context, server.base, prefix)
        return context.new_page(), username

    return make


@pytest.fixture(scope="session")
def output_dir() -> Path:
    OUTPUT.mkdir(exist_ok=True)
    return OUTPUT
