"""The Dōbutsu tablebase's compiled kernels (app/tablebase, numba), compiled once for a
parallel run: ``python -m tests.kernels``.

Numba keeps what it compiles beside the source, so a fresh clone (as CI runs the suite) has
none, and each worker that builds or reads a table compiled them itself: 36 s of CPU over
four workers, where this process spends 9. tests/conftest.py starts it from the controller
as the workers start; they reach the tablebase tests after their first browser modules, and
load the kernels from numba's cache. A worker there first compiles them itself, as it would
without this."""

from __future__ import annotations

import tempfile
from pathlib import Path

from app.core.time import ManualClock
from app.tablebase.build import build
from app.tablebase.encoding import RULESETS
from app.tablebase.lookup import Tablebases
from tests.app.tablebase.positions import REDUCED


def compile_kernels() -> None:
    """A reduced problem's table built and read in each ruleset: every kernel runs once."""
    with tempfile.TemporaryDirectory() as folder:
        for ruleset in RULESETS:
            start = REDUCED[ruleset][0]
            build(ruleset, Path(folder), lambda _line: None, ManualClock(), start=start)
            Tablebases(Path(folder)).probe(start, ruleset)


if __name__ == "__main__":
    compile_kernels()
