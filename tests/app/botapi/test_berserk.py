"""berserk — the lichess Python client, from PyPI, unmodified, with no custom session — against
a real Kodama server process. Two BOT accounts play a whole game of each of the
five games; board accounts seek, take an open challenge, play the built-in opponents through
``challenges.create_ai``; every berserk method of docs/api.md's "Client compatibility" table
is called here (docs/bots.md's own bot: test_berserk_docs_bot.py).

berserk is synchronous: each account reads its event stream in a thread of its own (as a bot
does), and a game's two streams are read in turn, one ``gameState`` per move on each."""

from __future__ import annotations

import itertools
import queue
import random
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import berserk
import httpx
import pytest

import engine
from tests.server import Server, account_token, running

BOT_SCOPES = "bot:play,challenge:read,challenge:write"
BOARD_SCOPES = "board:play,challenge:read,challenge:write"
# A position of each game after one move from its start: the second player (black) is to move.
AFTER_ONE_MOVE = {
    "wali": "6/6/6/6/S5 s 11 12 0",
    "jungle": "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/TC3D1/6L s 1 -",
}
EVENT_WAIT_S = 30.0
MAX_PLIES = 1000  # random play ends every game well before (jungle's longest: a few hundred)
_databases = itertools.count()


class Player:
    """An account played through berserk: its client, and its event stream read into a queue
    by a thread (berserk's streams block)."""

    def __init__(self, server: Server, username: str, *, bot: bool, events: bool = True) -> None:
        self.username = username
        self.token = account_token(server, username, BOT_SCOPES if bot else BOARD_SCOPES)
        self.client = berserk.Client(session=berserk.TokenSession(self.token), base_url=server.base)
        if bot:
            # berserk leaves this one method without annotations
            self.client.account.upgrade_to_bot()  # type: ignore[no-untyped-call]
        self.id: str = self.client.account.get()["id"]
        self.api: Any = self.client.bots if bot else self.client.board
        self._events: queue.Queue[dict[str, Any]] = queue.Queue()
        self._backlog: list[dict[str, Any]] = []
        if events:  # one event stream per token: a program that opens its own says False
            threading.Thread(target=self._read_events, daemon=True).start()

    def _read_events(self) -> None:
        try:
            for event in self.api.stream_incoming_events():
                self._events.put(event)
        except berserk.exceptions.BerserkError:
            pass  # the server stopped at the end of the module

    def event(self, kind: str, ident: str | None = None) -> dict[str, Any]:
        """The next event of this type (about this challenge or game); others are kept."""

        def about(event: dict[str, Any]) -> bool:
            inner = event.get("challenge") or event.get("game") or {}
            return bool(event["type"] == kind and ident in (None, inner.get("id")))

        for i, event in enumerate(self._backlog):
            if about(event):
                return self._backlog.pop(i)
        deadline = time.monotonic() + EVENT_WAIT_S
        while True:
            event = self._events.get(timeout=max(0.0, deadline - time.monotonic()))
            if about(event):
                return event
            self._backlog.append(event)


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    data = tmp_path_factory.mktemp(f"berserk-{request.param}")
    url = None
    if request.param == "postgres":
        url = request.getfixturevalue("postgres").create_database(
            f"berserk_{next(_databases)}", template=request.getfixturevalue("postgres_template")
        )
    with running(
        data,
        "berserk-tests-mXq2Vn8LrT5cYw0ZpK3sHd9JfB6uE1aG",
        url,
        KODAMA_BUILTIN_BOTS="true",
        KODAMA_KEEPALIVE_SECONDS="0.5",
        # Two test bots play hundreds of moves a game as fast as the machine goes.
        KODAMA_RATELIMIT_MOVE_PER_S="1000",
        KODAMA_RATELIMIT_MOVE_BURST="1000",
    ) as srv:
        yield srv


@pytest.fixture(scope="module")
def players(server: Server) -> dict[str, Player]:
    """alpha and bravo: BOT accounts; carol and dave: people playing through a program."""
    return {
        "alpha": Player(server, "alpha", bot=True),
        "bravo": Player(server, "bravo", bot=True),
        "carol": Player(server, "carol", bot=False),
        "dave": Player(server, "dave", bot=False),
    }


def lines(stream: Iterator[dict[str, Any]], kind: str) -> dict[str, Any]:
    """The next line of this type of a game stream."""
    for _ in range(20):
        found = next(stream)
        if found["type"] == kind:
            return found
    raise AssertionError(f"no {kind} line")


def choose(rules: Any, fen: str, legal: list[str], rng: random.Random) -> str:
    """A move of ``legal``: one that wins at once if there is one, else one at random."""
    pos = rules.from_text(fen)
    side = rules.side_to_move(pos)
    for move in legal:
        result = rules.result(rules.play(pos, move))
        if result is not None and result.winner == side:
            return move
    return rng.choice(legal)


def export(server: Server, game_id: str) -> dict[str, Any]:
    answer = httpx.get(f"{server.base}/api/game/{game_id}", timeout=30)
    answer.raise_for_status()
    data: dict[str, Any] = answer.json()
    return data


# ---- two bots, a whole game of each game ---------------------------------------------------------
@pytest.mark.parametrize("variant", engine.game_ids())
def test_two_bots_play_a_whole_game_with_berserk(server, players, variant):
    alpha, bravo = players["alpha"], players["bravo"]
    clock = {"clock_limit": 600, "clock_increment": 1} if variant != "yote" else {"days": 3}
    created = alpha.client.challenges.create(
        "bravo", rated=False, variant=variant, color="white", **clock
    )
    assert created["status"] == "created" and created["variant"]["key"] == variant
    offered = bravo.event("challenge", created["id"])["challenge"]
    assert offered["challenger"]["name"] == "alpha" and offered["color"] == "white"
    bravo.client.challenges.accept(created["id"])
    game_id = created["id"]
    assert alpha.event("gameStart", game_id)["game"]["color"] == "white"
    assert bravo.event("gameStart", game_id)["game"]["color"] == "black"

    streams = {
        "white": alpha.client.bots.stream_game_state(game_id),
        "black": bravo.client.bots.stream_game_state(game_id),
    }
    bots = {"white": alpha, "black": bravo}
    for stream in streams.values():
        full = lines(stream, "gameFull")
        assert full["white"]["name"] == "alpha" and full["black"]["title"] == "BOT"
    state = full["state"]
    alpha.client.bots.post_message(game_id, f"good luck with {variant}")
    bravo.client.bots.post_message(game_id, "thanks", spectator=True)
    for stream in streams.values():
        assert lines(stream, "chatLine")["text"] == f"good luck with {variant}"
        assert lines(stream, "chatLine")["room"] == "spectator"

    rules = engine.get_game(variant)
    rng = random.Random(variant)
    played: list[str] = []
    while state["status"] == "started":
        assert len(played) < MAX_PLIES
        move = choose(rules, state["fen"], state["legalMoves"], rng)
        bots[state["turn"]].client.bots.make_move(game_id, move)
        played.append(move)
        seen = [lines(stream, "gameState") for stream in streams.values()]
        assert seen[0]["moves"] == seen[1]["moves"] == " ".join(played)
        state = seen[0]
    for stream in streams.values():
        assert list(stream) == []  # the stream ends after the final state
    finish = alpha.event("gameFinish", game_id)["game"]
    assert finish["status"]["name"] == state["status"]
    assert bravo.event("gameFinish", game_id)["game"]["status"]["name"] == state["status"]
    # the engine agrees: every move legal, the game over by its rules
    pos = rules.start()
    for move in played:
        pos = rules.play(pos, move)
    assert rules.result(pos) is not None
    assert export(server, game_id)["moves"] == " ".join(played)


# ---- challenges: a position, declines, cancels, acceptByToken, open challenges -------------------
def test_a_challenge_from_a_position_then_aborted(players):
    alpha, bravo = players["alpha"], players["bravo"]
    fen = AFTER_ONE_MOVE["jungle"]
    created = alpha.client.challenges.create(
        "bravo", rated=False, variant="jungle", color="white", position=fen
    )
    assert created["initialFen"] == fen
    bravo.event("challenge", created["id"])
    bravo.client.bots.accept_challenge(created["id"])
    full = lines(bravo.client.bots.stream_game_state(created["id"]), "gameFull")
    assert full["initialFen"] == fen and full["state"]["turn"] == "black"
    bravo.client.bots.abort_game(created["id"])
    assert alpha.event("gameFinish", created["id"])["game"]["status"]["name"] == "aborted"


def test_challenges_are_listed_declined_and_cancelled(players):
    alpha, bravo = players["alpha"], players["bravo"]
    first = alpha.client.challenges.create("bravo", rated=False, variant="wali")
    bravo.event("challenge", first["id"])
    assert first["id"] in [c["id"] for c in bravo.client.challenges.get_mine()["in"]]
    assert first["id"] in [c["id"] for c in alpha.client.challenges.get_mine()["out"]]
    bravo.client.bots.decline_challenge(first["id"], reason="later")
    declined = alpha.event("challengeDeclined", first["id"])["challenge"]
    assert declined["declineReasonKey"] == "later"

    second = alpha.client.challenges.create("bravo", rated=False, variant="wali")
    bravo.event("challenge", second["id"])
    bravo.client.challenges.decline(second["id"], reason="tooFast")
    assert alpha.event("challengeDeclined", second["id"])["challenge"]["declineReasonKey"] == (
        "tooFast"
    )

    third = alpha.client.challenges.create("bravo", rated=False, variant="wali")
    alpha.client.challenges.cancel(third["id"])
    assert bravo.event("challengeCanceled", third["id"])["challenge"]["status"] == "canceled"
    assert alpha.client.challenges.get_mine()["out"] == []


def test_rated_challenges_between_bots_and_not_from_a_position(players):
    created = players["alpha"].client.challenges.create("bravo", rated=True, variant="dobutsu")
    assert created["rated"] is True
    with pytest.raises(berserk.exceptions.ResponseError) as refused:
        players["alpha"].client.challenges.create(
            "bravo", rated=True, variant="dobutsu", position="gle/1c1/LC1/E1G f -"
        )
    assert refused.value.status_code == 400
    assert refused.value.cause["code"] == "challenge.rated_position"


def test_create_with_accept_starts_the_game_then_a_bot_resigns(players):
    alpha, bravo = players["alpha"], players["bravo"]
    with pytest.warns(DeprecationWarning):  # berserk deprecates it; lichess still serves it
        data = alpha.client.challenges.create_with_accept(
            "bravo", rated=False, token=bravo.token, variant="gorogoro", color="white"
        )
    game_id = data["id"]
    assert data["status"] == "accepted" and data["game"]["player"] == "white"
    assert bravo.event("gameStart", game_id)["game"]["color"] == "black"
    gorogoro = engine.get_game("gorogoro")
    alpha.client.bots.make_move(game_id, gorogoro.legal_moves(gorogoro.start())[0])
    bravo.client.bots.resign_game(game_id)
    finish = alpha.event("gameFinish", game_id)["game"]
    assert finish["status"]["name"] == "resign" and finish["winner"] == "white"


def test_an_open_challenge_is_taken_by_two_players_who_agree_a_draw(server, players):
    carol, dave = players["carol"], players["dave"]
    created = carol.client.challenges.create_open(
        clock_limit=120, clock_increment=1, variant="yote", name="Yote night"
    )
    assert created["name"] == "Yote night" and created["open"] is True
    assert created["timeControl"]["show"] == "2+1"
    carol.client.challenges.accept(created["id"])
    dave.client.challenges.accept(created["id"])
    game_id = created["id"]
    colors = {carol.event("gameStart", game_id)["game"]["color"]}
    colors.add(dave.event("gameStart", game_id)["game"]["color"])
    assert colors == {"white", "black"}
    carol.client.board.offer_draw(game_id)
    dave.client.board.accept_draw(game_id)
    assert carol.event("gameFinish", game_id)["game"]["status"]["name"] == "draw"
    assert export(server, game_id)["status"] == "draw"


# ---- board accounts: seeks, the board routes, the built-in opponents -----------------------------
def test_two_board_seeks_are_paired_and_play_through_the_board_routes(server, players):
    carol, dave = players["carol"], players["dave"]
    waited: list[float] = []
    seeking = threading.Thread(
        target=lambda: waited.append(carol.client.board.seek(3, 2, variant="dobutsu")),
        daemon=True,
    )
    seeking.start()
    # dobutsu 3+2 is a quick-pairing pool: whichever seek comes first waits there, and the
    # pool's next round (within a second) pairs both.
    dave.client.board.seek(3, 2, variant="dobutsu", rating_range=(1500, 1800))
    seeking.join(timeout=EVENT_WAIT_S)
    assert waited and not seeking.is_alive()
    start = dave.event("gameStart")["game"]
    game_id = start["id"]
    assert carol.event("gameStart", game_id)["game"]["source"] == "lobby"
    # "me" plays white (who moves first), "them" black.
    me, them = (dave, carol) if start["color"] == "white" else (carol, dave)

    stream = me.client.board.stream_game_state(game_id)
    assert lines(stream, "gameFull")["clock"]["initial"] == 180_000
    me.client.board.post_message(game_id, "hello from the board")
    assert lines(stream, "chatLine")["username"] == me.username
    assert [c["text"] for c in them.client.board.get_game_chat(game_id)] == ["hello from the board"]
    me.client.board.make_move(game_id, "b2b3")  # the chick takes the chick
    assert lines(stream, "gameState")["moves"] == "b2b3"
    them.client.board.offer_draw(game_id)
    assert lines(stream, "gameState")["bdraw"] is True
    me.client.board.decline_draw(game_id)
    assert lines(stream, "gameState")["bdraw"] is False
    with pytest.raises(berserk.exceptions.ResponseError) as early:
        # berserk posts to .../claim-victory/ (a trailing slash): it reaches the route, which
        # says the opponent (no stream open: gone) has not been gone long enough.
        me.client.board.claim_victory(game_id)
    assert early.value.cause["code"] == "claim.too_early"
    them.client.board.resign_game(game_id)
    final = lines(stream, "gameState")
    assert final["status"] == "resign" and final["winner"] == "white"


def test_a_board_game_is_aborted_before_both_have_moved(players):
    carol, dave = players["carol"], players["dave"]
    created = carol.client.challenges.create("dave", rated=False, variant="wali", color="black")
    dave.event("challenge", created["id"])
    dave.client.challenges.accept(created["id"])
    carol.client.board.abort_game(created["id"])
    assert dave.event("gameFinish", created["id"])["game"]["status"]["name"] == "aborted"


def test_create_ai_plays_a_built_in_opponent_that_moves_first(server, players):
    carol = players["carol"]
    game = carol.client.challenges.create_ai(
        level=1, clock_limit=300, clock_increment=0, color="black", variant="dobutsu"
    )
    assert game["source"] == "ai" and game["player"] == "black"
    assert game["status"] == {"id": 20, "name": "started"} and game["rated"] is False
    assert game["perf"] == game["speed"] == "blitz"
    stream = carol.client.board.stream_game_state(game["id"])
    full = lines(stream, "gameFull")
    assert full["white"]["name"] == "kodama-random" and full["white"]["title"] == "BOT"
    state = full["state"]
    while state["ply"] < 1:  # kodama-random plays its first move by itself
        state = lines(stream, "gameState")
    carol.client.board.resign_game(game["id"])
    assert export(server, game["id"])["status"] == "resign"


@pytest.mark.parametrize(("level", "bot"), [(2, "kodama-random"), (8, "kodama-hard")])
def test_ai_levels_map_onto_the_built_in_opponents(players, level, bot):
    carol = players["carol"]
    fen = AFTER_ONE_MOVE["wali"]
    game = carol.client.challenges.create_ai(
        level=level, variant="wali", color="white", position=fen
    )
    assert game["initialFen"] == fen and game["fen"] == fen and game["player"] == "white"
    full = lines(carol.client.board.stream_game_state(game["id"]), "gameFull")
    assert full["black"]["name"] == bot
    carol.client.board.resign_game(game["id"])


def test_methods_without_a_counterpart_here_answer_404(players):
    carol, dave = players["carol"], players["dave"]
    game = carol.client.challenges.create("dave", rated=False, variant="yote")
    dave.event("challenge", game["id"])
    dave.client.challenges.accept(game["id"])
    calls: dict[str, Callable[[], object]] = {
        "start_clocks": lambda: carol.client.challenges.start_clocks(
            game["id"], carol.token, dave.token
        ),
        "add_time": lambda: carol.client.challenges.add_time_to_opponent_clock(game["id"], 15),
    }
    for name, call in calls.items():
        with pytest.raises(berserk.exceptions.ResponseError) as missing:
            call()
        assert missing.value.status_code == 404, name
    with pytest.raises(TypeError):  # berserk 0.14's own bug: it never sends the request
        carol.client.challenges.create_tokens_for_multiple_users(["carol", "dave"], "tokens")
    carol.client.board.abort_game(game["id"])


# ---- the account and the bots online -------------------------------------------------------------
def test_the_account_and_the_bots_online(players):
    alpha = players["alpha"]
    account = alpha.client.account.get()
    assert account["username"] == "alpha" and account["title"] == "BOT"
    deadline = time.monotonic() + EVENT_WAIT_S
    while True:
        online = {b["username"] for b in alpha.client.bots.get_online_bots()}
        if {"alpha", "bravo", "kodama-random"} <= online:
            break
        assert time.monotonic() < deadline, online
        time.sleep(0.1)
