"""The TV page and the lobby's small board in Chromium: both show the best live game (a rated
game before a casual one of the same ratings), its moves as they are played, and switch to
the next best game when it ends; a game's channel keeps its last game; an unknown channel
says so."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.test_accessibility import violations
from tests.server import Server, account_token, running

SCOPES = "board:play,challenge:write"


# A server of this module's own: another module's games left live would be on its TV. (Asked
# for before the browser: it is started before Playwright's event loop runs.)
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("tv"), "browser-tv-Zk4Pq8Wm2Xr6Tn1Vb9Lc3Hd7") as srv:
        yield srv


def api(server: Server, token: str) -> httpx.Client:
    return httpx.Client(
        base_url=server.base, headers={"authorization": f"Bearer {token}"}, timeout=30
    )


def shown(page: Any, game_id: str, scope: str) -> Any:
    return page.locator(f'{scope} .tv-screen-game[data-game="{game_id}"]')


def test_tv_shows_the_best_game_its_moves_and_the_next_best_when_it_ends(
    server: Server, new_context: Any, output_dir: Path
) -> None:
    # A casual game of two guests (1500 each) first...
    first, second = new_context(), new_context()
    made = first.request.post("/api/games", data={"variant": "gorogoro", "color": "first"})
    assert made.ok, made.text()
    casual = str(made.json()["id"])
    assert second.request.post(f"/api/games/{casual}/join").ok
    # ...then a rated game of two new accounts (1500 each): the same sum, rated first.
    with (
        api(server, account_token(server, "tvalice", SCOPES)) as alice,
        api(server, account_token(server, "tvbob", SCOPES)) as bob,
    ):
        body = {"variant": "dobutsu", "rated": True, "color": "white"}
        created = alice.post("/api/challenge/tvbob", json=body)
        assert created.status_code == 200, created.text
        rated = str(created.json()["id"])
        assert bob.post(f"/api/challenge/{rated}/accept").status_code == 200

        tv = new_context().new_page()
        tv.goto("/tv")
        shown(tv, rated, "#tv-screen").wait_for()
        assert tv.locator("#tv-status").is_hidden()
        names = tv.locator("#tv-screen .tv-name a").all_inner_texts()
        assert sorted(n.split()[0] for n in names) == ["tvalice", "tvbob"]
        assert tv.locator('#tv-channels a[aria-current="page"]').get_attribute("href") == "/tv"
        lobby = new_context().new_page()
        lobby.goto("/")
        shown(lobby, rated, "#tv").wait_for()
        assert lobby.locator("#tv .tv-board .sq").count() == 12  # dobutsu's 3x4 board

        assert alice.post(f"/api/board/game/{rated}/move/b1a2").status_code == 200
        for page in (tv, lobby):
            page.locator('.tv-board [data-square="a2"].last').wait_for()
        tv.screenshot(path=output_dir / "tv.png")
        lobby.screenshot(path=output_dir / "tv-lobby.png")
        assert violations(tv) == [] and violations(lobby) == []
        assert alice.post(f"/api/board/game/{rated}/resign").status_code == 200

    # The next best: the casual game, on the page and in the lobby, without a reload.
    shown(tv, casual, "#tv-screen").wait_for()
    shown(lobby, casual, "#tv").wait_for()
    assert "Gorogoro" in tv.locator("#tv-screen .tv-variant").inner_text()
    # Nothing live in dobutsu any more: its channel keeps showing its last game.
    tv.goto("/tv/dobutsu")
    shown(tv, rated, "#tv-screen").wait_for()
    tv.locator(f'#tv-screen a.tv-watch[href="/game/{rated}"]').wait_for()
    tv.goto("/tv/chess")
    tv.locator("#tv-status", has_text="no such channel").wait_for()
