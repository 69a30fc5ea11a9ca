"""static/js/players/chart.js, the rating history chart, run in node: where each point, tick and
date goes, the line through them, the accessible name and description, the table of
numbers, and user text escaped."""

from __future__ import annotations

import json
from typing import Any

from tests.app.web.test_pages import STATIC, needs_node, run_module

CHART = json.dumps((STATIC / "js" / "players" / "chart.js").as_uri())
# Three days of rated games: 23 Oct 2026 (month 9: lichess counts months from 0), then 2 days
# later, then 8 days after that.
POINTS = [[2026, 9, 23, 1742], [2026, 9, 25, 1700], [2026, 10, 2, 1810]]


def chart(script: str) -> Any:
    return run_module(f"import * as chart from {CHART};\n{script}")


@needs_node
def test_points_ticks_and_line_are_placed_on_the_plot() -> None:
    out = chart(f"console.log(JSON.stringify(chart.chartModel({json.dumps(POINTS)})));")
    plot = out["plot"]
    assert plot == {"x0": 52, "x1": 600, "y0": 14, "y1": 226}
    xs = [p["x"] for p in out["points"]]
    # Dates spread by time: 2 days of 10 at 20% of the width.
    assert xs == [52, 52 + round(0.2 * 548, 1), 600]
    # Ratings: 1700 at the bottom tick, 1825 (the top tick) at the top.
    assert [t["value"] for t in out["ratingTicks"]] == [1700, 1725, 1750, 1775, 1800, 1825]
    by_value = {t["value"]: t["y"] for t in out["ratingTicks"]}
    assert by_value[1700] == 226 and by_value[1825] == 14
    ys = [p["y"] for p in out["points"]]
    assert ys == [round(226 - 42 / 125 * 212, 1), 226, round(226 - 110 / 125 * 212, 1)]
    assert out["path"] == f"M{xs[0]} {ys[0]} L{xs[1]} {ys[1]} L{xs[2]} {ys[2]}"
    # Five dates between the first and last day, whole days, the ends included.
    days = [(t["date"] - out["points"][0]["date"]) / 86_400_000 for t in out["dateTicks"]]
    assert days == [0, 3, 5, 8, 10]


@needs_node
def test_rating_ticks_are_few_and_round() -> None:
    out = chart(
        "console.log(JSON.stringify([[1258, 1742], [1490, 1510], [1500, 1500], [900, 2700]]"
        ".map(([a, b]) => chart.ratingTicks(a, b))));"
    )
    assert out == [
        [1200, 1400, 1600, 1800],
        [1490, 1495, 1500, 1505, 1510],
        [1500],
        [500, 1000, 1500, 2000, 2500, 3000],
    ]


@needs_node
def test_one_point_and_no_point() -> None:
    out = chart(
        "const one = chart.chartModel([[2026, 0, 1, 1500]]);"
        "console.log(JSON.stringify([one, chart.chartModel([])]));"
    )
    one, none = out
    assert one["points"][0]["x"] == (52 + 600) / 2  # a lone day in the middle
    assert len(one["dateTicks"]) == 1 and one["path"] == "M326 226"
    assert none["points"] == [] and none["path"] == ""


@needs_node
def test_the_svg_is_named_described_and_escapes_its_text() -> None:
    out = chart(
        f"""const svg = String(chart.ratingChart({json.dumps(POINTS)}, {{
          id: "c-dobutsu", title: "<b>Dōbutsu</b>", desc: "from 1742 to 1810", locale: "en" }}));
        const table = String(chart.ratingTable({json.dumps(POINTS)}, {{
          caption: "x<y", dateHeading: "Date", ratingHeading: "Rating", locale: "fr" }}));
        console.log(JSON.stringify({{ svg, table }}));"""
    )
    svg, table = out["svg"], out["table"]
    assert 'role="img"' in svg
    assert 'aria-labelledby="c-dobutsu-title" aria-describedby="c-dobutsu-desc"' in svg
    assert '<title id="c-dobutsu-title">&lt;b&gt;Dōbutsu&lt;/b&gt;</title>' in svg
    assert '<desc id="c-dobutsu-desc">from 1742 to 1810</desc>' in svg
    assert svg.count("<circle") == 3 and '<path class="line"' in svg
    assert "<title>Oct 23, 2026: 1742</title>" in svg  # each point says its day and rating
    assert ">Oct 23<" in svg and ">Nov 2<" in svg  # date ticks: one year, so no year
    assert "<caption>x&lt;y</caption>" in table
    assert table.count("<tr>") == 4  # the heading and a row per day
    assert "<td>23 oct. 2026</td><td>1742</td>" in table  # French dates in French
