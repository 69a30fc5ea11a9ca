"""What a player reads and hears, in Debian's Chromium: the end in words from each side of
the board (the winner, the loser, a spectator; English and French), a declined draw offer
told to its maker, a review that looks like one (the status says so, the live clocks are
dimmed), names linked to their profiles, and the first sound of a player who arrived by an
invite link, heard on their first interaction."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from .helpers import Game, make_move, open_game, wait_for_ply, wait_started
from .test_follow import START_TONES
from .test_time_controls import two_players

# First's lion walks to c4, second's back row, in five plies: a try (dōbutsu's rules).
TRY = ["b1c2", "b4a3", "c2c3", "a3a2", "c3c4"]

# An AudioContext that runs only once resumed during a user gesture, as a browser's does; it
# records the notes scheduled while it runs (what is heard) and every successful resume.
# A browser's audio, locked until a gesture on the page: only a real (trusted) pointerdown or
# key press unlocks it. (navigator.userActivation cannot stand for it here: a page Playwright
# navigates to counts as activated from the start.)
LOCKED_SOUNDS = """
window.__tones = [];
window.__resumed = 0;
window.__gesture = false;
for (const kind of ["pointerdown", "keydown"]) {
  window.addEventListener(kind, (e) => { if (e.isTrusted) window.__gesture = true; }, true);
}
window.AudioContext = class {
  constructor() { this.state = "suspended"; this.currentTime = 0; this.destination = {}; }
  resume() {
    if (window.__gesture) { this.state = "running"; window.__resumed += 1; }
    return Promise.resolve();
  }
  createOscillator() {
    const ctx = this;
    return { type: "", frequency: { setValueAtTime(f) {
               if (ctx.state === "running") window.__tones.push(f); } },
             connect(next) { return next; }, start() {}, stop() {} };
  }
  createGain() {
    return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} },
             connect(next) { return next; } };
  }
};
"""


def status(page: Any) -> str:
    return " ".join(page.locator("#status").inner_text().split())


def test_the_end_is_told_from_each_side_of_the_board(new_context: Any) -> None:
    pages, watcher, _ = open_game(new_context, "dobutsu")
    first, second = pages["first"], pages["second"]
    game = Game("dobutsu")
    for text in TRY:
        make_move(pages[game.mover], game, text)
    for page in (first, second, watcher):
        wait_for_ply(page, len(TRY))
    expect(first.locator("#status")).to_have_text("You won: your lion reached their back row")
    expect(second.locator("#status")).to_have_text("You lost: their lion reached your back row")
    # A spectator reads who won, by name and side.
    name = watcher.locator("#player-bottom .name").inner_text()
    assert re.fullmatch(r"Anonymous [0-9A-F]{4}", name), name
    expect(watcher.locator("#status")).to_have_text(
        f"{name} (first) won — their lion reached the far row"
    )
    # The loser's page read it aloud too, with the last move.
    assert "You lost: their lion reached your back row" in second.locator("#announce").inner_text()
    second.locator('header.site [data-lang="fr"]').click()
    expect(second.locator("#status")).to_have_text(
        "Vous avez perdu : le lion adverse a atteint votre dernière rangée"
    )
    watcher.locator('header.site [data-lang="fr"]').click()
    assert status(watcher).startswith("Anonyme ")
    assert status(watcher).endswith("(premier) a gagné — son lion a atteint la dernière rangée")


def test_a_declined_draw_offer_is_told_to_its_maker(new_context: Any) -> None:
    pages, _, _ = open_game(new_context, "dobutsu", spectator=False)
    first, second = pages["first"], pages["second"]
    first.locator('[data-action="draw-offer"]').click()
    second.locator('[data-action="draw-decline"]').click()
    expect(first.locator("#toast")).to_have_text("Your draw offer was declined")
    expect(first.locator("#toast")).to_be_visible()
    expect(first.locator('[data-action="draw-offer"]')).to_be_enabled()  # may offer again
    assert "declined" not in (second.locator("#toast").text_content() or "")
    # Declining by moving tells it too (in French here).
    second.locator('header.site [data-lang="fr"]').click()
    second.locator('[data-action="draw-offer"]').click()
    first.locator('[data-action="draw-decline"]').wait_for()
    game = Game("dobutsu")
    make_move(first, game, "b2b3")
    expect(second.locator("#toast")).to_have_text("Votre proposition de nulle a été refusée")


def test_a_review_says_so_and_dims_the_live_clocks(new_context: Any) -> None:
    first, second, _ = two_players(new_context, clock={"minutes": 5, "increment": 3})
    game = Game("dobutsu")
    for text in ["b2b3", "c4b3", "c1c2"]:
        make_move(first if game.mover == "first" else second, game, text)
    wait_for_ply(second, 3)
    clocks = '.play .clock[data-side="first"]'
    opacity = f"() => getComputedStyle(document.querySelector('{clocks}')).opacity"
    assert second.evaluate(opacity) == "1"
    expect(second.locator("#status")).to_contain_text("Your turn")
    second.locator('[data-action="replay-prev"]').click()
    expect(second.locator("#status")).to_have_text("Reviewing move 2 — back to the game")
    assert float(second.evaluate(opacity)) < 0.5
    assert second.evaluate("() => document.body.classList.contains('reviewing')")
    second.keyboard.press("Home")
    expect(second.locator("#status")).to_have_text(
        "Reviewing the first position — back to the game"
    )
    # The status's own link goes back to the live position: the turn, the clocks as they are.
    second.locator('#status [data-action="replay-live"]').click()
    expect(second.locator("#status")).to_contain_text("Your turn")
    assert second.evaluate(opacity) == "1"
    second.keyboard.press("ArrowLeft")
    second.locator('header.site [data-lang="fr"]').click()
    expect(second.locator("#status")).to_have_text("Vous revoyez le coup 2 — retour à la partie")


def test_names_link_to_profiles_and_anonymous_names_do_not(account: Any, new_context: Any) -> None:
    first, alice = account("Alice")
    second, bob = account("Bob")
    made = first.request.post(
        "/api/games", data={"variant": "dobutsu", "color": "first", "public": True}
    )
    assert made.status == 201, made.text()
    game_id = made.json()["id"]
    # The lobby's open game: its creator's name.
    lobby = new_context().new_page()
    lobby.goto("/")
    seek = lobby.locator(f'#open-games [data-game="{game_id}"]')
    expect(seek.locator(f'a[href="/@/{alice}"]')).to_have_text(alice)
    assert second.request.post(f"/api/games/{game_id}/join").ok
    # The lobby's live game: both names.
    live = lobby.locator("#live-games li", has=lobby.locator(f'a[href="/game/{game_id}"]'))
    expect(live.locator(f'a[href="/@/{alice}"]')).to_have_count(1)
    expect(live.locator(f'a[href="/@/{bob}"]')).to_have_count(1)
    # The game page: each player's bar, for the players and a spectator.
    watcher = new_context().new_page()
    for page in (first, second, watcher):
        page.goto(f"/game/{game_id}")
        wait_started(page)
        expect(page.locator(f'.player .name a[href="/@/{alice}"]')).to_have_text(alice)
        expect(page.locator(f'.player .name a[href="/@/{bob}"]')).to_have_text(bob)
    # The chat: an account's line names them with a link.
    box = first.locator("#chat-input")
    box.fill("good luck")
    box.press("Enter")
    expect(second.locator(f'#chat-log a.chat-user[href="/@/{alice}"]')).to_have_text(alice)
    second.locator(f'.player .name a[href="/@/{alice}"]').click()
    second.wait_for_url(f"**/@/{alice}")
    # Anonymous players have no profile: their names are plain text.
    pages, _, _ = open_game(new_context, "dobutsu", spectator=False)
    names = pages["first"].locator(".player .name")
    expect(names.first).to_contain_text("Anonymous")
    assert names.locator("a").count() == 0


def test_an_invited_player_hears_the_start_on_their_first_key_press(new_context: Any) -> None:
    creator = new_context().new_page()
    made = creator.context.request.post("/api/games", data={"variant": "dobutsu", "color": "first"})
    assert made.ok, made.text()
    invited = new_context()
    invited.add_init_script(LOCKED_SOUNDS)
    page = invited.new_page()
    page.goto(made.json()["inviteUrl"])
    wait_started(page)
    # No gesture on this page yet: the browser keeps audio locked, nothing is heard.
    assert page.evaluate("() => [window.__tones, window.__resumed]") == [[], 0]
    page.keyboard.press("Tab")
    page.wait_for_function("n => window.__tones.length >= n", arg=len(START_TONES))
    assert page.evaluate("() => [window.__tones, window.__resumed]") == [START_TONES, 1]


def test_a_first_click_unlocks_the_sounds_that_follow(new_context: Any) -> None:
    creator = new_context().new_page()
    made = creator.context.request.post("/api/games", data={"variant": "dobutsu", "color": "first"})
    assert made.ok, made.text()
    creator.goto(f"/game/{made.json()['id']}")
    invited = new_context()
    invited.add_init_script(LOCKED_SOUNDS)
    page = invited.new_page()
    page.goto(made.json()["inviteUrl"])
    wait_started(page)
    page.locator("#title").click()
    page.wait_for_function("n => window.__tones.length >= n", arg=len(START_TONES))
    # Unlocked: the opponent's move is heard as it comes.
    wait_started(creator)
    make_move(creator, Game("dobutsu"), "b1a2")
    page.wait_for_function("n => window.__tones.length > n", arg=len(START_TONES))
    assert page.evaluate("() => window.__resumed") == 1
