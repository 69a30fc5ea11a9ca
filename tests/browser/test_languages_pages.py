"""The page sweeps of every other shipped language (test_languages.py runs the rest): a
module of their own, so that a second worker takes them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.test_languages import SHIPPED, check_every_page, fonts  # noqa: F401
from tests.server import Server


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("lang", SHIPPED[1::2])
def test_every_page_reads_in_the_language_with_nothing_overflowing(
    account, new_context, server: Server, output_dir: Path, lang: str, size: str
) -> None:
    check_every_page(account, new_context, server, output_dir, lang, size)
