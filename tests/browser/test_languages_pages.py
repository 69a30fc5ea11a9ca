"""The page sweep at a phone's size (test_languages.py sweeps the desktop's): a module of its
own, so that a second worker takes it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.test_languages import check_every_page, fonts  # noqa: F401
from tests.server import Server


@pytest.mark.parametrize("size", ["phone"])
def test_every_page_reads_in_every_language_with_nothing_overflowing(
    account, new_context, server: Server, output_dir: Path, size: str
) -> None:
    check_every_page(account, new_context, server, output_dir, size)
