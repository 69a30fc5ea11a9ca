"""axe-core (bundled by axe-playwright-python) on every page, in English and French, on a
desktop screen and a phone: no violation of WCAG 2.1 A/AA (contrast included)."""

from __future__ import annotations

from typing import Any

from axe_playwright_python.sync_playwright import Axe

AXE = Axe()
# WCAG 2.0/2.1 levels A and AA (what the issue asks), plus axe's best practices.
OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    "resultTypes": ["violations"],
}
SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}
LOCALES = {"en": "en-GB", "fr": "fr-FR"}


def violations(page) -> list[str]:
    """Each violation as "rule: target (summary)", for a readable failure."""
    results: Any = AXE.run(page, options=OPTIONS)
    found = []
    for violation in results.response["violations"]:
        for node in violation["nodes"]:
            found.append(f"{violation['id']}: {node['target']} {node.get('failureSummary', '')}")
    return found
