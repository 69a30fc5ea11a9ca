"""The account's owner on the account page, in a real browser: change the password and log in
with the new one, download all the account's data, close the account behind its typed
username (its game is still shown, under the closed name, on the game page)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.server import ACCOUNT_PASSWORD

NEW_PASSWORD = "another long password"


def test_change_the_password_download_the_data_and_close_the_account(
    account: Any, new_context: Any, tmp_path: Path
) -> None:
    page, username = account("Ctl", locale="en-GB")
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto("/account")
    expect(page.locator("#signed-in")).to_be_visible()

    # Change the password: the current one is needed; then log out, and in with the new one.
    form = page.locator("#password-form")
    form.locator('[name="current"]').fill("not the password")
    form.locator('[name="password"]').fill(NEW_PASSWORD)
    form.locator('[name="password2"]').fill(NEW_PASSWORD)
    form.locator('button[type="submit"]').click()
    expect(page.locator("#message")).to_have_text("The password is wrong.")
    form.locator('[name="current"]').fill(ACCOUNT_PASSWORD)
    form.locator('button[type="submit"]').click()
    expect(page.locator("#message")).to_have_text(
        "Password changed. Other browsers are logged out."
    )
    expect(page.locator("#who")).to_contain_text(username)  # this browser stays logged in
    page.locator("#logout").click()
    expect(page.locator("#signed-out")).to_be_visible()
    login = page.locator("#login-form")
    login.locator('[name="username"]').fill(username)
    login.locator('[name="password"]').fill(NEW_PASSWORD)
    login.locator('button[type="submit"]').click()
    expect(page.locator("#signed-in")).to_be_visible()

    # A game with an anonymous opponent, which the account resigns (with no page open,
    # which would follow its player to the game).
    context = page.context
    page.close()
    created = context.request.post("/api/games", data={"variant": "dobutsu", "color": "first"})
    assert created.ok, created.text()
    game_id = created.json()["id"]
    opponent = new_context(locale="en-GB")
    assert opponent.request.post(f"/api/games/{game_id}/join").ok
    assert context.request.post(f"/api/board/game/{game_id}/resign").ok

    # Download the data: one JSON file with the account and its game.
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto("/account")
    expect(page.locator("#signed-in")).to_be_visible()
    login = page.locator("#login-form")
    with page.expect_download() as info:
        page.locator("#export").click()
    download = info.value
    assert download.suggested_filename == f"kodama-{username}.json"
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    data = json.loads(saved.read_text())
    assert data["account"]["username"] == username
    assert [g["id"] for g in data["games"]] == [game_id]

    # Close the account: only once the username is typed, and with the password.
    closing = page.locator("#close-form")
    button = page.locator("#close-account")
    expect(button).to_be_disabled()
    closing.locator('[name="confirm"]').fill(username + "x")
    expect(button).to_be_disabled()
    closing.locator('[name="confirm"]').fill(username)
    closing.locator('[name="password"]').fill(NEW_PASSWORD)
    expect(button).to_be_enabled()
    button.click()
    expect(page.locator("#message")).to_have_text("The account is closed.")
    expect(page.locator("#signed-out")).to_be_visible()

    # It cannot log in any more; its game is shown under the closed name.
    login.locator('[name="username"]').fill(username)
    login.locator('[name="password"]').fill(NEW_PASSWORD)
    login.locator('button[type="submit"]').click()
    expect(page.locator("#message")).to_have_text("This account is closed.")
    watcher = opponent.new_page()
    watcher.goto(f"/game/{game_id}")
    expect(watcher.locator(".name", has_text=f"{username} (closed)").first).to_be_visible()
    assert errors == []
