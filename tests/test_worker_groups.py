"""The tests of a module served by a module-scoped fixture run on one worker (tests/conftest.py
``_group``): pytest-xdist's ``--dist loadgroup`` schedules by the "@group" suffix its worker
gives a test's id. The suffix is missing when the test is marked after xdist's hook has run,
or when pytest's ids ignore the field xdist rewrites (pytest 9.2 with pytest-xdist 3.8:
docs/decisions/parallel-workers.md). Then a module's tests spread over every
worker, each starting the module's server (four servers where one does) and each running its
real-time waits at the same moment."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

MODULE = "tests/test_worker_groups.py"


@pytest.fixture(scope="module")
def once_per_module() -> Iterator[str]:
    yield "a module's server, say"


def on_workers(request: pytest.FixtureRequest) -> bool:
    return hasattr(request.config, "workerinput") and request.config.getvalue("loadgroup")


def test_a_module_scoped_fixture_keeps_its_module_on_one_worker(
    request: pytest.FixtureRequest, once_per_module: str
):
    marker = request.node.get_closest_marker("xdist_group")
    assert marker is not None and marker.args == (MODULE,)
    if on_workers(request):  # what --dist loadgroup schedules by
        assert request.node.nodeid.endswith(f"@{MODULE}")


def test_a_test_without_one_goes_to_any_worker(request: pytest.FixtureRequest):
    assert request.node.get_closest_marker("xdist_group") is None
    assert "@" not in request.node.nodeid
