"""The chat's safety rules (docs/decisions/blocking-and-chat-safety.md): accounts only write,
in every room and way in (``chat.needs_account``); no listed word (``chat.refused_words``,
the list shipped or a file's, matched on normalised whole words); a new account's slower
pace (``chat.too_fast``); and the lines of someone a recipient blocks never reach that
recipient, live or kept, on the socket, the game stream or the API, while others get them.

Refused lines are kept nowhere: every test ends by reading what was kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.chat.words import BlockedWords, normal
from tests.app.accounts_and_streams import Lines, assert_error
from tests.app.chat.conftest import account
from tests.app.chat.test_chat_socket import lines_of, refused, say
from tests.app.conftest import Player, receive, started_game


def api_say(player: Player, game_id: str, text: str, room: str = "player") -> Any:
    return player.post(f"/api/board/game/{game_id}/chat", {"room": room, "text": text})


# ---- words -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("you retard", True),
        ("RETARDS all of you", True),  # any case, a plural
        ("r3t4rd", True),  # digit stand-ins
        ("ｒｅｔａｒｄ", True),  # full-width letters
        ("rétard!", True),  # accents dropped; a "!" ending a sentence is no letter
        ("r!tard", False),  # ... but one inside a word reads as an "i"
        ("so goooood", True),  # a letter repeated three times or more reads as two
        ("spice", False),  # a listed word inside another is no match
        ("classic opening, well played", False),
        ("see https://example.com/spic", True),  # whole words wherever they stand
    ],
)
def test_listed_words_are_matched_on_normalised_whole_words(text: str, found: bool):
    words = BlockedWords(["retard", "spic", "good"])
    assert words.found_in(text) is found


def test_the_list_shipped_is_read_with_its_comments_skipped():
    shipped = BlockedWords.from_file(None)
    assert shipped.found_in("N1GGERS") and not shipped.found_in("# Words a chat line")
    assert normal("Ｎ1ggéR") == "nigger"


def test_a_line_with_a_listed_word_is_refused_and_kept_nowhere(alice, bob):
    game_id = started_game(alice, bob)
    with alice.socket(game_id) as a, bob.socket(game_id) as b:
        receive(a, "state")
        receive(b, "state")
        error = refused(a, "chat.refused_words", room="player", text="you F4G")
        assert "F4G" not in error["error"] and "fag" not in error["error"]
        assert_error(api_say(bob, game_id, "r e t a r d is fine, retard is not"), 400,
                     "chat.refused_words")  # fmt: skip
        say(a, "player", "good game")  # the next line bob gets is this one
        assert receive(b, "chat")["text"] == "good game"
    assert lines_of(alice, game_id) == [("player", "alice", "good game")]


def test_a_words_file_replaces_the_list_shipped(make_client, tmp_path: Path):
    listed = tmp_path / "words.txt"
    listed.write_text("# ours\nbanana\n\n", encoding="utf-8")
    client = make_client(chat_blocked_words_file=listed)
    alice, bob = account(client, "alice"), account(client, "bob")
    game_id = started_game(alice, bob)
    assert_error(api_say(alice, game_id, "BANANAS!"), 400, "chat.refused_words")
    assert api_say(alice, game_id, "retard").status_code == 200  # not on this list
    assert [text for _, _, text in lines_of(alice, game_id)] == ["retard"]


# ---- accounts only ---------------------------------------------------------------------------
def test_anonymous_players_write_in_no_chat_not_even_their_own_games(client, alice, carol):
    dave = Player(client, "dave")  # two anonymous visitors play each other
    game_id = started_game(carol, dave)
    with carol.socket(game_id) as c:
        receive(c, "state")
        for room in ("player", "spectator"):
            refused(c, "chat.needs_account", room=room, text="hello")
    assert_error(api_say(dave, game_id, "hello"), 403, "chat.needs_account")
    # An account watching writes in the spectators' room; the players read it.
    with alice.socket(game_id) as a, carol.socket(game_id) as c:
        receive(a, "state")
        receive(c, "state")
        say(a, "spectator", "nice game")
        assert receive(c, "chat")["text"] == "nice game"
    assert lines_of(carol, game_id) == [("spectator", "alice", "nice game")]


# ---- a new account's pace --------------------------------------------------------------------
def test_a_new_account_writes_one_line_every_ten_seconds(make_client, clock):
    # New for 36 s of the test's clock (its timers would make a day long to pass).
    client = make_client(chat_new_account_hours=0.01, chat_new_account_games=1)
    alice, bob = account(client, "alice"), account(client, "bob")
    game_id = started_game(alice, bob)
    assert api_say(alice, game_id, "hi").status_code == 200
    answer = api_say(alice, game_id, "again")
    body = assert_error(answer, 429, "chat.too_fast")
    assert body["ratelimit"] == {"key": "chat", "seconds": 10}
    clock.advance(9_000)
    assert_error(api_say(alice, game_id, "again"), 429, "chat.too_fast")
    clock.advance(1_000)
    assert api_say(alice, game_id, "again").status_code == 200
    # Old enough, but no game played to the end yet: still new.
    clock.advance(36_000)
    assert api_say(alice, game_id, "older").status_code == 200
    assert_error(api_say(alice, game_id, "and more"), 429, "chat.too_fast")
    # One game played (resigned): now only everyone's flood control holds.
    assert bob.post(f"/api/board/game/{game_id}/resign").status_code == 200
    clock.advance(10_000)
    for n in range(3):
        assert api_say(alice, game_id, f"gg {n}").status_code == 200
    kept = [text for _, _, text in lines_of(alice, game_id)]
    assert kept == ["hi", "again", "older", "gg 0", "gg 1", "gg 2"]


# ---- a block: the blocked's lines never reach the blocker ------------------------------------
def test_the_lines_of_someone_blocked_never_reach_the_blocker_but_reach_the_others(
    client, alice, bob
):
    dave = account(client, "dave")  # an account watching
    game_id = started_game(alice, bob)
    with dave.socket(game_id) as d:
        receive(d, "state")
        say(d, "spectator", "before the block")
        receive(d, "chat")
    assert alice.post("/api/rel/block/dave").json() == {"ok": True}
    assert alice.post("/api/rel/block/bob").json() == {"ok": True}  # the opponent too
    with (
        alice.socket(game_id) as a,
        bob.socket(game_id) as b,
        dave.socket(game_id) as d,
        client.stream("GET", f"/api/board/game/stream/{game_id}", headers=alice.headers) as s,
    ):
        stream = Lines(s)
        stream.next("gameFull")
        for ws in (a, b, d):
            receive(ws, "state")
        kept = receive(a, "chatLines")["lines"]
        assert kept == []  # the kept lines: dave's withheld from alice
        assert [x["text"] for x in receive(b, "chatLines")["lines"]] == ["before the block"]
        say(d, "spectator", "hello players")
        assert receive(d, "chat")["text"] == "hello players"  # the writer gets their own
        say(b, "player", "psst alice")
        say(b, "spectator", "hello dave")
        assert receive(b, "chat")["text"] == "hello players"  # bob gets dave's line
        assert [receive(b, "chat")["text"] for _ in range(2)] == ["psst alice", "hello dave"]
        say(a, "player", "mine")
        # alice's next line is her own: dave's and bob's never came, live or on the stream.
        assert receive(a, "chat")["text"] == "mine"
        assert stream.next("chatLine")["text"] == "mine"
    mine = alice.get(f"/api/board/game/{game_id}/chat").json()
    assert [line["text"] for line in mine] == ["mine"]
    theirs = bob.get(f"/api/board/game/{game_id}/chat").json()
    assert [line["text"] for line in theirs] == [
        "before the block", "hello players", "psst alice", "hello dave", "mine",
    ]  # fmt: skip
    # Unblocked: they reach her again.
    alice.post("/api/rel/unblock/bob")
    with alice.socket(game_id) as a:
        receive(a, "state")
        texts = [x["text"] for x in receive(a, "chatLines")["lines"]]
        assert texts == ["psst alice", "hello dave", "mine"]
