"""Shared fixtures: a real PostgreSQL server for the session (tests/postgres.py), and
databases at the head revision copied from templates migrated once per session
(tests/templates.py).

The suite runs on parallel workers (pytest-xdist, ``--dist loadgroup`` in pyproject.toml):
each worker is a session of its own, with its own PostgreSQL cluster and templates. Tests
sharing an expensive fixture wider than one test (a server process for a module, the browser
for tests/browser) are kept on one worker, so that it starts once."""

from __future__ import annotations

import gc
import itertools
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.postgres import TempPostgres
from tests.templates import SqliteTemplate, make_postgres_template

_names = itertools.count()
BROWSER = Path(__file__).resolve().parent / "browser"
# The modules that keep one worker longest (a minute or more each: --durations), by group,
# started first (pytest_collection_modifyitems).
LONGEST_FIRST = (
    "tests/browser/test_languages.py",
    "tests/browser/test_languages_pages.py",
    "tests/browser/test_languages_games.py",
    "tests/browser/test_play.py",
)


# Workers per core for ``-n auto``: most of the suite's time is spent waiting (server
# processes, Chromium, PostgreSQL), not computing, so one worker a core leaves the cores half
# idle (docs/benchmarks.md, "Test suite").
WORKERS_PER_CORE = 2


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own hook reads it
    return WORKERS_PER_CORE * (os.cpu_count() or 1)


# The process compiling the tablebase's kernels beside the workers (tests/kernels.py).
KERNELS = pytest.StashKey[subprocess.Popen[bytes]]()


def pytest_configure(config: pytest.Config) -> None:
    """In a parallel run's controller, before it starts the workers: the tablebase's kernels
    compiled once, in a process of its own, rather than by each worker (tests/kernels.py)."""
    if hasattr(config, "workerinput") or not config.getoption("numprocesses", None):
        return
    config.stash[KERNELS] = subprocess.Popen(
        [sys.executable, "-m", "tests.kernels"],
        cwd=BROWSER.parents[1],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def pytest_unconfigure(config: pytest.Config) -> None:
    kernels = config.stash.get(KERNELS, None)
    if kernels is not None and kernels.poll() is None:
        kernels.kill()  # a run stopped early: what it compiled so far is kept
    if kernels is not None:
        kernels.wait()


def pytest_collection_finish(session: pytest.Session) -> None:
    """What is imported and collected by now lives for the whole session: frozen out of the
    garbage collector's reach, as the server freezes its loaded heap (app/core/heap.py).
    A collection (the tests' own ``gc.collect()`` calls included) then walks only what the
    tests made since, not the ~250,000 objects of the modules and the collected tests."""
    gc.collect()
    gc.freeze()


# First, whatever order the plugins were registered in: xdist's worker reads the groups in its
# own pytest_collection_modifyitems (it suffixes each grouped test's id with "@group", which is
# what --dist loadgroup schedules by), so a group marked after it would not count.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    groups = {item: _group(item) for item in items}
    for item, group in groups.items():
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
    # Workers take the tests in this order: the longest groups first, then the other groups,
    # then the tests that need no worker of their own, which fill the workers' ends evenly.
    # (In collection order tests/browser comes last, and a worker given a long module last
    # could run alone at the end.)
    position = {item: i for i, item in enumerate(items)}

    def order(item: pytest.Item) -> tuple[int, int, int]:
        group = groups[item]
        if group in LONGEST_FIRST:
            return (0, LONGEST_FIRST.index(group), position[item])
        return (1 if group is not None else 2, 0, position[item])

    items.sort(key=order)


def _group(item: pytest.Item) -> str | None:
    """The worker group of a test: its module's, if a module-scoped fixture serves it or if
    it is a browser test (tests/browser's session-scoped server and Chromium); else none."""
    if BROWSER in item.path.parents:
        # A worker starts the browser's server and Chromium once, for whichever browser
        # modules it is given: a module stays on one worker, the modules spread out.
        return item.nodeid.split("::", 1)[0]
    info = getattr(item, "_fixtureinfo", None)
    defs = {} if info is None else info.name2fixturedefs
    if any(d.scope == "module" for chain in defs.values() for d in chain):
        return item.nodeid.split("::", 1)[0]
    return None


@pytest.fixture(scope="session")
def postgres() -> Iterator[TempPostgres]:
    pg = TempPostgres()
    pg.start()
    try:
        yield pg
    finally:
        pg.stop()


@pytest.fixture(scope="session")
def postgres_template(postgres: TempPostgres) -> str:
    """The name of the session's PostgreSQL template: migrated to head once, then sealed."""
    return make_postgres_template(postgres)


@pytest.fixture
def postgres_url(postgres: TempPostgres, postgres_template: str) -> Iterator[str]:
    """A fresh database at the head revision on the session's server: a template copy,
    dropped after the test (a cluster keeping ~900 of them took 16 s to remove)."""
    name = f"test_{next(_names)}"
    yield postgres.create_database(name, template=postgres_template)
    postgres.drop_database(name)


@pytest.fixture
def empty_postgres_url(postgres: TempPostgres) -> Iterator[str]:
    """A fresh, empty database on the session's server: for tests of the migrations."""
    name = f"empty_{next(_names)}"
    yield postgres.create_database(name)
    postgres.drop_database(name)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> SqliteTemplate:
    """The session's SQLite template: a file migrated to head once."""
    return SqliteTemplate.make(tmp_path_factory.mktemp("sqlite-template"))


@pytest.fixture
def sqlite_url(sqlite_template: SqliteTemplate, tmp_path: Path) -> str:
    """A fresh SQLite database at the head revision: tmp_path/kodama.sqlite3, a template copy."""
    return sqlite_template.copy_to(tmp_path)
