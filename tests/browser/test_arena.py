"""An arena of eight accounts played to its end: four people in Chromium (the tournaments
page's form, the arena page's Join, Pause, Berserk, their games on the game page) and four
BOT accounts through berserk, unmodified (join, berserk, moves, a draw). Seven games, each
result chosen so that lichess's scoring is exercised: a berserk win too short for its point,
an early draw worth nothing, a berserk win worth 3, a draw, a streak on fire worth 4, a draw
after a draw worth nothing; the standings and the podium are checked against the ones
computed by hand below. The games on when its creator ends it do not count."""

from __future__ import annotations

import time
from typing import Any

import berserk
import httpx
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.app.outbox.test_outbox_crash import TRY_GAME
from tests.app.tournaments.arena import quiet_moves
from tests.browser.accounts import own_address
from tests.browser.helpers import Game, make_move, server_game, wait_for_ply, wait_started
from tests.server import ACCOUNT_PASSWORD, Server

# Hand-computed (docs/api.md, "Tournaments"): name, score, sheet (latest first).
STANDINGS = [
    ("b3", 9, "423"),  # berserk win in 14 plies (3), a win (2), on fire (4)
    ("p1", 3, "102"),  # a win in 5 plies, berserk too early (2), a loss, a draw (1)
    ("b4", 1, "01"),  # a draw (1), a draw after a draw, no win between (0): performance 1500
    ("p4", 1, "01"),  # a draw (1), a loss (0): performance 1250
    ("p2", 0, "0"),  # an early draw (0): performance 1500
    ("b2", 0, "0"),  # the same, joined after p2
    ("b1", 0, "0"),  # a loss: performance 1000
    ("p3", 0, "0"),  # a loss, joined after b1
]


class Bot:
    """A BOT account played through berserk (registered from its own address)."""

    def __init__(self, server: Server, name: str) -> None:
        self.name = name
        body = {"username": name, "password": ACCOUNT_PASSWORD}
        transport = httpx.HTTPTransport(local_address=own_address())
        with httpx.Client(base_url=server.base, transport=transport, timeout=30) as web:
            web.post("/api/account/register", json=body).raise_for_status()
            made = web.post("/api/token", data={**body, "scopes": "bot:play"})
            made.raise_for_status()
            token = made.json()["token"]
        self.session = berserk.TokenSession(token)
        self.client: Any = berserk.Client(session=self.session, base_url=server.base)
        self.client.account.upgrade_to_bot()  # type: ignore[no-untyped-call]
        self.base = server.base

    def game(self, tid: str, after: str | None = None) -> str:
        """The bot's arena game once paired (not ``after``, its last one)."""

        def paired() -> str | None:
            found = self.client.tournaments.get_tournament(tid)["me"]["gameId"]
            return None if found == after else found

        return str(wait_for(paired))

    def move(self, game_id: str, move: str) -> None:
        self.client.bots.make_move(game_id, move)

    def draw(self, game_id: str) -> None:
        # berserk 0.14's bots client has no draw method: its session posts it (docs/bots.md).
        self.session.post(f"{self.base}/api/bot/game/{game_id}/draw/yes").raise_for_status()


def wait_for(check: Any, seconds: float = 30.0) -> Any:
    deadline = time.monotonic() + seconds
    while (found := check()) is None:
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.1)
    return found


def person_game(page: Any, tid: str, after: str | None = None) -> str:
    """The person's arena game once paired (not ``after``, their last one), as the arena
    page links it."""

    def paired() -> str | None:
        found = page.request.get(f"/api/tournament/{tid}").json()["me"]["gameId"]
        return None if found == after else found

    game_id = str(wait_for(paired))
    try:
        page.goto(f"/tournament/{tid}")
    except PlaywrightError as error:
        # A finished game's page follows its player to the next arena game: when the pairing
        # comes first, that navigation interrupts this one (Chromium says so, or that it
        # aborted it); go once it has landed.
        if not any(m in str(error) for m in ("interrupted by another navigation", "ERR_ABORTED")):
            raise
        page.wait_for_url(f"**/game/{game_id}")
        page.goto(f"/tournament/{tid}")
    page.locator(f'[data-my-game][href="/game/{game_id}"]').wait_for()
    return game_id


class Match:
    """One arena game and the moves its two sides will play: a person by clicking on their
    game page, a bot by berserk. Played in steps (``to``): every game's first two moves are
    made soon after it starts, as its players must (the first-move deadline)."""

    def __init__(self, game_id: str, first: Any, second: Any, moves: list[str]) -> None:
        self.id, self.sides, self.moves = game_id, (first, second), moves
        self.game = Game("dobutsu")

    def to(self, ply: int | None = None) -> Match:
        for side in self.sides:
            if not isinstance(side, Bot):
                side.goto(f"/game/{self.id}")
                wait_started(side)
                wait_for_ply(side, len(self.game.moves))
        for move in self.moves[len(self.game.moves) : ply]:
            mover = self.sides[len(self.game.moves) % 2]
            if isinstance(mover, Bot):
                mover.move(self.id, move)
                self.game.play(move)
            else:
                make_move(mover, self.game, move)
        for side in self.sides:
            if not isinstance(side, Bot):
                wait_for_ply(side, len(self.game.moves))
        return self


def wait_over(page: Any, game_id: str) -> None:
    """Until the game is over, as the server says (the page may have followed its player to
    their next game already)."""
    wait_for(lambda: server_game(page, game_id)["result"])


def test_an_arena_of_people_and_bots_is_scored_as_lichess_scores(
    account: Any, server: Server
) -> None:
    tag = str(time.monotonic_ns())[-5:]
    people = {f"p{i}": account(f"p{i}x{tag}", locale="en-GB") for i in range(1, 5)}
    bots = {f"b{i}": Bot(server, f"b{i}x{tag}_bot") for i in range(1, 5)}
    names = {key: username for key, (_, username) in people.items()}
    names.update({key: bot.name for key, bot in bots.items()})
    p1, p2, p3, p4 = (people[f"p{i}"][0] for i in range(1, 5))
    b1, b2, b3, b4 = (bots[f"b{i}"] for i in range(1, 5))

    # p1 creates it with the form; it starts at once.
    p1.goto("/tournaments")
    form = p1.locator("#create")
    form.locator('input[name="name"]').fill(f"Arena {tag}")
    form.locator('select[name="variant"]').select_option("dobutsu")
    form.locator('input[name="clockTime"]').fill("10")  # no clock runs out while others play
    form.locator('input[name="clockIncrement"]').fill("0")
    form.locator('input[name="minutes"]').fill("60")
    form.locator('input[name="waitMinutes"]').fill("0")
    form.locator('button[type="submit"]').click()
    p1.wait_for_url("**/tournament/*")
    tid = p1.url.rsplit("/", 1)[1]
    expect(p1.locator("#name")).to_have_text(f"Arena {tag}")
    expect(p1.locator("#countdown")).to_contain_text("Ends in")

    def join(who: Any) -> None:
        if isinstance(who, Bot):
            who.client.tournaments.join_arena(tid)
        else:
            who.goto(f"/tournament/{tid}")
            who.locator('[data-action="join"]').click()
            expect(who.locator('[data-action="withdraw"]')).to_be_visible()

    def pause(who: Any) -> None:
        """Not paired again once the game on ends."""
        if isinstance(who, Bot):
            who.client.tournaments.withdraw_arena(tid)
        else:
            who.goto(f"/tournament/{tid}")
            who.locator('[data-action="withdraw"]').click()
            expect(who.locator('[data-action="join"]')).to_be_visible()

    # Joined in this order, all rated 1500: each pair of joiners is paired, the person first.
    for who in (p1, b1, p2, b2, p3, b3, p4, b4):
        join(who)
    for who in (b1, p2, b2, p3):  # they play one game only
        pause(who)

    # Every game's first two moves, soon after it starts (the first-move deadline).
    # 1. p1 goes berserk from the arena page (before moving), then wins in 5 plies: too
    # short for the berserk point.
    m1 = Match(person_game(p1, tid), p1, b1, TRY_GAME)
    p1.locator('[data-action="berserk"]').click()
    expect(p1.locator('[data-action="berserk"]')).to_have_count(0)
    assert b1.game(tid) == m1.id
    m1.to(2)
    m2 = Match(person_game(p2, tid), p2, b2, quiet_moves(4)).to(2)
    m3 = Match(person_game(p3, tid), p3, b3, quiet_moves(14))
    b3.client.board.go_berserk(m3.id)  # berserk's board call, unmodified
    m3.to(2)
    m4 = Match(person_game(p4, tid), p4, b4, quiet_moves(20)).to(2)

    m1.to()
    wait_over(p1, m1.id)

    # 2. p2 and b2 agree a draw after 4 plies: an early draw, nothing for either.
    m2.to()
    p2.locator('[data-action="draw-offer"]').click()
    b2.draw(m2.id)
    wait_over(p2, m2.id)

    # 3. b3 wins in 14 plies when p3 resigns: 2 + 1 for its berserk.
    m3.to()
    p3.locator('[data-action="resign"]').click()
    p3.locator('[data-action="resign"]').click()  # the second click confirms
    wait_over(p3, m3.id)

    # 5. b3 and p1, both free, meet at once: b3 (first) wins, a second win in a row.
    g5 = b3.game(tid, after=m3.id)
    assert person_game(p1, tid, after=m1.id) == g5
    Match(g5, b3, p1, TRY_GAME).to()
    wait_over(p1, g5)

    # 4. p4 and b4 draw after 20 plies: 1 each.
    m4.to()
    b4.draw(m4.id)
    p4.locator('[data-action="draw-accept"]').click()
    wait_over(p4, m4.id)

    # 6. b3, on fire, beats p4: 4. 7. b4 and p1 draw after 20 plies: b4's draw follows a
    # draw with no win between (0); p1's follows a loss after a win (1).
    g6, g7 = b3.game(tid, after=g5), b4.game(tid, after=m4.id)
    assert person_game(p4, tid, after=m4.id) == g6 and person_game(p1, tid, after=g5) == g7
    m7 = Match(g7, b4, p1, quiet_moves(20)).to(2)
    Match(g6, b3, p4, TRY_GAME).to()
    wait_over(p4, g6)
    m7.to()
    p1.locator('[data-action="draw-offer"]').click()
    b4.draw(g7)
    wait_over(p1, g7)

    # All four free again: paired at once, and p1's game page follows p1 to the new game.
    # p1, who made the arena, ends it with those games on: they do not count.
    p1.wait_for_url(lambda url: "/game/" in url and g7 not in url, timeout=30_000)
    on = p1.url.rsplit("/", 1)[1]
    assert p1.request.get(f"/api/tournament/{tid}").json()["me"]["gameId"] == on
    p1.goto(f"/tournament/{tid}")
    p1.locator('[data-action="terminate"]').click()
    expect(p1.locator("#countdown")).to_have_text("Finished")
    podium = p1.locator("#podium tbody tr")
    expect(podium).to_have_count(3)
    expected_names = [names[key] for key, _, _ in STANDINGS]
    assert podium.evaluate_all("rows => rows.map(r => r.dataset.player)") == expected_names[:3]
    rows = p1.locator("#standings tbody tr")
    expect(rows).to_have_count(8)
    shown = rows.evaluate_all(
        "rows => rows.map(r => [r.dataset.player,"
        " Number(r.querySelector('[data-score]').textContent)])"
    )
    assert shown == [[names[key], score] for key, score, _ in STANDINGS]
    results = list(b3.client.tournaments.stream_results(tid, sheet=True))
    assert [(r["username"], r["score"], r["sheet"]["scores"]) for r in results] == [
        (names[key], score, sheet) for key, score, sheet in STANDINGS
    ]
