"""Driving the game page like a person: click squares and hand pieces, pick stones, answer
the promotion dialog; wait on the page's own state (never fixed sleeps).

Only the stable hooks are used: ``data-square``, ``data-hand``/``data-side``, ``data-action``
and the promotion dialog's button values; the page's state is read from ``window.kodama``
(kept for the page tests) and the move list (each move's canonical text, never translated,
is its ``data-move``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import engine

MOVE = re.compile(r"^(?:([A-Z])\*|(\*)|([a-z]\d+))([a-z]\d+)(\+)?(?:x([a-z]\d+))?$")

# A square holds a piece when it has an element besides its coordinate labels.
OCCUPIED_JS = """() => [...document.querySelectorAll('#board [data-square]')]
  .filter(sq => [...sq.querySelectorAll('*')].some(el => !el.closest('.coord')))
  .map(sq => sq.dataset.square).sort()"""


def parse(text: str) -> dict[str, Any]:
    m = MOVE.match(text)
    assert m, text
    drop, star, origin, to, plus, removed = m.groups()
    return {
        "origin": f"{drop}*" if drop else "*" if star else origin,
        "drop": drop or ("S" if star else None),
        "to": to,
        "promotion": bool(plus),
        "removed": removed,
    }


def occupied(fen: str, files: int, ranks: int) -> list[str]:
    """The occupied squares of a position string's board field."""
    squares = []
    for i, row in enumerate(fen.split(maxsplit=1)[0].split("/")):
        rank = ranks - i
        file = 0
        for token in re.findall(r"\d+|\+?[A-Za-z]", row):
            if token.isdigit():
                file += int(token)
            else:
                squares.append(f"{chr(97 + file)}{rank}")
                file += 1
    return sorted(squares)


def page_state(page) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate(
        """() => { const p = window.kodama.page, g = p.game;
        const seat = g && p.me && g.players ? ['first', 'second'].find(
          s => g.players[s] && g.players[s].id === p.me.id) || null : null;
        return g ? {fen: g.fen, moves: g.moves, status: g.status, result: g.result,
                    seat, awaiting: p.awaiting} : null; }"""
    )
    return state


def move_list(page) -> list[str]:
    """The move list's canonical texts (each move's tooltip; the text shown is readable)."""
    texts = page.locator("#moves .mv").evaluate_all("els => els.map(e => e.dataset.move)")
    return [str(t) for t in texts]


def wait_for_ply(page, ply: int, timeout: float = 10_000) -> None:
    page.wait_for_function(
        """n => { const p = window.kodama && window.kodama.page;
          return p && p.game && p.game.moves.length === n && !p.awaiting; }""",
        arg=ply,
        timeout=timeout,
    )


BOXES_JS = """selector => [...document.querySelectorAll(selector)].map(el => {
  const r = el.getBoundingClientRect();
  return { x: r.x, y: r.y, width: r.width, height: r.height };
})"""


def boxes_of(page, selector: str) -> list[dict[str, float]]:
    """Where each element matching ``selector`` is drawn now (none may match), all measured
    in one turn of the page's script. The pages redraw by replacing markup, so a locator's
    ``bounding_box()`` can resolve an element, lose it to a redraw, and answer ``None``."""
    boxes: list[dict[str, float]] = page.evaluate(BOXES_JS, selector)
    return boxes


def box_of(page, selector: str) -> dict[str, float]:
    """Where the one element matching ``selector`` is drawn, once it is there."""
    page.locator(selector).wait_for()
    boxes = boxes_of(page, selector)
    assert len(boxes) == 1, (selector, boxes)
    return boxes[0]


def wait_started(page) -> None:
    page.wait_for_function(
        "() => { const g = window.kodama && window.kodama.page.game;"
        " return g && g.status !== 'created'; }"
    )


@dataclass
class Game:
    """The engine's view of the game being played, to know what the page should show."""

    variant: str
    game: Any = None
    pos: Any = None
    moves: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.game = engine.get_game(self.variant)
        self.pos = self.game.start()
        board = self.game.describe()["board"]
        self.files, self.ranks = board["files"], board["ranks"]

    @property
    def fen(self) -> str:
        return str(self.game.to_text(self.pos))

    @property
    def mover(self) -> str:
        return str(self.game.side_to_move(self.pos))

    def candidates(self, text: str) -> list[str]:
        """Legal moves sharing ``text``'s origin and target: the page must ask which one."""
        want = parse(text)
        return [
            t
            for t in self.game.legal_moves(self.pos)
            if parse(t)["origin"] == want["origin"] and parse(t)["to"] == want["to"]
        ]

    def play(self, text: str) -> None:
        self.pos = self.game.play(self.pos, text)
        self.moves.append(text)

    @property
    def result(self):
        return self.game.result(self.pos)


def tap_or_click(locator, touch: bool) -> None:
    if touch:
        locator.tap()
    else:
        locator.click()


def make_move(page, game: Game, text: str, *, touch: bool = False) -> None:
    """Play ``text`` on ``page`` by clicking as a person would, then wait for the answer."""
    wait_for_ply(page, len(game.moves))
    move = parse(text)
    side = game.mover
    candidates = game.candidates(text)
    if move["drop"]:
        # Hands are drawn in the player bars, beside the board.
        hand = page.locator(f'.play [data-hand="{move["drop"]}"][data-side="{side}"]')
        tap_or_click(hand, touch)
    else:
        tap_or_click(page.locator(f'#board [data-square="{move["origin"]}"]'), touch)
    tap_or_click(page.locator(f'#board [data-square="{move["to"]}"]'), touch)
    if len(candidates) > 1 and move["removed"]:
        tap_or_click(page.locator(f'#board [data-square="{move["removed"]}"]'), touch)
    elif len(candidates) > 1:
        dialog = page.locator("dialog#promotion")
        answer = "promote" if move["promotion"] else "stay"
        tap_or_click(dialog.locator(f'button[value="{answer}"]'), touch)
    game.play(text)
    wait_for_ply(page, len(game.moves))


def assert_shows(page, game: Game) -> None:
    """The page shows the engine's position: same position string, move list, pieces.

    Only the mover's page is known to have its answer; another player's page or a
    spectator's gets the move over its socket a moment later, so each waits for it first."""
    wait_for_ply(page, len(game.moves))
    state = page_state(page)
    assert state["fen"] == game.fen
    assert state["moves"] == game.moves
    assert move_list(page) == game.moves
    assert page.evaluate(OCCUPIED_JS) == occupied(game.fen, game.files, game.ranks)


def piece_at(fen: str, square: str, ranks: int) -> str | None:
    """The token on ``square`` of a position string ("L", "+P", "s"...), None when empty."""
    row = fen.split(maxsplit=1)[0].split("/")[ranks - int(square[1:])]
    file = 0
    for token in re.findall(r"\d+|\+?[A-Za-z]", row):
        if token.isdigit():
            file += int(token)
            continue
        if file == ord(square[0]) - 97:
            return str(token)
        file += 1
    return None


def open_game(new_context, variant: str, *, spectator: bool = True, **first_options):
    """The creator (first) opens the game page, the second player the invite link, a third
    context watches. Returns (pages by side, spectator page or None, game id)."""
    first = new_context(**first_options).new_page()
    created = first.context.request.post(
        "/api/games", data={"variant": variant, "color": "first", "clock": None}
    )
    assert created.ok, created.text()
    body = created.json()
    first.goto(f"/game/{body['id']}")
    first.wait_for_function("() => window.kodama && window.kodama.page.game")
    second = new_context().new_page()
    second.goto(body["inviteUrl"])
    second.wait_for_url(f"**/game/{body['id']}")
    watcher = None
    if spectator:
        watcher = new_context().new_page()
        watcher.goto(f"/game/{body['id']}")
    for page in (first, second, *([watcher] if watcher else [])):
        wait_started(page)
    assert page_state(first)["seat"] == "first"
    assert page_state(second)["seat"] == "second"
    if watcher:
        assert page_state(watcher)["seat"] is None
    return {"first": first, "second": second}, watcher, body["id"]


def server_game(page, game_id: str) -> dict[str, Any]:
    answer = page.context.request.get(f"/api/games/{game_id}")
    assert answer.ok
    return dict(answer.json()["game"])


# ---- the keyboard ------------------------------------------------------------------------
FOCUSED_JS = """() => { const el = document.activeElement;
  return el ? {square: el.dataset.square || null, hand: el.dataset.hand || null,
               side: el.dataset.side || null} : null; }"""


def focused(page) -> dict[str, Any]:
    value: dict[str, Any] = page.evaluate(FOCUSED_JS)
    return value


def tab_to_board(page, limit: int = 40) -> str:
    """Press Tab from wherever the focus is until it lands on a board square."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        square = focused(page)["square"]
        if square:
            return str(square)
    raise AssertionError("Tab never reached the board")


def arrows_to(page, square: str) -> None:
    """Walk the board's focus to ``square`` with the arrow keys, as seen on the screen."""
    here = focused(page)["square"]
    assert here, "the focus is not on a board square"
    flipped = page.evaluate("() => window.kodama.page.orientation") == "second"
    files = ord(square[0]) - ord(here[0])
    ranks = int(square[1:]) - int(here[1:])
    if flipped:
        files, ranks = -files, -ranks
    for _ in range(abs(files)):
        page.keyboard.press("ArrowRight" if files > 0 else "ArrowLeft")
    for _ in range(abs(ranks)):
        page.keyboard.press("ArrowUp" if ranks > 0 else "ArrowDown")
    assert focused(page)["square"] == square


def arrows_to_hand(page, letter: str) -> None:
    """From the board, down into the player's own hand (below the board), then along it."""
    for _ in range(12):
        if focused(page)["hand"]:
            break
        page.keyboard.press("ArrowDown")
    for key in ("ArrowLeft",) * 4 + ("ArrowRight",) * 4:
        if focused(page)["hand"] == letter:
            return
        page.keyboard.press(key)
    assert focused(page)["hand"] == letter


def keyboard_move(page, game: Game, text: str) -> None:
    """Play ``text`` with the keyboard only: arrows to the piece, Enter, arrows, Enter."""
    wait_for_ply(page, len(game.moves))
    move = parse(text)
    if not focused(page)["square"] and not focused(page)["hand"]:
        tab_to_board(page)
    if move["drop"]:
        arrows_to_hand(page, move["drop"])
        page.keyboard.press("Enter")
        page.keyboard.press("ArrowUp")
    else:
        arrows_to(page, move["origin"])
        page.keyboard.press("Enter")
    arrows_to(page, move["to"])
    page.keyboard.press("Space")
    game.play(text)
    wait_for_ply(page, len(game.moves))
