"""axe-core on every page in French on a phone (tests/browser/test_accessibility.py holds the
sweep and its English desktop run): a module of its own, so that another worker takes it."""

from __future__ import annotations

from tests.browser.test_accessibility import every_page_has_no_axe_violation
from tests.server import Server


def test_every_page_has_no_axe_violation_in_french_on_a_phone(account, new_context, server: Server):
    every_page_has_no_axe_violation(account, new_context, server, "fr", "phone")
