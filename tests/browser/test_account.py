"""The account page in a real browser: register, log in, a token shown once and revoked,
the BOT upgrade behind its confirmation, log out, and the French labels."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

PASSWORD = "a long password"


def test_the_account_page(new_context: Any, output_dir: Path) -> None:
    context = new_context(locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", lambda dialog: dialog.accept())  # the confirmations
    username = f"Page_{secrets.token_hex(3)}"
    page.goto("/account")
    expect(page.locator("#signed-out")).to_be_visible()
    anonymous = page.request.get("/api/me").json()

    # Register (the two passwords must match), which logs in.
    form = page.locator("#register-form")
    form.locator('[name="username"]').fill(username)
    form.locator('[name="password"]').fill(PASSWORD)
    form.locator('[name="password2"]').fill(PASSWORD + "!")
    form.locator('button[type="submit"]').click()
    expect(page.locator("#message")).to_have_text("The two passwords differ.")
    form.locator('[name="password2"]').fill(PASSWORD)
    form.locator('button[type="submit"]').click()
    expect(page.locator("#signed-in")).to_be_visible()
    expect(page.locator("#who")).to_contain_text(username)
    me = page.request.get("/api/me").json()
    assert me["username"] == username and me["id"] != anonymous["id"]

    # A token: shown once, listed without its value, works, then revoked.
    token_form = page.locator("#token-form")
    token_form.locator('[name="description"]').fill("my bot")
    token_form.locator('input[value="bot:play"]').check()
    token_form.locator('input[value="challenge:read"]').check()
    token_form.locator('button[type="submit"]').click()
    expect(page.locator("#new-token")).to_be_visible()
    token = page.locator("#new-token-text").input_value()
    assert token.startswith("kdm_")
    expect(page.locator(".token-list li")).to_have_count(1)
    expect(page.locator(".token-list li")).to_contain_text("bot:play, challenge:read")
    assert token not in page.locator("#token-list").inner_text()
    headers = {"authorization": f"Bearer {token}"}
    program = context.request  # shares the cookie jar: the token must take precedence
    assert program.get("/api/account", headers=headers).json()["username"] == username
    page.screenshot(path=str(output_dir / "account.png"), full_page=True)
    page.locator("[data-revoke]").click()
    expect(page.locator(".token-list li")).to_have_count(0)
    assert program.get("/api/account", headers=headers).status == 401

    # The BOT upgrade: only once "irreversible" is ticked, then confirmed.
    upgrade = page.locator("#upgrade")
    expect(upgrade).to_be_disabled()
    page.locator("#bot-sure").check()
    upgrade.click()
    expect(page.locator("#who .bot-title")).to_have_text("BOT")
    expect(page.locator("#bot-part")).to_contain_text("This account is a BOT")

    # French labels.
    page.locator('.lang-switch [data-lang="fr"]').click()
    expect(page.locator("#logout")).to_have_text("Se déconnecter")

    # Log out: a fresh anonymous visitor; log in again: the same account player.
    page.locator("#logout").click()
    expect(page.locator("#signed-out")).to_be_visible()
    assert "username" not in page.request.get("/api/me").json()
    login = page.locator("#login-form")
    login.locator('[name="username"]').fill(username.upper())
    login.locator('[name="password"]').fill("wrong password")
    login.locator('button[type="submit"]').click()
    expect(page.locator("#message")).to_have_text("Nom d'utilisateur ou mot de passe incorrect.")
    login.locator('[name="password"]').fill(PASSWORD)
    login.locator('button[type="submit"]').click()
    expect(page.locator("#signed-in")).to_be_visible()
    assert page.request.get("/api/me").json()["id"] == me["id"]
    assert errors == []


def test_the_account_page_shows_the_games_played(new_context: Any) -> None:
    """Anyone's record, an account's or not: games played, won, lost, drawn, and those on."""
    me, opponent = new_context(locale="en-GB"), new_context(locale="fr-FR")
    page = me.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto("/account")
    expect(page.locator("#record")).to_have_text("0 played: 0 won, 0 lost, 0 drawn.")
    assert errors == []
    page.close()  # an open page would follow its player to the games started below
    for _ in range(2):
        created = me.request.post("/api/games", data={"variant": "dobutsu", "color": "first"})
        assert created.ok, created.text()
        game_id = created.json()["id"]
        assert opponent.request.post(f"/api/games/{game_id}/join").ok
    assert me.request.post(f"/api/board/game/{game_id}/resign").ok  # the second one
    page = me.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto("/account")
    expect(page.locator("#record")).to_have_text("1 played: 0 won, 1 lost, 0 drawn. 1 on now.")
    other = opponent.new_page()
    other.goto("/account")
    expect(other.locator("#record")).to_have_text(
        "1 jouées : 1 gagnées, 0 perdues, 0 nulles. 1 en cours."
    )
    assert errors == []


def test_an_earlier_read_answering_last_does_not_undo_a_log_out(account: Any) -> None:
    """Reads of the account overlap when a click starts one while another is under way (a
    token made, then "Log out" at once): the page shows the latest, never a stale answer."""
    page, _username = account("Late", locale="en-GB")
    page.goto("/account")
    expect(page.locator("#signed-in")).to_be_visible()
    signed_in = page.request.get("/api/account").text()

    held: list[Any] = []

    def hold(route: Any) -> None:  # answered after the log-out, below
        held.append(route)

    page.route("**/api/account", hold)
    with page.expect_request("**/api/account"):
        page.locator('.lang-switch [data-lang="fr"]').click()
        token_form = page.locator("#token-form")
        token_form.locator('[name="description"]').fill("late")
        token_form.locator('button[type="submit"]').click()
    page.locator("#logout").click()
    expect(page.locator("#signed-out")).to_be_visible()
    assert "username" not in page.request.get("/api/me").json()

    with page.expect_response("**/api/account/tokens"):
        for route in held:
            route.fulfill(status=200, content_type="application/json", body=signed_in)
    page.evaluate("() => new Promise(requestAnimationFrame)")  # the stale answer's turn
    expect(page.locator("#signed-out")).to_be_visible()
    expect(page.locator("#signed-in")).to_be_hidden()
    expect(page.locator("#message")).to_be_hidden()
