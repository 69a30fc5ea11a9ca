"""Fixtures of the bot tests: Debian's Fairy-Stockfish, installed once (test_bridge.py plays
it through the bridge, test_strongest_bots.py as the server's ``kodama-fairy``)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.apt import install_once


def found_engine() -> str | None:
    return shutil.which("fairy-stockfish") or shutil.which("/usr/games/fairy-stockfish")


@pytest.fixture(scope="module")
def fairy() -> str:
    """Fairy-Stockfish's path: Debian's package, installed when missing and we may (root)."""
    try:
        return install_once("fairy-stockfish", found_engine)
    except (RuntimeError, subprocess.CalledProcessError) as exc:
        pytest.fail(f"Debian's fairy-stockfish package could not be installed: {exc}")
