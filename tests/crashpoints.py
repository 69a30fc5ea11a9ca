"""Crashes on demand for the tests that prove what survives one: a test's server process
dies at a named point of the code (app/core/faults.py) as under ``kill -9``.

The test asks for it with ``CRASH_AT`` in the server's environment; tests/zygote.py's child
reads it before it becomes the server and installs the hook. The server never reads it."""

from __future__ import annotations

import os

from app.core import faults

CRASH_AT = "KODAMA_TEST_CRASH_AT"
EXIT_STATUS = 137  # what a shell reports for a process killed by SIGKILL


def die_at(point: str) -> faults.Hook:
    """A hook that ends the process at once when the code reaches ``point``."""
    if point not in faults.POINTS:
        raise ValueError(f"no crash point {point!r}: one of {', '.join(sorted(faults.POINTS))}")

    def hook(reached: str) -> None:
        if reached not in faults.POINTS:
            raise ValueError(f"no crash point {reached!r}")
        if reached == point:
            os.write(2, f"{CRASH_AT}={point}: exiting now\n".encode())
            os._exit(EXIT_STATUS)

    return hook


def arm_from(env: dict[str, str]) -> None:
    """In a test's server process: the hook ``env`` asks for, if any."""
    point = env.get(CRASH_AT)
    faults.install(die_at(point) if point else None)
