"""Every game at every common screen size, in a live game with clocks: both clocks, both
hands, the move list and every button show uncovered on the screen (``elementFromPoint`` at
each one's centre finds it), the board is as large as the space allows, and a long game's
move list scrolls in its own box instead of growing the panel over the clocks.

One game per board: the first player looks from a desktop browser, the second from a phone's
(touch, overlay scrollbars; in French after the first check, its words being longer); each
page is resized through the sizes of its kind. The sizes are checked early (hands holding
pieces) and after a long game (50 plies)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from .helpers import Game, wait_for_ply, wait_started

# The screens of the tester's report: laptops and desktops, then a phone and a tablet held
# upright.
WIDE = [(1024, 768), (1280, 800), (1366, 768), (1920, 1080)]
NARROW = [(390, 844), (768, 1024)]
PHONE = {"has_touch": True, "is_mobile": True}

# The first plies: each hand holds something afterwards (jungle has none).
EARLY: dict[str, list[str]] = {
    "dobutsu": ["b2b3", "b4b3"],
    "gorogoro": ["c3c4", "d4d3", "c4c5", "d6c5"],
    "jungle": ["a3a4", "g7g6"],
    "yote": ["*f5", "*f4"],
    "wali": ["*d1", "*c2"],
}
LONG = 50
DROP = re.compile(r"^[A-Z]\*")

# What each part must show: found by its selector, seen at its centre, inside the screen.
PARTS_JS = """() => {
  const parts = [
    ["top clock", "#player-top .clock"], ["bottom clock", "#player-bottom .clock"],
    ["top hand", "#hand-top [data-hand]"], ["bottom hand", "#hand-bottom [data-hand]"],
    ["move list", "#moves"], ["board", "#board .board"],
    ["button", "#actions button, #actions a.button, #replay button"],
  ];
  const vw = innerWidth, vh = innerHeight, problems = [], counts = {};
  for (const [name, selector] of parts) {
    const shown = [...document.querySelectorAll(selector)].filter((el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0;
    });
    counts[name] = shown.length;
    for (const el of shown) {
      const r = el.getBoundingClientRect();
      const which = el.dataset.action || el.dataset.hand || el.textContent.trim().slice(0, 16);
      const what = `${name} ${which}`;
      if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5) {
        problems.push(`${what}: not inside the screen: ${JSON.stringify(r)}`);
      }
      const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      if (!hit || !(hit === el || el.contains(hit))) {
        problems.push(`${what}: covered by ${hit ? hit.outerHTML.slice(0, 90) : "nothing"}`);
      }
    }
  }
  return { problems, counts };
}"""

# How much each cell could still grow: the free width and height left on the screen beside
# and under what must show, shared among the board's files and ranks.
ROOM_JS = """(wide) => {
  const box = (s) => document.querySelector(s).getBoundingClientRect();
  const board = box("#board .board");
  const files = +getComputedStyle(document.querySelector("#board")).getPropertyValue("--files");
  const ranks = +getComputedStyle(document.querySelector("#board")).getPropertyValue("--ranks");
  const under = wide ? [".play"] : [".play", "#moves", "#actions", "#replay"];
  const lowest = Math.max(...under.map((s) => box(s).bottom));
  const used = wide ? box(".panel").right - box(".play").left : board.width;
  return { cell: board.height / ranks, files, ranks,
           freeWidth: innerWidth - used, freeHeight: innerHeight - lowest };
}"""

PAGE_JS = """() => ({ width: document.documentElement.scrollWidth,
  height: document.documentElement.scrollHeight, innerWidth, innerHeight })"""

# The last move's button shows inside the move list's box, which scrolls.
LAST_MOVE_JS = """() => {
  const list = document.getElementById("moves");
  const moves = list.querySelectorAll(".mv");
  const last = moves[moves.length - 1].getBoundingClientRect();
  const r = list.getBoundingClientRect();
  return { scrolls: list.scrollHeight > list.clientHeight + 1,
           lastShown: last.top >= r.top - 1 && last.bottom <= r.bottom + 1 };
}"""


def check_size(page, size: tuple[int, int], *, wide: bool, hands: bool) -> dict[str, Any]:
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    # Two frames: what follows a resize (the move list keeps its shown move in sight) has run.
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    parts = page.evaluate(PARTS_JS)
    assert parts["problems"] == [], (size, parts["problems"])
    counts = parts["counts"]
    assert counts["top clock"] == counts["bottom clock"] == 1, (size, counts)
    assert counts["move list"] == counts["board"] == 1, (size, counts)
    # Resign, offer a draw, flip the board; the replay buttons.
    assert counts["button"] >= 5, (size, counts)
    if hands:
        assert counts["top hand"] >= 1 and counts["bottom hand"] >= 1, (size, counts)
    sizes = page.evaluate(PAGE_JS)
    assert sizes["width"] <= width, (size, sizes)
    if wide:
        # The page is the screen's height: only the panel scrolls, within itself.
        assert sizes["height"] <= height, (size, sizes)
    # As large as the space allows: the board is held by the width or by the height, so a
    # cell could grow by at most a tenth (wide) before something had to leave the screen
    # (what must show: the bars and clocks; on a wide screen the panel beside the board, on
    # a narrow one the buttons and the move list under it). On a narrow screen a fifth: room
    # is kept under the board for a status of two lines and a second row of buttons, which
    # come and go during a game, so that the board never jumps.
    room: dict[str, Any] = page.evaluate(ROOM_JS, wide)
    growth = min(room["freeWidth"] / room["files"], room["freeHeight"] / room["ranks"])
    assert room["cell"] >= (0.9 if wide else 0.8) * (room["cell"] + growth), (size, room)
    return room


def send(pages: dict[str, Any], game: Game, text: str) -> None:
    """``text`` from the mover's page, as its board would send it; both pages see it."""
    pages[game.mover].evaluate("text => window.kodama.socket.sendMove(text)", text)
    game.play(text)
    for page in pages.values():
        wait_for_ply(page, len(game.moves))


def next_move(game: Game, rng: random.Random) -> str | None:
    """A move that does not end the game; in the shogi games not a drop while another move
    exists, so the hands keep their pieces."""
    rules, pos = game.game, game.pos
    going = [m for m in rules.legal_moves(pos) if rules.result(rules.play(pos, m)) is None]
    kept = [m for m in going if not DROP.match(m)] or going
    return rng.choice(kept) if kept else None


def open_clocked_game(new_context, variant: str) -> dict[str, Any]:
    first = new_context(viewport={"width": 1280, "height": 800}).new_page()
    made = first.request.post(
        "/api/games",
        data={"variant": variant, "color": "first", "clock": {"minutes": 30, "increment": 5}},
    )
    assert made.ok, made.text()
    body = made.json()
    first.goto(f"/game/{body['id']}")
    second = new_context(viewport={"width": 390, "height": 844}, **PHONE).new_page()
    second.goto(body["inviteUrl"])
    second.wait_for_url(f"**/game/{body['id']}")
    for page in (first, second):
        wait_started(page)
        page.wait_for_selector("#player-bottom .clock:not([hidden])")
    return {"first": first, "second": second}


@pytest.mark.parametrize("variant", list(EARLY))
def test_everything_shows_at_every_size(new_context, output_dir: Path, variant: str):
    pages = open_clocked_game(new_context, variant)
    game = Game(variant)
    for text in EARLY[variant]:
        send(pages, game, text)
    hands = variant != "jungle"
    for size in WIDE:
        check_size(pages["first"], size, wide=True, hands=hands)
    for size in NARROW:
        check_size(pages["second"], size, wide=False, hands=hands)
    # French words are longer (the buttons' rows): the phone plays on in French.
    phone = pages["second"]
    phone.locator('header.site [data-lang="fr"]').click()
    phone.wait_for_function("() => document.documentElement.lang === 'fr'")
    check_size(phone, NARROW[0], wide=False, hands=hands)

    rng = random.Random(variant)
    while len(game.moves) < LONG:
        chosen = next_move(game, rng)
        assert chosen, game.moves
        send(pages, game, chosen)
    for page, sizes, wide in ((pages["first"], WIDE, True), (pages["second"], NARROW, False)):
        for size in sizes:
            check_size(page, size, wide=wide, hands=False)
            listed = page.evaluate(LAST_MOVE_JS)
            assert listed == {"scrolls": True, "lastShown": True}, (size, listed)
            page.screenshot(path=output_dir / f"game-size-{variant}-{size[0]}x{size[1]}.png")
