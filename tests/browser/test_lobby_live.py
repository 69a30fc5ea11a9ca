"""The lobby page follows the lobby socket's changes: games another client creates, cancels
and starts appear and go without a reload, as changes after the first whole lists."""

from __future__ import annotations

import json
from typing import Any


def _row(page: Any, game_id: str) -> Any:
    return page.locator("#open-games li", has=page.locator(f'[data-join="{game_id}"]'))


def test_the_lobby_list_updates_live_when_another_client_creates_and_cancels(new_context):
    page = new_context().new_page()
    received: list[dict[str, Any]] = []
    page.on(  # the lobby socket's (the lobby's TV board has a socket of its own)
        "websocket",
        lambda ws: (
            ws.url.endswith("/ws/lobby")
            and ws.on("framereceived", lambda frame: received.append(json.loads(frame)))
        ),
    )
    page.goto("/")
    page.wait_for_selector("#open-games .note, #open-games .game-list")
    other = new_context()

    def create(variant: str) -> str:
        made = other.request.post("/api/games", data={"variant": variant, "color": "first"})
        assert made.ok, made.text()
        return str(made.json()["id"])

    wali, yote = create("wali"), create("yote")
    _row(page, wali).wait_for()
    _row(page, yote).wait_for()
    # Newest first, as the server orders them.
    ids = page.locator("#open-games [data-join]").evaluate_all(
        "(els) => els.map(e => e.dataset.join)"
    )
    assert ids.index(yote) < ids.index(wali)
    assert other.request.post(f"/api/games/{wali}/cancel").ok
    _row(page, wali).wait_for(state="detached")
    assert _row(page, yote).is_visible()
    # The game another person joins moves to the live list.
    joiner = new_context()
    assert joiner.request.post(f"/api/games/{yote}/join").ok
    _row(page, yote).wait_for(state="detached")
    page.locator(f'#live-games a[href="/game/{yote}"]').wait_for()
    # The lists: one snapshot, then diffs (the quick-pairing tiles' counts, `pools`, come
    # whenever another test's players wait in a pool: they are not the lists).
    kinds = [message["type"] for message in received if message["type"] != "pools"]
    assert kinds[0] == "lobby" and set(kinds[1:]) == {"lobbyDiff"}, kinds
    # A page opened now shows the same lists.
    fresh = new_context().new_page()
    fresh.goto("/")
    fresh.locator(f'#live-games a[href="/game/{yote}"]').wait_for()
    assert _row(fresh, wali).count() == 0
