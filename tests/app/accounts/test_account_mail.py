"""E-mail and password resets through a real SMTP server: aiosmtpd, started by the test on a
local port, receives what the app sends (the stdlib's smtplib, as in production), and the
test follows the links of the mails it received."""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from email import message_from_bytes
from email.message import Message
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.accounts.control import RESET_TTL_MS, VERIFY_TTL_MS
from app.db.models import Player
from app.main import create_app
from tests.app.accounts.test_accounts import FAST, PASSWORD, Browser, call, db_rows, generous
from tests.app.accounts.test_accounts import register as register_account
from tests.app.accounts_and_streams import assert_error
from tests.app.conftest import make_settings

NEW_PASSWORD = "a new horse staple"
ADDRESS = "alice@example.org"


class Inbox:
    """aiosmtpd's handler: keeps every mail the server accepts."""

    def __init__(self) -> None:
        self.mails: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # aiosmtpd hook
        self.mails.append(message_from_bytes(envelope.content))
        return "250 OK"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    box = Inbox()
    port = free_port()
    server = Controller(box, hostname="127.0.0.1", port=port)
    server.start()
    try:
        yield box, port
    finally:
        server.stop()


@pytest.fixture
def web(
    database_url: str, tmp_path: Path, clock: Any, inbox: tuple[Inbox, int]
) -> Iterator[TestClient]:
    settings = make_settings(
        database_url,
        tmp_path,
        smtp_host="127.0.0.1",
        smtp_port=inbox[1],
        smtp_tls="none",
        smtp_from="kodama@example.org",
        public_url="https://kodama.example",
    )
    with TestClient(create_app(settings, clock)) as client:
        client.app.state.services.accounts.hasher = FAST  # type: ignore[attr-defined]
        client.app.state.services.accounts.limits = generous()  # type: ignore[attr-defined]
        yield client


def delivered(web: TestClient, box: Inbox) -> list[Message]:
    """The mails received once the app has sent all it was sending (the SMTP server has
    accepted a mail before the app's send returns)."""
    mailer = web.app.state.services.account_control.mailer  # type: ignore[attr-defined]
    web.portal.call(mailer.drain)  # type: ignore[union-attr]
    mails, box.mails[:] = list(box.mails), []
    return mails


def link_token(mail: Message, kind: str) -> str:
    body = mail.get_payload(decode=True)
    assert isinstance(body, bytes)
    found = re.search(rf"https://kodama\.example/account\?{kind}=([A-Za-z0-9_-]+)", body.decode())
    assert found is not None, body
    return found.group(1)


def with_verified_address(web: TestClient, box: Inbox) -> Browser:
    register_account(web, "alice")
    browser = Browser(web)
    browser.login("alice")
    answer = browser.post("/api/account/email", {"password": PASSWORD, "email": ADDRESS})
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"email": ADDRESS, "verified": False, "mail": True}
    [mail] = delivered(web, box)
    assert mail["To"] == ADDRESS and mail["From"] == "kodama@example.org"
    verified = Browser(web).post("/api/account/email/verify", {"token": link_token(mail, "verify")})
    assert verified.status_code == 200, verified.text
    assert browser.get("/api/account/email").json()["verified"] is True
    return browser


def forgot(web: TestClient, email: str = ADDRESS) -> Any:
    return call(web, "POST", "/api/account/password/forgot", json={"email": email})


def reset(web: TestClient, token: str, password: str = NEW_PASSWORD) -> Any:
    return call(
        web, "POST", "/api/account/password/reset", json={"token": token, "password": password}
    )


def test_a_forgotten_password_is_reset_by_the_mailed_link(web: TestClient, inbox: Any):
    box, _ = inbox
    logged_in = with_verified_address(web, box)
    assert forgot(web).status_code == 202
    [mail] = delivered(web, box)
    assert mail["To"] == ADDRESS and "reset" in mail["Subject"]
    answer = reset(web, link_token(mail, "reset"))
    assert answer.status_code == 200, answer.text
    assert answer.json()["username"] == "alice"
    assert "kodama_player" in answer.cookies  # the browser following the link is logged in
    # the new password logs in, the old one no longer, and the old sessions have ended
    assert Browser(web).login("alice", NEW_PASSWORD)["username"] == "alice"
    old = call(web, "POST", "/api/account/login", json={"username": "alice", "password": PASSWORD})
    assert_error(old, 401, "auth.bad_credentials")
    assert_error(logged_in.get("/api/account"), 401, "account.required")


def test_forgot_password_answers_the_same_whatever_the_address(web: TestClient, inbox: Any):
    box, _ = inbox
    with_verified_address(web, box)
    known, unknown = forgot(web), forgot(web, "nobody@example.org")
    assert (known.status_code, known.json()) == (unknown.status_code, unknown.json())
    assert [m["To"] for m in delivered(web, box)] == [ADDRESS]
    assert_error(forgot(web, "not an address"), 400, "account.email_invalid")


def test_an_unverified_address_gets_no_reset_link(web: TestClient, inbox: Any):
    box, _ = inbox
    register_account(web, "alice")
    browser = Browser(web)
    browser.login("alice")
    browser.post("/api/account/email", {"password": PASSWORD, "email": ADDRESS})
    delivered(web, box)  # the verification mail, not followed
    assert forgot(web).status_code == 202
    assert delivered(web, box) == []


def test_a_reset_link_works_once(web: TestClient, inbox: Any):
    box, _ = inbox
    with_verified_address(web, box)
    forgot(web)
    [mail] = delivered(web, box)
    token = link_token(mail, "reset")
    assert reset(web, token).status_code == 200
    assert_error(reset(web, token, "yet another one"), 400, "account.link_invalid")
    assert Browser(web).login("alice", NEW_PASSWORD)["username"] == "alice"


def test_a_reset_link_expires_after_an_hour(web: TestClient, inbox: Any, clock: Any):
    box, _ = inbox
    with_verified_address(web, box)
    forgot(web)
    [mail] = delivered(web, box)
    clock.jump(RESET_TTL_MS)
    assert_error(reset(web, link_token(mail, "reset")), 400, "account.link_invalid")
    assert_error(reset(web, "made-up"), 400, "account.link_invalid")
    assert Browser(web).login("alice")["username"] == "alice"  # the password stayed


def test_a_reset_refuses_a_weak_password_and_the_link_stays_usable(web: TestClient, inbox: Any):
    box, _ = inbox
    with_verified_address(web, box)
    forgot(web)
    token = link_token(delivered(web, box)[0], "reset")
    assert_error(reset(web, token, "short"), 400, "account.password_weak")
    assert reset(web, token).status_code == 200


def test_a_verification_link_expires_and_works_for_the_address_it_was_sent_to(
    web: TestClient, inbox: Any, clock: Any
):
    box, _ = inbox
    register_account(web, "alice")
    browser = Browser(web)
    browser.login("alice")
    browser.post("/api/account/email", {"password": PASSWORD, "email": ADDRESS})
    [first] = delivered(web, box)
    clock.jump(VERIFY_TTL_MS)
    late = browser.post("/api/account/email/verify", {"token": link_token(first, "verify")})
    assert_error(late, 400, "account.link_invalid")
    browser.post("/api/account/email", {"password": PASSWORD, "email": "other@example.org"})
    delivered(web, box)
    assert browser.get("/api/account/email").json() == {
        "email": "other@example.org",
        "verified": False,
        "mail": True,
    }


def test_setting_an_address_needs_the_password(web: TestClient, inbox: Any):
    box, _ = inbox
    register_account(web, "alice")
    browser = Browser(web)
    browser.login("alice")
    wrong = browser.post("/api/account/email", {"password": "wrong", "email": ADDRESS})
    assert_error(wrong, 403, "account.password_wrong")
    assert_error(
        browser.post("/api/account/email", {"password": PASSWORD, "email": "no"}),
        400,
        "account.email_invalid",
    )
    assert delivered(web, box) == []
    [row] = db_rows(web, select(Player).where(Player.id == "alice"))
    assert row.email is None
    removed = browser.post("/api/account/email", {"password": PASSWORD, "email": ""})
    assert removed.json()["email"] is None


def test_forgot_password_is_rate_limited_per_address_and_per_address_of_the_caller(
    web: TestClient, inbox: Any
):
    box, _ = inbox
    with_verified_address(web, box)
    for _ in range(3):
        assert forgot(web).status_code == 202
    assert_error(forgot(web), 429, "ratelimit")  # 3 mails to one address, then a pause
    assert len(delivered(web, box)) == 3
    assert forgot(web, "b@example.org").status_code == 202
    assert_error(forgot(web, "c@example.org"), 429, "ratelimit")  # 5 asks per caller


def test_without_an_smtp_server_there_is_no_mail(client: TestClient):
    client.app.state.services.accounts.hasher = FAST  # type: ignore[attr-defined]
    register_account(client, "alice")
    browser = Browser(client)
    browser.login("alice")
    assert browser.get("/api/account/email").json() == {
        "email": None,
        "verified": False,
        "mail": False,
    }
    setting = browser.post("/api/account/email", {"password": PASSWORD, "email": ADDRESS})
    assert_error(setting, 503, "mail.unavailable")
    assert_error(forgot(client), 503, "mail.unavailable")
