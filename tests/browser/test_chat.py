"""The game page's chat in a real browser: two players and spectators chat (accounts write;
anonymous spectators read, their box disabled); the players' room never reaches a
spectator's socket; a line with markup shows as text; a player mutes the opponent; the
spectators' room can be hidden; flood control says how long to wait; lines survive a
reload; a BOT's lines (bot API) show on the page and the page's lines reach the bot's game
stream.

These tests run their own server: its flood control refills slowly (a line every 10
minutes), so that the test's pace does not matter."""

from __future__ import annotations

import itertools
import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.accounts import sign_in
from tests.browser.helpers import open_game, wait_started
from tests.server import Server, running

PASSWORD = "a long password"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # Flood control as in production (5 lines at once) but refilled slowly enough that a
    # slow machine typing cannot earn a line back during the test.
    secret = "browser-chat-Vq3LzP0mW8sN2eTbY6cRk1Hd"
    with running(tmp_path_factory.mktemp("chat"), secret, KODAMA_CHAT_FLOOD_SECONDS="600") as srv:
        yield srv


def frames(page: Any) -> list[str]:
    """Every WebSocket frame this page receives from now on (its game socket's included)."""
    seen: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: seen.append(str(f))))
    return seen


def say(page: Any, text: str) -> None:
    box = page.locator("#chat-input")
    box.fill(text)
    box.press("Enter")
    expect(box).to_have_value("")  # cleared once the line came back from the server


def log(page: Any) -> list[str]:
    """The log's lines as shown: "name: text"."""
    lines = page.locator("#chat-log .chat-line").all_inner_texts()
    return [" ".join(line.split()) for line in lines]


def expect_line(page: Any, text: str) -> None:
    expect(page.locator("#chat-log .chat-text", has_text=text)).to_have_count(1)


def signed_in(new_context: Any, server: Server, *prefixes: str) -> Any:
    """``new_context`` whose first contexts are signed in to new accounts, one per prefix
    (only accounts write in the chat); the next ones are anonymous."""
    left = list(prefixes)

    def make(**options: Any) -> Any:
        context = new_context(**options)
        if left:
            sign_in(context, server.base, left.pop(0))
        return context

    return make


def test_two_players_and_spectators_chat(
    account: Any, new_context: Any, server: Server, output_dir: Path
) -> None:
    pages, watcher, game_id = open_game(signed_in(new_context, server, "ann", "ben"), "dobutsu")
    first, second = pages["first"], pages["second"]
    errors: list[str] = []
    for page in (first, second, watcher):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    # A second anonymous spectator whose every frame is recorded from its first one.
    spy = new_context().new_page()
    spy_frames = frames(spy)
    spy.goto(f"/game/{game_id}")
    wait_started(spy)
    dave, dave_name = account("Dave")
    dave.goto(f"/game/{game_id}")
    wait_started(dave)

    # The players talk in their room; a line with markup is shown as the text it is.
    say(first, "good luck <b>friend</b>")
    expect_line(second, "good luck <b>friend</b>")
    assert second.locator("#chat-log b").count() == 0
    say(second, "thanks")
    expect_line(first, "thanks")
    # A signed-in spectator writes in the spectators' room; anonymous spectators read it.
    expect(dave.locator("#chat-room-player")).to_have_count(0)  # no players' room for them
    say(dave, "go first!")
    for page in (watcher, spy):
        expect_line(page, "go first!")
        expect(page.locator("#chat-input")).to_be_disabled()  # anonymous: reads only
        expect(page.locator("#chat a[href='/account']")).to_be_visible()
    # The players see it in the other room, marked new.
    expect(first.locator("#chat-room-spectator")).to_contain_text("1 new")
    first.locator("#chat-room-spectator").click()
    expect_line(first, "go first!")
    first.locator("#chat-room-player").click()
    expect(first.locator("#chat-room-spectator")).not_to_contain_text("new")
    first.screenshot(path=str(output_dir / "chat-player.png"), full_page=True)
    watcher.screenshot(path=str(output_dir / "chat-spectator.png"), full_page=True)

    # The players' room never reached a spectator: not shown, and never on their socket.
    assert log(watcher) == [f"{dave_name}: go first!"]
    assert not [f for f in spy_frames if "good luck" in f or "thanks" in f]
    assert any("go first!" in f for f in spy_frames)

    # Mute: the opponent's lines are hidden for this player only, now and later.
    first.get_by_label("Mute my opponent").check()
    expect(first.locator("#chat-log .chat-text", has_text="thanks")).to_have_count(0)
    say(second, "still there?")
    expect_line(second, "still there?")
    say(first, "yes")  # arrives after "still there?": that one was not shown
    expect_line(second, "yes")
    assert [line.split(": ", 1)[1] for line in log(first)] == ["good luck <b>friend</b>", "yes"]
    # A reload keeps the lines, and the mute.
    first.reload()
    wait_started(first)
    expect_line(first, "yes")
    expect(first.get_by_label("Mute my opponent")).to_be_checked()
    assert [line.split(": ", 1)[1] for line in log(first)] == ["good luck <b>friend</b>", "yes"]
    first.get_by_label("Mute my opponent").uncheck()
    expect_line(first, "still there?")
    assert [line.split(": ", 1)[1] for line in log(first)] == [
        "good luck <b>friend</b>",
        "thanks",
        "still there?",
        "yes",
    ]
    watcher.reload()
    wait_started(watcher)
    expect_line(watcher, "go first!")
    assert log(watcher) == [f"{dave_name}: go first!"]

    # Hiding the spectators' room: no button, nothing counted; shown again, it is there.
    second.get_by_label("Show the spectators' room").uncheck()
    expect(second.locator("#chat-room-spectator")).to_have_count(0)
    say(dave, "anyone?")
    expect_line(first, "still there?")  # (first's view: the players' room)
    expect(first.locator("#chat-room-spectator")).to_contain_text("1 new")
    second.get_by_label("Show the spectators' room").check()
    second.locator("#chat-room-spectator").click()
    expect_line(second, "anyone?")

    # Flood control: a few lines, then a clear message; the line typed stays to send later.
    second.locator("#chat-room-player").click()
    sent = 2  # "thanks", "still there?"
    box = second.locator("#chat-input")
    while sent < 5:
        say(second, f"line {sent}")
        sent += 1
    box.fill("one too many")
    box.press("Enter")
    expect(second.locator("#chat-note")).to_contain_text("too fast: wait")
    expect(box).to_have_value("one too many")
    assert errors == []


def register_bot(base: str, name: str) -> str:
    scopes = ["bot:play", "challenge:read", "challenge:write"]
    with httpx.Client(base_url=base, timeout=30) as web:
        credentials = {"username": name, "password": PASSWORD}
        web.post("/api/account/register", json=credentials).raise_for_status()
        made = web.post("/api/token", json={**credentials, "scopes": scopes, "description": "t"})
        made.raise_for_status()
        token = str(made.json()["token"])
        auth = {"Authorization": f"Bearer {token}"}
        web.post("/api/bot/account/upgrade", headers=auth).raise_for_status()
    return token


def test_a_bots_lines_show_on_the_page_and_the_pages_reach_the_bot(
    account: Any, new_context: Any, server: Server, output_dir: Path
) -> None:
    name = f"chatbot-{secrets.token_hex(2)}"
    auth = {"Authorization": f"Bearer {register_bot(server.base, name)}"}
    player, _ = account("ann")
    made = player.request.post(
        f"/api/challenge/{name}", data={"variant": "dobutsu", "color": "white"}
    )
    assert made.ok, made.text()
    game_id = made.json()["id"]
    with httpx.Client(base_url=server.base, timeout=30, headers=auth) as bot:
        bot.post(f"/api/challenge/{game_id}/accept").raise_for_status()
        watcher = new_context().new_page()
        for page in (player, watcher):
            page.goto(f"/game/{game_id}")
            wait_started(page)
        with bot.stream("GET", f"/api/bot/game/stream/{game_id}") as stream:
            raw = stream.iter_lines()
            # (keep-alive lines are empty: at most 30 lines, so that a missing one fails)
            lines = (json.loads(text) for text, _ in zip(raw, range(30), strict=False) if text)
            assert next(lines)["type"] == "gameFull"
            chat = f"/api/bot/game/{game_id}/chat"
            bot.post(chat, json={"room": "player", "text": "have fun"}).raise_for_status()
            bot.post(chat, json={"room": "spectator", "text": "<i>hi</i> all"}).raise_for_status()
            expect_line(player, "have fun")
            assert log(player) == [f"{name}: have fun"]
            expect(player.locator("#chat-room-spectator")).to_contain_text("1 new")
            expect_line(watcher, "<i>hi</i> all")
            assert watcher.locator("#chat-log i").count() == 0
            assert log(watcher) == [f"{name}: <i>hi</i> all"]
            say(player, "you too, bot")
            chats = ((x["room"], x["text"]) for x in lines if x["type"] == "chatLine")
            said = list(itertools.islice(chats, 3))
            assert said == [
                ("player", "have fun"),
                ("spectator", "<i>hi</i> all"),
                ("player", "you too, bot"),
            ]
    player.screenshot(path=str(output_dir / "chat-bot.png"), full_page=True)
