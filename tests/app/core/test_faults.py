"""The crash points (app/core/faults.py): nothing happens at them unless a test installs a
hook, and no setting of the server's can make a process die there."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.core import faults
from tests.crashpoints import CRASH_AT, EXIT_STATUS, arm_from, die_at

ROOT = Path(__file__).resolve().parents[3]


def test_a_point_does_nothing_without_a_hook():
    faults.install(None)
    for point in sorted(faults.POINTS):
        faults.reached(point)  # no hook: nothing happens


def test_an_installed_hook_hears_every_point():
    heard: list[str] = []
    faults.install(heard.append)
    try:
        faults.reached("after_commit")
        faults.reached("ratings_locked")
    finally:
        faults.install(None)
    assert heard == ["after_commit", "ratings_locked"]


def test_the_tests_hook_refuses_an_unknown_point():
    with pytest.raises(ValueError, match="no crash point"):
        die_at("after_lunch")
    hook = die_at("after_commit")
    with pytest.raises(ValueError, match="no crash point"):
        hook("after_lunch")
    hook("after_consume_mark")  # another point: nothing happens


def test_arming_from_an_environment_without_the_setting_installs_nothing():
    arm_from({})
    faults.reached("after_commit")


def test_the_test_setting_in_a_servers_environment_does_nothing():
    # The server reads no crash setting: a process whose environment names a point, but
    # that did not install the tests' hook, passes every point alive.
    code = (
        "from app.core import faults\n"
        "for point in sorted(faults.POINTS): faults.reached(point)\n"
        "print('alive')\n"
    )
    env = {**os.environ, CRASH_AT: "after_commit", "KODAMA_CRASH_AT": "after_commit"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode != EXIT_STATUS
    assert done.stdout.strip() == "alive", done.stderr
