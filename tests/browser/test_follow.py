"""Every page of a player follows them to their new game: a creator waiting on the lobby,
on another page (the site socket) or on another game's page is taken to the game as soon as
it is joined, hears the start sound, and reads "Your turn" in the tab title when it is."""

from __future__ import annotations

import json
from typing import Any

# Web Audio stands in for a recorder: every tone's frequency, in the order played (sound.js
# plays "start" as 392 Hz then 587 Hz). Installed in every document of the context.
RECORD_SOUNDS = """
window.__tones = [];
window.AudioContext = class {
  constructor() { this.state = "running"; this.currentTime = 0; this.destination = {}; }
  resume() { return Promise.resolve(); }
  createOscillator() {
    return { type: "", frequency: { setValueAtTime(f) { window.__tones.push(f); } },
             connect(next) { return next; }, start() {}, stop() {} };
  }
  createGain() {
    return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} },
             connect(next) { return next; } };
  }
};
"""
START_TONES = [392, 587]


def _player(new_context: Any) -> Any:
    context = new_context()
    context.add_init_script(RECORD_SOUNDS)
    return context


def _create(context: Any, **body: Any) -> str:
    made = context.request.post("/api/games", data={"variant": "dobutsu", **body})
    assert made.ok, made.text()
    return str(made.json()["id"])


def _taken_to_the_game(page: Any, game_id: str, your_turn: bool) -> None:
    page.wait_for_url(f"**/game/{game_id}")
    page.wait_for_function(
        "() => { const g = window.kodama && window.kodama.page.game;"
        " return g && g.status === 'started'; }"
    )
    page.wait_for_function("n => window.__tones.length >= n", arg=len(START_TONES))
    assert page.evaluate("() => window.__tones") == START_TONES
    title = page.title()
    assert title.startswith("Your turn · ") == your_turn, title


def test_a_creator_on_the_lobby_is_taken_to_the_game_when_it_is_joined(new_context):
    creator = _player(new_context)
    page = creator.new_page()
    page.goto("/")
    page.wait_for_selector("#connection.open")
    game_id = _create(creator, color="first", public=True)
    page.locator(f'[data-cancel="{game_id}"]').wait_for()  # listed, marked as their own
    assert new_context().request.post(f"/api/games/{game_id}/join").ok
    _taken_to_the_game(page, game_id, your_turn=True)
    # Arrived there once: a reload of the game is silent.
    page.reload()
    page.wait_for_function("() => window.kodama && window.kodama.page.game")
    assert page.evaluate("() => window.__tones") == []


def test_a_page_without_a_socket_of_its_own_follows_through_the_site_socket(new_context):
    creator = _player(new_context)
    page = creator.new_page()
    with page.expect_websocket() as opened:
        page.goto("/rules")
    site = opened.value
    assert site.url.endswith("/ws/site")
    # Its first message says it is following.
    assert json.loads(site.wait_for_event("framereceived"))["type"] == "site"
    made = creator.request.post("/api/games", data={"variant": "dobutsu", "color": "second"})
    assert made.ok, made.text()
    game_id, invite = made.json()["id"], str(made.json()["inviteUrl"]).rsplit("/", 1)[1]
    assert new_context().request.post(f"/api/invite/{invite}").ok
    _taken_to_the_game(page, game_id, your_turn=False)


def test_a_game_page_follows_its_player_to_another_game(new_context):
    creator = _player(new_context)
    other = new_context()
    watched = _create(other, color="first")
    page = creator.new_page()
    page.goto(f"/game/{watched}")
    page.wait_for_selector("#connection.open")
    game_id = _create(creator, color="first", public=True)
    assert new_context().request.post(f"/api/games/{game_id}/join").ok
    _taken_to_the_game(page, game_id, your_turn=True)


def test_a_seek_leaves_another_browsers_lobby_when_its_creator_closes_the_page(new_context):
    creator = new_context()
    page = creator.new_page()
    page.goto("/")
    page.wait_for_selector("#connection.open")
    game_id = _create(creator, color="random", public=True)
    other = new_context().new_page()
    other.goto("/")
    row = other.locator(f'[data-join="{game_id}"]')
    row.wait_for()
    page.close()
    # Gone within the grace: a new seek is kept 10 s for its page to open, then ~2 s.
    row.wait_for(state="detached", timeout=20_000)
    refused = other.context.request.post(f"/api/games/{game_id}/join")
    assert refused.status == 409 and refused.json()["code"] == "seek.away"
