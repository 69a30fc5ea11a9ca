"""The game page's clocks wake the page only when a shown number changes
(static/js/game/clock.js ``untilTextChanges``): exactly when the text formatClock shows next
differs, never later (a clock would lag) and never earlier than needed (a wasted wake-up)."""

from __future__ import annotations

import json

from tests.app.web.test_pages import STATIC, needs_node, run_module

pytestmark = needs_node

# The last tenths (all "0.0" under 0.1 s), the switch to tenths at 10 s, whole seconds,
# minutes and hours.
TIMES = [
    *range(0, 1_200),
    *range(9_000, 11_200),
    *range(59_000, 61_100, 7),
    3_599_001,
    3_600_000,
    3_600_001,
    7_265_432,
]


def test_a_running_clock_wakes_the_page_exactly_when_its_text_changes():
    url = json.dumps((STATIC / "js" / "game" / "clock.js").as_uri())
    words = json.dumps((STATIC / "js" / "i18n" / "words.js").as_uri())
    wrong = run_module(
        f"""import {{ untilTextChanges }} from {url};
        import {{ formatClock }} from {words};
        const wrong = [];
        for (const ms of {json.dumps(TIMES)}) {{
          const wait = untilTextChanges(ms);
          if (ms < 100) {{ if (wait !== null) wrong.push([ms, wait]); continue; }}
          const shown = formatClock(ms);
          // Changed after the wait, unchanged a millisecond before it.
          if (!(wait >= 1) || formatClock(ms - wait) === shown
              || formatClock(ms - wait + 1) !== shown) wrong.push([ms, wait]);
        }}
        console.log(JSON.stringify(wrong));"""
    )
    assert wrong == []
