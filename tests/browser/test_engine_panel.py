"""The analysis board's engine panel in Chromium: the position's evaluation from the side to
move's view ("Wins in 2 moves"), the best line in the page's notation and the best moves,
updated as the player plays (a best move clicked) and steps back; the switch turns it off
and on; a Dōbutsu position of the table shows every legal move's exact value; French words;
no axe-core violation. On a server of its own: a small search budget, a reduced table."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import engine
from app.games import record
from tests.app.analysis.test_evaluate import FORCED, REDUCED
from tests.app.tablebase.test_table import reduced_table
from tests.browser.test_accessibility import violations
from tests.browser.test_records import wait_loaded, wait_ply
from tests.server import Server, running


# Autouse: started before the browser, whose running event loop would stop the database's
# migration (asyncio.run) in this process.
@pytest.fixture(scope="module", autouse=True)
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """This module's server: searches stop at 8,000 positions; the reduced Dōbutsu table."""
    data = tmp_path_factory.mktemp("engine-panel")
    reduced_table(data / "tables", "dobutsu", REDUCED)
    settings = {
        "KODAMA_ANALYSIS_EVAL_NODES": "8000",
        "KODAMA_ANALYSIS_EVAL_SECONDS": "600",
        "KODAMA_TABLEBASE_PATH": str(data / "tables"),
    }
    with running(data, "engine-panel-Vb3Xk9QmT2wLp7Rz5NcYd8Hf", **settings) as srv:
        yield srv


def load(page, variant: str, fen: str, moves: list[str] | None = None) -> None:
    """A record of ``variant`` from ``fen`` through ``moves``, loaded on the board."""
    game = engine.get_game(variant)
    tags = {"Variant": variant, "Rules": record.rules_text(game.options), "FEN": fen}
    text = record.write(tags, record.movetext(variant, game.options, fen, moves or [], "*"))
    page.locator("#record-text").fill(text)
    page.locator("#load-form button[type=submit]").click()
    wait_loaded(page, len(moves or []))


def evaluated(page, score: str) -> None:
    """Until the panel shows its answer for the position shown, with this score."""
    page.wait_for_function(
        """want => { const body = document.getElementById("engine-body");
          const shown = body.querySelector(".engine-score");
          return body.dataset.state === "done" && shown && shown.textContent === want; }""",
        arg=score,
    )


def panel(page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(
        """() => ({
          line: document.querySelector("#engine-body .engine-line").textContent.trim(),
          best: [...document.querySelectorAll("#engine-body .engine-best [data-engine-move]")]
            .map((b) => b.dataset.engineMove),
          every: [...document.querySelectorAll("#engine-body .engine-every li")].map((li) => [
            li.querySelector("[data-engine-move]").dataset.engineMove,
            li.querySelector(".engine-value").textContent]),
        })"""
    )
    return found


def test_the_panel_follows_the_board_and_can_be_turned_off(new_context, output_dir: Path):
    page = new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto("/analysis")
    wait_loaded(page, 0)
    # Jungle: first wins in two of its moves; the line in the page's notation.
    load(page, "jungle", FORCED["jungle"])
    evaluated(page, "Wins in 2 moves")
    shown = panel(page)
    assert shown["best"][0] == "c8d8"
    assert shown["line"].startswith("Lion c8-d8")
    page.locator("#engine").screenshot(path=output_dir / "engine-panel-jungle.png")
    # Dōbutsu: the best move clicked is played; the other side, to move, loses in one.
    load(page, "dobutsu", FORCED["dobutsu"])
    evaluated(page, "Wins in 2 moves")
    best = panel(page)["best"][0]
    assert "for the first player, to move" in page.locator("#engine-body").inner_text()
    page.locator(f'#engine-body .engine-best [data-engine-move="{best}"]').click()
    wait_ply(page, 1)
    evaluated(page, "Loses in 1 move")
    assert "for the second player, to move" in page.locator("#engine-body").inner_text()
    # A step back shows the first position's evaluation again (kept: no new question).
    page.keyboard.press("ArrowLeft")
    wait_ply(page, 0)
    evaluated(page, "Wins in 2 moves")
    # Off: nothing is asked or shown as the player steps; on again: the position shown.
    page.locator("#engine-on").uncheck()
    page.wait_for_function("() => document.getElementById('engine-body').dataset.state === 'off'")
    page.locator('#replay [data-action="next"]').click()
    wait_ply(page, 1)
    assert page.locator("#engine-body").inner_text() == "The engine is off."
    page.reload()
    wait_loaded(page, 0)
    assert not page.locator("#engine-on").is_checked()  # remembered in this browser
    page.locator("#engine-on").check()
    page.wait_for_function("() => document.getElementById('engine-body').dataset.state !== 'off'")
    # A Dōbutsu position the table holds: exact, and every legal move with its value.
    load(page, "dobutsu", REDUCED)
    page.wait_for_function(
        "() => document.querySelectorAll('#engine-body .engine-every li').length > 0"
    )
    game = engine.get_game("dobutsu")
    every = dict(panel(page)["every"])
    assert sorted(every) == game.legal_moves(game.from_text(REDUCED))
    assert all(v == "Draws" or v.startswith(("Wins in", "Loses in")) for v in every.values())
    assert "exact: the solved table" in page.locator("#engine-body").inner_text()
    assert violations(page) == []
    page.locator("#engine").screenshot(path=output_dir / "engine-panel-dobutsu-table.png")
    # In French: the same answer in its words.
    load(page, "dobutsu", FORCED["dobutsu"])
    evaluated(page, "Wins in 2 moves")
    page.locator('header.site [data-lang="fr"]').click()
    evaluated(page, "Gagne en 2 coups")
    assert "pour le premier joueur, au trait" in page.locator("#engine-body").inner_text()
    assert violations(page) == []
