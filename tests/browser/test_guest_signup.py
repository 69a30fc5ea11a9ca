"""A guest who signs up in another tab keeps the game it is playing: the game page, reloaded,
seats the new account and takes its moves."""

from __future__ import annotations

import secrets
from typing import Any

from playwright.sync_api import expect

from .helpers import Game, make_move, open_game, page_state, server_game, wait_for_ply

PASSWORD = "a long password"


def test_signing_up_in_another_tab_keeps_the_seat(new_context: Any) -> None:
    # Registrations are limited per address: this browser's comes from its own (the test
    # server trusts this machine as a proxy).
    address = f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.2"
    pages, _, game_id = open_game(
        new_context, "dobutsu", spectator=False, extra_http_headers={"x-forwarded-for": address}
    )
    first, second = pages["first"], pages["second"]
    game = Game("dobutsu")
    make_move(first, game, "b1c2")
    make_move(second, game, "b4a3")

    tab = first.context.new_page()
    tab.goto("/account")
    username = f"g_{secrets.token_hex(3)}"
    form = tab.locator("#register-form")
    form.locator('[name="username"]').fill(username)
    form.locator('[name="password"]').fill(PASSWORD)
    form.locator('[name="password2"]').fill(PASSWORD)
    form.locator('button[type="submit"]').click()
    expect(tab.locator("#signed-in")).to_be_visible()

    first.reload()
    wait_for_ply(first, 2)
    assert page_state(first)["seat"] == "first"
    make_move(first, game, "c2c3")
    wait_for_ply(second, 3)
    players = server_game(first, game_id)["players"]
    assert players["first"]["id"] == username.lower()
