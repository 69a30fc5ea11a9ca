"""The pages beyond playing moves with the mouse: the keyboard, check, pieces facing their
owner, the phone layout, French everywhere, the rules pages, the lobby's live lists and the
"play the computer" section."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

import engine

from .helpers import (
    Game,
    arrows_to,
    assert_shows,
    box_of,
    boxes_of,
    focused,
    keyboard_move,
    make_move,
    open_game,
    server_game,
    tab_to_board,
    wait_for_ply,
    wait_started,
)


def describe(variant: str) -> dict[str, Any]:
    described: dict[str, Any] = engine.get_game(variant).describe()
    return described


# ---- keyboard, check, read aloud ---------------------------------------------------------
def test_a_game_played_with_the_keyboard_only(new_context, output_dir: Path):
    pages, _, game_id = open_game(new_context, "dobutsu", spectator=False)
    first, second = pages["first"], pages["second"]
    game = Game("dobutsu")
    # Labels say where and whose: the square, then the owner and the piece.
    assert first.locator('[data-square="b2"]').get_attribute("aria-label") == (
        "b2, first player's chick"
    )
    # One tab stop for the whole board (roving tabindex).
    assert first.locator('#board [data-square][tabindex="0"]').count() == 1
    tab_to_board(first)
    # Escape drops a selection without moving.
    arrows_to(first, "b2")
    first.keyboard.press("Enter")
    assert first.locator('[data-square="b2"].selected').count() == 1
    first.keyboard.press("Escape")
    assert first.locator("#board .sq.selected").count() == 0
    assert first.locator("#board .sq.dest").count() == 0
    # The chick takes the chick: the second player's lion on b4 is now in check.
    keyboard_move(first, game, "b2b3")
    for page in (first, second):
        wait_for_ply(page, 1)
        page.wait_for_selector('[data-square="b4"].check')
        assert "in check" in (page.locator('[data-square="b4"]').get_attribute("aria-label") or "")
        assert "Check!" in page.locator("#status").inner_text()
    # The move was read aloud to the opponent (the live region), check included.
    second.wait_for_function(
        "() => document.getElementById('announce').textContent.includes('takes the chick')"
    )
    announced = second.locator("#announce").inner_text()
    assert announced.startswith("First player: chick b2 to b3, takes the chick")
    assert "Check!" in announced
    first.locator("#board").screenshot(path=output_dir / "dobutsu-check.png")
    # The elephant answers by taking the chick: no check any more.
    keyboard_move(second, game, "c4b3")
    first.wait_for_function("() => !document.querySelector('#board .sq.check')")
    # A drop from the hand, with the keyboard: down into the hand, Enter, up, to b2, Space.
    wait_for_ply(first, 2)
    keyboard_move(first, game, "C*b2")
    assert focused(first)["square"] == "b2"  # the focus stays where the move was made
    wait_for_ply(second, 3)  # the opponent's page hears of it over its socket, a moment later
    assert_shows(second, game)
    assert server_game(second, game_id)["moves"] == game.moves


# ---- pieces face their owner -------------------------------------------------------------
TURNED_JS = """() => [...document.querySelectorAll('.play .piece')].map(el => ({
  side: el.classList.contains('side-first') ? 'first' : 'second',
  turned: getComputedStyle(el).transform.startsWith('matrix(-1'),
}))"""


def assert_faces(page, top: str) -> None:
    pieces = page.evaluate(TURNED_JS)
    assert pieces, "no pieces drawn"
    for piece in pieces:
        assert piece["turned"] == (piece["side"] == top), piece


def test_pieces_face_their_owner_on_both_sides_and_flipped(new_context, output_dir: Path):
    pages, _, _ = open_game(new_context, "dobutsu", spectator=False)
    game = Game("dobutsu")
    for text in ["b2b3", "c4b3"]:  # each side gets a chick in hand: hands are turned too
        make_move(pages[game.mover], game, text)
    first, second = pages["first"], pages["second"]
    wait_for_ply(first, 2)
    wait_for_ply(second, 2)
    assert first.locator(".play .hand-piece .piece").count() == 2
    assert_faces(first, top="second")
    assert_faces(second, top="first")
    first.locator(".play").screenshot(path=output_dir / "dobutsu-faces-first.png")
    second.locator(".play").screenshot(path=output_dir / "dobutsu-faces-second.png")
    first.locator('[data-action="flip"]').click()
    assert_faces(first, top="first")
    first.locator(".play").screenshot(path=output_dir / "dobutsu-faces-first-flipped.png")
    # Jungle's animals face their owner too.
    page = new_context().new_page()
    made = page.context.request.post("/api/games", data={"variant": "jungle", "color": "second"})
    assert made.ok, made.text()
    page.goto(f"/game/{made.json()['id']}")
    page.wait_for_selector("#board .piece")
    assert_faces(page, top="first")
    page.locator(".play").screenshot(path=output_dir / "jungle-faces-second.png")


# ---- phones held upright -----------------------------------------------------------------
# The board's cells are those the height allows (site.css: the narrow screen's budget).
HELD_BY_HEIGHT_JS = """() => {
  const play = getComputedStyle(document.querySelector('.game-page .play'));
  const ranks = +play.getPropertyValue('--ranks');
  const probe = document.createElement('div');
  probe.style.height = 'calc((100svh - var(--header-h) - 2 * var(--bar) - var(--below)) / '
    + ranks + ')';
  document.querySelector('.game-page .play').append(probe);
  const byHeight = probe.getBoundingClientRect().height;
  probe.remove();
  const board = document.querySelector('#board .board').getBoundingClientRect();
  return Math.abs((board.height - 6) / ranks - byHeight) < 1;
}"""


@pytest.mark.parametrize("size", [(390, 844), (360, 740)], ids=["390x844", "360x740"])
def test_phone_portrait_board_uses_the_whole_width(new_context, output_dir: Path, size):
    width, height = size
    phone = {"viewport": {"width": width, "height": height}, "has_touch": True, "is_mobile": True}
    page = new_context(**phone).new_page()
    for variant in ("dobutsu", "gorogoro", "jungle", "yote"):
        made = page.context.request.post("/api/games", data={"variant": variant, "color": "first"})
        assert made.ok, made.text()
        page.goto(f"/game/{made.json()['id']}")
        page.wait_for_selector("#board .sq")
        board = box_of(page, "#board .board")
        top = box_of(page, "#player-top")
        bottom = box_of(page, "#player-bottom")
        # No empty margins: the board spans the screen, less a few pixels, or the height
        # left once the status, buttons and moves under it have room on the first screen
        # (test_game_layout_sizes.py measures that).
        assert board["x"] >= 0 and board["x"] + board["width"] <= width
        held = page.evaluate(HELD_BY_HEIGHT_JS)
        assert board["width"] >= width - 12 or held, (variant, board)
        # The players, their hands and clocks fit around it, all on the first screen.
        assert top["y"] + top["height"] <= board["y"] + 1
        assert bottom["y"] >= board["y"] + board["height"] - 1
        assert bottom["y"] + bottom["height"] <= height, (variant, bottom)
        for box in boxes_of(page, "#player-bottom [data-hand]"):
            assert box["y"] >= bottom["y"] - 8 and box["x"] + box["width"] <= width
        # Nothing wider than the screen.
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        page.screenshot(path=output_dir / f"{variant}-phone-{width}x{height}.png")


# ---- French everywhere -------------------------------------------------------------------
ENGLISH_ONLY_JS = """async () => {
  const { DICTIONARIES } = await import('/static/js/i18n/i18n.js');
  const words = (dict) => new Set(Object.values(dict).join(' ').toLowerCase()
    .replace(/\\{\\w+\\}/g, ' ').match(/[a-zà-ÿœ']{4,}/g));
  const en = new Set([...words(DICTIONARIES.ui.en), ...words(DICTIONARIES.game.en)]);
  const fr = new Set([...words(DICTIONARIES.ui.fr), ...words(DICTIONARIES.game.fr)]);
  // English words French uses too ("le long de"); and "anonymous", the lists' text for an
  // anonymous creator, is also in the server's generated player names ("Anonymous 4F2A"):
  // data, not the page's words; so is "arena" in a tournament's name (its creator's text,
  // shown by the lobby's next-arena line).
  const both = ['long', 'anonymous', 'arena'];
  const englishOnly = [...en].filter(w => !fr.has(w) && !both.includes(w));
  const shown = [document.body.innerText, document.title,
    ...[...document.querySelectorAll('[aria-label], [title]')].flatMap(
      el => [el.getAttribute('aria-label') || '', el.getAttribute('title') || ''])]
    .join(' ').toLowerCase();
  const seen = new Set(shown.match(/[a-zà-ÿœ']{4,}/g));
  return englishOnly.filter(w => seen.has(w));
}"""


def test_french_everywhere_with_a_remembered_switch(new_context, output_dir: Path):
    context = new_context(locale="fr-FR")
    lobby = context.new_page()
    lobby.goto("/")
    lobby.wait_for_selector(".variant-card")
    assert lobby.evaluate("() => document.documentElement.lang") == "fr"
    assert lobby.locator("#create-title").inner_text() == "Nouvelle partie"
    assert lobby.evaluate(ENGLISH_ONLY_JS) == []
    lobby.screenshot(path=output_dir / "lobby-fr.png", full_page=True)
    # Every word the dictionaries hold exists in both languages.
    missing = lobby.evaluate(
        """async () => { const { DICTIONARIES: d } = await import('/static/js/i18n/i18n.js');
        return Object.keys(d.ui.en).filter(k => !(k in d.ui.fr))
          .concat(Object.keys(d.ui.fr).filter(k => !(k in d.ui.en))); }"""
    )
    assert missing == []
    # A game in French: buttons, bars, labels and the dialog.
    pages, _, _ = open_game(new_context, "gorogoro", spectator=False, locale="fr-FR")
    first = pages["first"]
    first.wait_for_selector('[data-action="resign"]')
    assert first.locator('[data-action="resign"]').inner_text() == "Abandonner"
    assert first.locator('[data-square="c1"]').get_attribute("aria-label") == (
        "c1, lion du premier joueur, zone de promotion du second joueur"
    )
    assert first.evaluate(ENGLISH_ONLY_JS) == []
    first.screenshot(path=output_dir / "gorogoro-fr.png")
    # The switch: English at once, and still English after a reload.
    first.locator('.lang-switch [data-lang="en"]').click()
    assert first.locator('[data-action="resign"]').inner_text() == "Resign"
    assert first.locator('.lang-switch [data-lang="en"]').get_attribute("aria-pressed") == "true"
    first.reload()
    first.wait_for_selector('[data-action="resign"]')
    assert first.locator('[data-action="resign"]').inner_text() == "Resign"
    assert first.evaluate("() => document.documentElement.lang") == "en"
    # The invite page too, with its error in French once switched back.
    first.locator('.lang-switch [data-lang="fr"]').click()
    invite = first.context.new_page()
    invite.goto("/invite/not-a-token")
    invite.wait_for_selector("#message a")
    assert "Ce lien d'invitation n'est pas valide" in invite.locator("#message").inner_text()
    assert invite.evaluate(ENGLISH_ONLY_JS) == []


# ---- the rules pages ---------------------------------------------------------------------
def test_rules_pages_draw_their_diagrams_in_both_languages(new_context, output_dir: Path):
    page = new_context(locale="en-US").new_page()
    page.goto("/rules")
    page.wait_for_selector(".rules-index .mini-board .sq")
    cards = page.locator(".rules-index li")
    assert cards.count() == len(engine.game_ids())
    for variant in engine.game_ids():
        board = describe(variant)["board"]
        squares = page.locator(f'.rules-index li[data-variant="{variant}"] .sq')
        assert squares.count() == board["files"] * board["ranks"]
    page.locator('.rules-index a[href="/rules/gorogoro"]').click()
    page.wait_for_url("**/rules/gorogoro")
    page.wait_for_selector('[data-diagram="start"] .piece')
    assert page.locator('[data-diagram="start"] .piece').count() == 16
    assert "How the pieces move" in page.locator("h2").all_inner_texts()
    # One small board per piece, its steps marked from describe()'s offsets.
    pieces = describe("gorogoro")["pieces"]
    assert page.locator('[data-diagram^="piece:"]').count() == len(pieces)
    for piece in pieces:
        figure = page.locator(f'[data-diagram="piece:{piece["letter"]}"]')
        assert figure.locator(".piece").count() == 1
        assert figure.locator(".sq.dest").count() == len(piece["moves"])
    # Example positions are drawn with their marks (the check glow here).
    assert page.locator('[data-diagram="pos:check"] .sq.check').count() == 1
    page.screenshot(path=output_dir / "rules-gorogoro-en.png", full_page=True)
    # French, with jungle's options and its animals by strength.
    fr = new_context(locale="fr-FR").new_page()
    fr.goto("/rules/jungle")
    fr.wait_for_selector('[data-diagram="rank:P"] .piece')
    assert fr.evaluate("() => document.documentElement.lang") == "fr"
    headings = fr.locator("h2").all_inner_texts()
    assert "Les déplacements" in headings and "Options de règles sur Kodama" in headings
    assert "Panthère" in fr.locator('[data-diagram="rank:P"] figcaption').inner_text()
    assert fr.locator("#options dt").all_inner_texts() == ["Pièges", "Répétition"]
    assert fr.locator('[data-diagram="pos:jump"] .sq.dest').count() >= 4
    assert fr.evaluate(ENGLISH_ONLY_JS) == []
    fr.screenshot(path=output_dir / "rules-jungle-fr.png", full_page=True)
    fr.locator('.lang-switch [data-lang="en"]').click()
    assert "Moving" in fr.locator("h2").all_inner_texts()
    # The lobby's game cards and the game page link to the rules.
    page.goto("/")
    for variant in engine.game_ids():
        # The cards come after /api/variants answers: wait for them, not only for "load".
        expect(page.locator(f'.variant-card a[href="/rules/{variant}"]')).to_have_count(1)
    made = page.context.request.post("/api/games", data={"variant": "wali"})
    page.goto(f"/game/{made.json()['id']}")
    page.locator("[data-rules-link]").click()
    page.wait_for_url("**/rules/wali")
    page.wait_for_selector('[data-diagram="pos:line"] .sq.dest')


# ---- the lobby ---------------------------------------------------------------------------
def test_lobby_creates_a_game_that_another_joins_from_the_live_list(new_context, output_dir):
    creator = new_context().new_page()
    joiner = new_context().new_page()
    creator.goto("/")
    joiner.goto("/")
    joiner.wait_for_selector("#open-games .note, #open-games .game-list")
    assert joiner.locator("#bots").is_hidden()  # no computer opponent on this server
    # A click on the card chooses it (on a wide screen only the chosen card shows its blurb).
    creator.locator(".variant-card", has_text="Jungle").click()
    assert creator.locator("#variant-jungle").is_checked()
    creator.select_option('select[data-option="traps"]', "opponent")
    creator.select_option('select[data-option="repetition"]', "tiebreak")
    creator.locator('input[name="clock"][value="clock"]').check()
    creator.fill('input[name="minutes"]', "3")
    creator.fill('input[name="increment"]', "2")
    creator.locator('input[name="color"][value="first"]').check()
    creator.locator("#create-button").click()
    # A game id is URL-safe base64: "-" as well as letters, digits and "_".
    creator.wait_for_url(re.compile(r".*/game/[\w-]+$"))
    game_id = creator.url.rsplit("/", 1)[1]
    # The second context sees it arrive without reloading, with its options and clock.
    row = joiner.locator("#open-games li", has=joiner.locator(f'[data-join="{game_id}"]'))
    row.wait_for()
    text = row.inner_text()
    assert "Dou shou qi (Jungle)" in text and "3+2" in text
    assert "Traps: Only the opponent's traps" in text and "plays first" in text
    joiner.screenshot(path=output_dir / "lobby-open-game.png")
    joiner.locator(f'[data-join="{game_id}"]').click()
    joiner.wait_for_url(f"**/game/{game_id}")
    for page in (creator, joiner):
        wait_started(page)
    stored = server_game(joiner, game_id)
    assert stored["status"] == "started"
    assert stored["rules"] == {"traps": "opponent", "repetition": "tiebreak"}
    assert (stored["clock"]["initial"], stored["clock"]["increment"]) == (180_000, 2_000)
    creator_id = creator.evaluate("() => window.kodama.page.me.id")
    assert stored["players"]["first"]["id"] == creator_id
    assert joiner.evaluate("() => window.kodama.page.me.id") == stored["players"]["second"]["id"]
    # The list shows it no more; the live list does.
    other = new_context().new_page()
    other.goto("/")
    other.locator(f'#live-games a[href="/game/{game_id}"]').wait_for()
    assert other.locator(f'[data-join="{game_id}"]').count() == 0


# ---- play the computer (the bot API answered by the browser's own routes) ----------------
BOTS = [
    {"id": "b1", "username": "kodama-easy", "title": "BOT", "bot": {"games": ["dobutsu", "yote"]}},
    {"id": "b2", "username": "<img src=x>", "title": "BOT", "bot": {"games": ["jungle"]}},
]


def test_play_the_computer_challenges_and_follows_the_answer(new_context):
    page = new_context().new_page()
    posted: list[dict[str, Any]] = []
    answers = {"c1": ["created", "declined"], "c2": ["created", "created", "accepted"]}

    page.route(
        "**/api/bot/online",
        lambda route: route.fulfill(
            content_type="application/x-ndjson",
            body="".join(json.dumps(bot) + "\n" for bot in BOTS) + "\n",
        ),
    )

    def challenge(route) -> None:
        posted.append(json.loads(route.request.post_data or "{}"))
        made = f"c{len(posted)}"
        route.fulfill(json={"id": made, "status": "created", "challenger": None})

    def show(route) -> None:
        made = route.request.url.rsplit("/", 2)[1]
        status = answers[made].pop(0) if len(answers[made]) > 1 else answers[made][0]
        body: dict[str, Any] = {"id": made, "status": status}
        if status == "declined":
            body["declineReason"] = "I am too tired"
        route.fulfill(json=body)

    page.route("**/api/challenge/*/show", show)
    page.route(re.compile(r".*/api/challenge/[^/]+$"), challenge)
    page.goto("/?game=dobutsu")
    page.locator("#bots").wait_for()
    buttons = page.locator("#bot-list [data-bot]")
    assert buttons.count() == 2
    # A name is text, never markup; a bot that does not play the chosen game is disabled.
    assert page.locator("#bot-list img").count() == 0
    assert page.locator('[data-bot="<img src=x>"]').is_disabled()
    page.select_option('select[data-option="ruleset"]', "yokai")
    page.locator('input[name="color"][value="first"]').check()
    page.locator('[data-bot="kodama-easy"]').click()
    page.locator("#bot-status", has_text="kodama-easy declined: I am too tired").wait_for()
    assert posted[0] == {
        "variant": "dobutsu",
        "rules": {"ruleset": "yokai"},
        "color": "white",
        "rated": False,  # a guest's: the Rated box is an account's
        "clock": {"limit": 300, "increment": 3},
    }
    # No clock, the second seat: accepted after a wait, the game opens.
    page.locator('input[name="clock"][value="none"]').check()
    page.locator('input[name="color"][value="second"]').check()
    page.locator('[data-bot="kodama-easy"]').click()
    page.wait_for_url("**/game/c2")
    assert posted[1] == {
        "variant": "dobutsu",
        "rules": {"ruleset": "yokai"},
        "color": "black",
        "rated": False,
    }
